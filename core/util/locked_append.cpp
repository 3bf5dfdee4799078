#include "core/util/locked_append.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <thread>
#include <utility>

#include "core/error.hpp"
#include "core/util/fd.hpp"

namespace gv::util {
namespace {

namespace fs = std::filesystem;

// Takes the lock, waiting for it, or until `deadline`. False when the deadline passed.
bool lock_until(int fd, int operation, const fs::path& file, std::string_view what,
                LockDeadline deadline) {
  if (!deadline) {
    while (::flock(fd, operation) != 0) {
      if (errno != EINTR) {
        throw Error("{}: cannot lock {}: {}", file.string(), what, errno_text());
      }
    }
    return true;
  }
  while (::flock(fd, operation | LOCK_NB) != 0) {
    if (errno != EWOULDBLOCK && errno != EINTR) {
      throw Error("{}: cannot lock {}: {}", file.string(), what, errno_text());
    }
    if (std::chrono::steady_clock::now() >= *deadline) {
      return false;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
  return true;
}

// Whether `fd` is still the file at `file`: a fold may have renamed a new file over it while we
// waited for the lock.
bool still_current(int fd, const fs::path& file) {
  struct stat open_st {};
  struct stat path_st {};
  return ::fstat(fd, &open_st) == 0 && ::stat(file.c_str(), &path_st) == 0 &&
         open_st.st_ino == path_st.st_ino && open_st.st_dev == path_st.st_dev;
}

std::string read_from(int fd, off_t offset, const fs::path& file, std::string_view what) {
  std::string bytes;
  char buffer[65536];
  while (true) {
    const ssize_t got = ::pread(fd, buffer, sizeof buffer, offset);
    if (got < 0) {
      if (errno == EINTR) {
        continue;
      }
      throw Error("{}: cannot read {}: {}", file.string(), what, errno_text());
    }
    if (got == 0) {
      return bytes;
    }
    bytes.append(buffer, static_cast<std::size_t>(got));
    offset += got;
  }
}

void write_all(int fd, std::string_view bytes, const fs::path& file, std::string_view what) {
  std::size_t written = 0;
  while (written < bytes.size()) {
    const ssize_t n = ::write(fd, bytes.data() + written, bytes.size() - written);
    if (n < 0) {
      if (errno == EINTR) {
        continue;
      }
      throw Error("{}: cannot write {}: {}", file.string(), what, errno_text());
    }
    written += static_cast<std::size_t>(n);
  }
}

// Opens `file` for appending (creating it), takes the exclusive lock and, holding it, appends
// what `decide` returns for the descriptor. False when `deadline` passed first.
bool append_with(const fs::path& file, std::string_view what, LockDeadline deadline,
                 const std::function<std::string(int fd)>& decide) {
  std::error_code ignored;
  fs::create_directories(file.parent_path(), ignored);
  while (true) {
    const Fd fd(::open(file.c_str(), O_RDWR | O_APPEND | O_CREAT | O_CLOEXEC, 0644));
    if (fd.get() < 0) {
      throw Error("{}: cannot open {}: {}", file.string(), what, errno_text());
    }
    if (!lock_until(fd.get(), LOCK_EX, file, what, deadline)) {
      return false;
    }
    if (!still_current(fd.get(), file)) {
      continue;  // renamed over by a fold: append to the file that replaced it
    }
    std::string bytes = decide(fd.get());
    if (bytes.empty()) {
      return true;
    }
    // A write torn by a crash leaves a last line without its newline: end it first, so that
    // these lines stay lines of their own and only the torn one is lost.
    struct stat st {};
    char last = '\n';
    if (::fstat(fd.get(), &st) == 0 && st.st_size > 0 &&
        ::pread(fd.get(), &last, 1, st.st_size - 1) == 1 && last != '\n') {
      bytes.insert(bytes.begin(), '\n');
    }
    // One write: O_APPEND puts it at the end whatever another process did in between.
    write_all(fd.get(), bytes, file, what);
    return true;
  }
}

}  // namespace

bool append_locked(const fs::path& file, std::string_view bytes, std::string_view what,
                   LockDeadline deadline) {
  if (bytes.empty()) {
    return true;
  }
  return append_with(file, what, deadline, [&](int) { return std::string(bytes); });
}

bool append_locked_if(const fs::path& file,
                      const std::function<std::string(std::string_view current)>& decide,
                      std::string_view what, LockDeadline deadline) {
  return append_with(file, what, deadline,
                     [&](int fd) { return decide(read_from(fd, 0, file, what)); });
}

std::optional<std::string> read_locked(const fs::path& file, std::string_view what) {
  while (true) {
    const Fd fd(::open(file.c_str(), O_RDONLY | O_CLOEXEC));
    if (fd.get() < 0) {
      if (errno == ENOENT) {
        return std::nullopt;
      }
      throw Error("{}: cannot open {}: {}", file.string(), what, errno_text());
    }
    (void)lock_until(fd.get(), LOCK_SH, file, what, std::nullopt);
    if (!still_current(fd.get(), file)) {
      continue;
    }
    return read_from(fd.get(), 0, file, what);
  }
}

void drop_prefix(const fs::path& file, std::size_t size, std::string_view what) {
  if (size == 0) {
    return;
  }
  const Fd fd(::open(file.c_str(), O_RDWR | O_CLOEXEC));
  if (fd.get() < 0) {
    if (errno == ENOENT) {
      return;
    }
    throw Error("{}: cannot open {}: {}", file.string(), what, errno_text());
  }
  (void)lock_until(fd.get(), LOCK_EX, file, what, std::nullopt);
  const std::string rest = read_from(fd.get(), static_cast<off_t>(size), file, what);
  // A new file renamed over the old one, not a rewrite in place: a crash leaves one or the
  // other whole, and an appender holding the old file sees the rename and reopens.
  const fs::path temporary = file.string() + ".tmp-" + std::to_string(::getpid());
  {
    const Fd out(::open(temporary.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644));
    if (out.get() < 0) {
      throw Error("{}: cannot write {}: {}", temporary.string(), what, errno_text());
    }
    write_all(out.get(), rest, temporary, what);
    if (::fsync(out.get()) != 0) {
      throw Error("{}: cannot write {}: {}", temporary.string(), what, errno_text());
    }
  }
  if (::rename(temporary.c_str(), file.c_str()) != 0) {
    const std::string reason = errno_text();
    std::error_code ignored;
    fs::remove(temporary, ignored);
    throw Error("{}: cannot replace {}: {}", file.string(), what, reason);
  }
}

}  // namespace gv::util
