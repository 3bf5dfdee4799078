#include "core/util/shared_log.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <optional>
#include <utility>

#include "core/error.hpp"
#include "core/util/digest.hpp"
#include "core/util/fd.hpp"

namespace gv::util {

namespace fs = std::filesystem;

namespace {

void lock(int fd, int operation, const fs::path& path) {
  while (::flock(fd, operation) != 0) {
    if (errno != EINTR) {
      throw Error("{}: cannot lock: {}", path.string(), errno_text());
    }
  }
}

std::string read_range(int fd, std::uint64_t offset, std::uint64_t length, const fs::path& path) {
  std::string bytes;
  char buffer[65536];
  while (bytes.size() < length) {
    const std::size_t want = std::min<std::uint64_t>(sizeof buffer, length - bytes.size());
    const ssize_t got = ::pread(fd, buffer, want, static_cast<off_t>(offset + bytes.size()));
    if (got < 0) {
      if (errno == EINTR) {
        continue;
      }
      throw Error("{}: cannot read: {}", path.string(), errno_text());
    }
    if (got == 0) {
      break;
    }
    bytes.append(buffer, static_cast<std::size_t>(got));
  }
  return bytes;
}

std::string digest_of(std::string_view bytes) {
  Digest128 digest;
  digest.add(bytes);
  return digest.hex();
}

void write_whole(int fd, std::string_view bytes, const fs::path& path) {
  std::size_t done = 0;
  while (done < bytes.size()) {
    const ssize_t n = ::write(fd, bytes.data() + done, bytes.size() - done);
    if (n < 0) {
      if (errno == EINTR) {
        continue;
      }
      throw Error("{}: cannot write: {}", path.string(), errno_text());
    }
    done += static_cast<std::size_t>(n);
  }
}

std::optional<std::uint64_t> inode_at(const fs::path& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) {
    return std::nullopt;
  }
  return static_cast<std::uint64_t>(st.st_ino);
}

}  // namespace

LockedLog::LockedLog(fs::path path, bool exclusive, bool create) : m_path(std::move(path)) {
  if (create) {
    std::error_code ignored;
    fs::create_directories(m_path.parent_path(), ignored);
  }
  // A drop renames a new generation over the path while we wait for the old one's lock: the
  // lock taken must be the lock of the file the path names.
  while (true) {
    const int fd = ::open(m_path.c_str(), O_RDWR | O_CLOEXEC | (create ? O_CREAT : 0), 0644);
    if (fd < 0) {
      if (errno == ENOENT && !create) {
        return;
      }
      throw Error("{}: cannot open: {}", m_path.string(), errno_text());
    }
    try {
      lock(fd, exclusive ? LOCK_EX : LOCK_SH, m_path);
    } catch (...) {
      ::close(fd);
      throw;
    }
    struct stat st {};
    if (::fstat(fd, &st) != 0) {
      const std::string why = errno_text();
      ::close(fd);
      throw Error("{}: cannot read: {}", m_path.string(), why);
    }
    if (inode_at(m_path) == static_cast<std::uint64_t>(st.st_ino)) {
      m_fd = fd;
      m_inode = static_cast<std::uint64_t>(st.st_ino);
      return;
    }
    ::close(fd);
  }
}

LockedLog::~LockedLog() {
  if (m_fd >= 0) {
    ::close(m_fd);  // releases the lock
  }
}

std::string LockedLog::read_all() const {
  if (m_fd < 0) {
    return {};
  }
  return read_range(m_fd, 0, UINT64_MAX, m_path);
}

FilePrefix prefix_of(const fs::path& path, std::uint64_t inode, std::string_view bytes) {
  return {path.string(), inode, bytes.size(), digest_of(bytes)};
}

std::uint64_t consumed_length(const fs::path& path, std::uint64_t inode, std::string_view bytes,
                              const std::vector<FilePrefix>& prefixes) {
  std::uint64_t longest = 0;
  for (const FilePrefix& prefix : prefixes) {
    if (prefix.path == path.string() && prefix.inode == inode && prefix.length > longest &&
        prefix.length <= bytes.size() &&
        digest_of(bytes.substr(0, prefix.length)) == prefix.digest) {
      longest = prefix.length;
    }
  }
  return longest;
}

bool prefix_present(const FilePrefix& prefix) {
  const int fd = ::open(prefix.path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    return false;
  }
  struct stat st {};
  bool present = ::fstat(fd, &st) == 0 && static_cast<std::uint64_t>(st.st_ino) == prefix.inode &&
                 static_cast<std::uint64_t>(st.st_size) >= prefix.length;
  if (present) {
    try {
      present = digest_of(read_range(fd, 0, prefix.length, prefix.path)) == prefix.digest;
    } catch (const Error&) {
      present = false;
    }
  }
  ::close(fd);
  return present;
}

bool drop_prefix(const FilePrefix& prefix, const std::function<void()>& before_rename) {
  const fs::path path = prefix.path;
  const LockedLog log(path, true, false);
  if (log.absent() || log.inode() != prefix.inode) {
    return false;
  }
  const std::string bytes = log.read_all();
  if (bytes.size() < prefix.length ||
      digest_of(std::string_view(bytes).substr(0, prefix.length)) != prefix.digest) {
    return false;
  }
  // Under the old generation's lock, so one dropper at a time writes the new one; a file left by
  // a dropper that was killed is overwritten.
  const fs::path next = path.string() + ".new";
  const int fd = ::open(next.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0644);
  if (fd < 0) {
    throw Error("{}: cannot write: {}", next.string(), errno_text());
  }
  try {
    write_whole(fd, std::string_view(bytes).substr(prefix.length), next);
    if (::fsync(fd) != 0) {
      throw Error("{}: cannot sync: {}", next.string(), errno_text());
    }
  } catch (...) {
    ::close(fd);
    ::unlink(next.c_str());
    throw;
  }
  ::close(fd);
  if (before_rename) {
    before_rename();
  }
  if (::rename(next.c_str(), path.c_str()) != 0) {
    const std::string why = errno_text();
    ::unlink(next.c_str());
    throw Error("{}: cannot replace: {}", path.string(), why);
  }
  // The rename reaches the disk before anyone relies on it (the landing's journal goes next).
  const int dir = ::open(path.parent_path().c_str(), O_RDONLY | O_CLOEXEC | O_DIRECTORY);
  if (dir >= 0) {
    ::fsync(dir);
    ::close(dir);
  }
  return true;
}

}  // namespace gv::util
