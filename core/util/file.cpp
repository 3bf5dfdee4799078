#include "core/util/file.hpp"

#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <charconv>
#include <cstring>
#include <string_view>

#include "core/error.hpp"
#include "core/util/fd.hpp"

namespace gv::util {
namespace fs = std::filesystem;

std::optional<std::string> read_file_if_exists(const std::filesystem::path& path) {
  Fd fd(::open(path.c_str(), O_RDONLY | O_CLOEXEC));
  if (fd.get() < 0) {
    if (errno == ENOENT) {
      return std::nullopt;
    }
    throw Error("{}: cannot read: {}", path.string(), errno_text());
  }
  struct stat st {};
  if (::fstat(fd.get(), &st) == 0 && S_ISDIR(st.st_mode)) {
    throw Error("{}: cannot read: is a directory", path.string());
  }
  std::string bytes;
  if (st.st_size > 0) {
    bytes.reserve(static_cast<std::size_t>(st.st_size));
  }
  char buffer[65536];
  while (true) {
    const ssize_t n = ::read(fd.get(), buffer, sizeof buffer);
    if (n == 0) {
      break;
    }
    if (n < 0) {
      if (errno == EINTR) {
        continue;
      }
      throw Error("{}: cannot read: {}", path.string(), errno_text());
    }
    bytes.append(buffer, static_cast<std::size_t>(n));
  }
  return bytes;
}

std::string read_file(const std::filesystem::path& path) {
  std::optional<std::string> bytes = read_file_if_exists(path);
  if (!bytes) {
    throw Error("{}: cannot read: {}", path.string(), std::strerror(ENOENT));
  }
  return std::move(*bytes);
}

std::filesystem::path temp_sibling(const std::filesystem::path& path) {
  const std::filesystem::path dir = path.has_parent_path() ? path.parent_path() : ".";
  return dir / ("." + path.filename().string() + ".tmp-" + std::to_string(::getpid()));
}

void remove_orphaned_temp_files(const std::filesystem::path& dir) {
  std::error_code ec;
  for (auto it = std::filesystem::directory_iterator(dir, ec);
       !ec && it != std::filesystem::directory_iterator(); it.increment(ec)) {
    const std::string name = it->path().filename().string();
    const std::size_t mark = name.rfind(".tmp-");
    if (name.size() < 2 || name.front() != '.' || mark == std::string::npos || mark == 0) {
      continue;
    }
    const std::string_view digits = std::string_view(name).substr(mark + 5);
    pid_t pid = 0;
    const auto [end, parse] = std::from_chars(digits.data(), digits.data() + digits.size(), pid);
    if (parse != std::errc{} || end != digits.data() + digits.size() || pid <= 0) {
      continue;
    }
    // kill(pid, 0) fails with ESRCH only when no process has that pid: one that does may be
    // the writer (or a stranger reusing its pid; the file is then removed by a later run).
    if (pid != ::getpid() && ::kill(pid, 0) != 0 && errno == ESRCH) {
      ::unlink(it->path().c_str());
    }
  }
}

void write_file_atomic(const std::filesystem::path& path, std::string_view bytes, bool executable) {
  const std::filesystem::path dir = path.has_parent_path() ? path.parent_path() : ".";
  // The pid keeps two processes' temporary files apart; rename() then decides who wins.
  const std::filesystem::path temp = temp_sibling(path);
  Fd fd(::open(temp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666));
  if (fd.get() < 0) {
    throw Error("{}: cannot write: {}", path.string(), errno_text());
  }
  const auto fail = [&](const std::string& why) {
    ::unlink(temp.c_str());
    throw Error("{}: cannot write: {}", path.string(), why);
  };
  std::size_t done = 0;
  while (done < bytes.size()) {
    const ssize_t n = ::write(fd.get(), bytes.data() + done, bytes.size() - done);
    if (n < 0) {
      if (errno == EINTR) {
        continue;
      }
      fail(errno_text());
    }
    done += static_cast<std::size_t>(n);
  }
  if (executable && ::fchmod(fd.get(), 0755) != 0) {
    fail(errno_text());
  }
  if (::fsync(fd.get()) != 0 || !fd.close()) {
    fail(errno_text());
  }
  if (::rename(temp.c_str(), path.c_str()) != 0) {
    fail(errno_text());
  }
  // The rename is durable only once the directory entry is on disk.
  Fd dir_fd(::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
  if (dir_fd.get() >= 0) {
    ::fsync(dir_fd.get());
  }
}

bool write_cache_file(const std::filesystem::path& path, std::string_view bytes) {
  const std::string_view pieces[] = {bytes};
  return write_cache_file(path, pieces);
}

bool write_cache_file(const std::filesystem::path& path, std::span<const std::string_view> pieces) {
  std::error_code ec;
  const std::filesystem::path dir = path.has_parent_path() ? path.parent_path() : ".";
  std::filesystem::create_directories(dir, ec);
  const std::filesystem::path temp = temp_sibling(path);
  Fd fd(::open(temp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644));
  if (fd.get() < 0) {
    return false;
  }
  bool ok = true;
  for (std::string_view piece : pieces) {
    while (ok && !piece.empty()) {
      const ssize_t n = ::write(fd.get(), piece.data(), piece.size());
      if (n < 0 && errno == EINTR) {
        continue;
      }
      ok = n > 0;
      piece.remove_prefix(ok ? static_cast<std::size_t>(n) : piece.size());
    }
  }
  ok = fd.close() && ok;
  // Renamed over an existing file, the new one would be written out to disk at once (ext4's
  // guard for programs that replace files without fsync), a cost on every commit for a file
  // that is only a cache. Without a file to replace there is no such write; a reader in the
  // moment between finds no cache, as after a crash, and rebuilds it.
  ok = ok && (::unlink(path.c_str()) == 0 || errno == ENOENT) &&
       ::rename(temp.c_str(), path.c_str()) == 0;
  if (!ok) {
    ::unlink(temp.c_str());
  }
  return ok;
}

bool create_file_exclusive(const std::filesystem::path& path, std::string_view bytes) {
  std::filesystem::create_directories(path.parent_path());
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
  if (fd < 0) {
    if (errno == EEXIST) {
      return false;
    }
    throw Error("{}: cannot create: {}", path.string(), std::strerror(errno));
  }
  std::size_t done = 0;
  while (done < bytes.size()) {
    const ssize_t n = ::write(fd, bytes.data() + done, bytes.size() - done);
    if (n < 0) {
      ::close(fd);
      std::filesystem::remove(path);
      throw Error("{}: cannot write: {}", path.string(), std::strerror(errno));
    }
    done += static_cast<std::size_t>(n);
  }
  ::close(fd);
  return true;
}

PathsFromCwd::PathsFromCwd(const fs::path& workdir) {
  std::error_code ec;
  const fs::path cwd = fs::current_path(ec);
  if (ec) {
    return;
  }
  m_top = fs::weakly_canonical(workdir, ec);
  if (ec) {
    return;
  }
  m_cwd = fs::weakly_canonical(cwd, ec);
  m_same = ec || m_cwd == m_top;
}

std::string PathsFromCwd::operator()(std::string_view repo_path) const {
  if (m_same) {
    return std::string(repo_path);
  }
  const fs::path relative = (m_top / repo_path).lexically_relative(m_cwd);
  return relative.empty() ? std::string(repo_path) : relative.string();
}

std::string path_from_cwd(const fs::path& workdir, std::string_view repo_path) {
  return PathsFromCwd(workdir)(repo_path);
}

}  // namespace gv::util
