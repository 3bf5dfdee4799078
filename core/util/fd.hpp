#pragma once

#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <string>

// An open file descriptor that closes itself, and the text of errno, for the files in util/
// that speak POSIX directly (file.cpp, locked_append.cpp, shared_log.cpp). One copy for all of
// them: util/ compiles in unity batches, where two copies in one batch would clash
// (doc/architecture.md, "Building").
namespace gv::util {

// strerror(errno), read at the call.
inline std::string errno_text() { return std::strerror(errno); }

// Owns `fd` (negative: none) and closes it on scope exit, so error paths can return early.
class Fd {
 public:
  explicit Fd(int fd) : m_fd(fd) {}
  ~Fd() {
    if (m_fd >= 0) {
      ::close(m_fd);
    }
  }
  Fd(const Fd&) = delete;
  Fd& operator=(const Fd&) = delete;
  [[nodiscard]] int get() const { return m_fd; }
  // Closes now and reports whether the close succeeded (a write error can surface here).
  bool close() {
    const int fd = m_fd;
    m_fd = -1;
    return ::close(fd) == 0;
  }

 private:
  int m_fd;
};

}  // namespace gv::util
