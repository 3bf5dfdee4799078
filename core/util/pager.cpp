#include "core/util/pager.hpp"

#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>

#include "core/util/system.hpp"

namespace gv::util {

Pager::Pager(const std::string& command) {
  int fds[2];
  if (cloexec_pipe(fds) != 0) {
    return;
  }
  std::fflush(stdout);
  const pid_t pid = ::fork();
  if (pid < 0) {
    ::close(fds[0]);
    ::close(fds[1]);
    return;
  }
  if (pid == 0) {
    ::dup2(fds[0], STDIN_FILENO);
    ::setenv("LESS", "FRX", 0);  // 0: the user's own setting wins
    ::setenv("LV", "-c", 0);
    ::execl("/bin/sh", "sh", "-c", command.c_str(), static_cast<char*>(nullptr));
    ::_exit(127);
  }
  ::dup2(fds[1], STDOUT_FILENO);
  ::close(fds[0]);
  ::close(fds[1]);
  // A reader who quits the pager early must not kill git-vault with SIGPIPE mid-way through
  // saving a cache: the write fails instead and the output is simply cut.
  ::signal(SIGPIPE, SIG_IGN);
  m_pid = pid;
}

Pager::~Pager() {
  if (m_pid < 0) {
    return;
  }
  std::fflush(stdout);
  ::close(STDOUT_FILENO);  // the pager sees the end of its input
  int status = 0;
  while (::waitpid(m_pid, &status, 0) < 0 && errno == EINTR) {
  }
}

}  // namespace gv::util
