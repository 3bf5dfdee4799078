#include "core/util/process.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "core/error.hpp"
#include "core/util/system.hpp"

extern char** environ;

namespace gv::util {
namespace {

// Ignores SIGPIPE while it lives, so a command that exits without reading all of its input
// (`head -c 50`) turns the write into EPIPE instead of killing git-vault.
class IgnoreSigpipe {
 public:
  IgnoreSigpipe() {
    struct sigaction ignore {};
    ignore.sa_handler = SIG_IGN;
    sigemptyset(&ignore.sa_mask);
    sigaction(SIGPIPE, &ignore, &m_previous);
  }
  ~IgnoreSigpipe() { sigaction(SIGPIPE, &m_previous, nullptr); }
  IgnoreSigpipe(const IgnoreSigpipe&) = delete;
  IgnoreSigpipe& operator=(const IgnoreSigpipe&) = delete;

 private:
  struct sigaction m_previous {};
};

class PipeFd {
 public:
  PipeFd() = default;
  ~PipeFd() { reset(); }
  PipeFd(const PipeFd&) = delete;
  PipeFd& operator=(const PipeFd&) = delete;
  void adopt(int fd) {
    reset();
    m_fd = fd;
  }
  [[nodiscard]] int get() const { return m_fd; }
  [[nodiscard]] bool open() const { return m_fd >= 0; }
  void reset() {
    if (m_fd >= 0) {
      ::close(m_fd);
      m_fd = -1;
    }
  }

 private:
  int m_fd = -1;
};

void make_pipe(PipeFd& read_end, PipeFd& write_end, std::string_view label) {
  int fds[2];
  if (cloexec_pipe(fds) != 0) {
    throw Error("{}: cannot create a pipe: {}", label, std::strerror(errno));
  }
  read_end.adopt(fds[0]);
  write_end.adopt(fds[1]);
}

}  // namespace

ShellResult run_shell(const ShellRun& command) {
  const std::string& name = command.label;
  const std::string_view input = command.input;
  ShellResult result;
  // Built before fork: the child only calls async-signal-safe functions.
  std::vector<std::string> env_strings;
  for (char** entry = environ; entry != nullptr && *entry != nullptr; ++entry) {
    const std::string_view text(*entry);
    const bool overridden =
        std::any_of(command.env.begin(), command.env.end(), [&](const auto& pair) {
          return text.size() > pair.first.size() &&
                 text.substr(0, pair.first.size()) == pair.first && text[pair.first.size()] == '=';
        });
    if (!overridden) {
      env_strings.emplace_back(text);
    }
  }
  for (const auto& [key, value] : command.env) {
    env_strings.push_back(key + "=" + value);
  }
  std::vector<char*> envp;
  for (std::string& entry : env_strings) {
    envp.push_back(entry.data());
  }
  envp.push_back(nullptr);
  std::string shell = "/bin/sh";
  std::string dash_c = "-c";
  std::string script = command.command;
  char* argv[] = {shell.data(), dash_c.data(), script.data(), nullptr};

  PipeFd in_read, in_write, out_read, out_write, err_read, err_write;
  make_pipe(in_read, in_write, name);
  make_pipe(out_read, out_write, name);
  make_pipe(err_read, err_write, name);

  const IgnoreSigpipe ignore_sigpipe;
  const pid_t pid = ::fork();
  if (pid < 0) {
    throw Error("{}: cannot start: {}", name, std::strerror(errno));
  }
  if (pid == 0) {
    ::setpgid(0, 0);  // its own group, so a timeout kills the pipeline it started too
    struct sigaction fallback {};
    fallback.sa_handler = SIG_DFL;
    sigemptyset(&fallback.sa_mask);
    sigaction(SIGPIPE, &fallback, nullptr);
    ::dup2(in_read.get(), 0);
    ::dup2(out_write.get(), 1);
    ::dup2(err_write.get(), 2);
    ::execve(argv[0], argv, envp.data());
    ::_exit(127);
  }
  ::setpgid(pid, pid);  // also from here, so the group exists before any kill below
  in_read.reset();
  out_write.reset();
  err_write.reset();
  for (const PipeFd* fd : {&in_write, &out_read, &err_read}) {
    ::fcntl(fd->get(), F_SETFL, ::fcntl(fd->get(), F_GETFL) | O_NONBLOCK);
  }

  std::string& out = result.out;
  std::string& err = result.err;
  std::size_t written = 0;
  if (input.empty()) {
    in_write.reset();
  }
  const auto deadline = std::chrono::steady_clock::now() + command.timeout;
  auto kill_child = [&] {
    ::kill(-pid, SIGKILL);
    int ignored = 0;
    ::waitpid(pid, &ignored, 0);
  };
  while (out_read.open() || err_read.open()) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
        deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0) {
      kill_child();
      result.ending = ShellResult::Ending::timed_out;
      return result;
    }
    std::vector<pollfd> fds;
    if (in_write.open()) {
      fds.push_back({in_write.get(), POLLOUT, 0});
    }
    if (out_read.open()) {
      fds.push_back({out_read.get(), POLLIN, 0});
    }
    if (err_read.open()) {
      fds.push_back({err_read.get(), POLLIN, 0});
    }
    const int ready = ::poll(fds.data(), fds.size(), static_cast<int>(left.count()));
    if (ready < 0) {
      if (errno == EINTR) {
        continue;
      }
      kill_child();
      throw Error("{}: poll failed: {}", name, std::strerror(errno));
    }
    for (const pollfd& fd : fds) {
      if (fd.revents == 0) {
        continue;
      }
      if (fd.fd == in_write.get()) {
        const ssize_t n = ::write(fd.fd, input.data() + written, input.size() - written);
        if (n > 0) {
          written += static_cast<std::size_t>(n);
        }
        if (written == input.size() || (n < 0 && errno != EAGAIN && errno != EINTR)) {
          in_write.reset();  // all sent, or the command stopped reading (EPIPE)
        }
        continue;
      }
      PipeFd& source = fd.fd == out_read.get() ? out_read : err_read;
      std::string& sink = fd.fd == out_read.get() ? out : err;
      char buffer[65536];
      const ssize_t n = ::read(fd.fd, buffer, sizeof buffer);
      if (n > 0) {
        sink.append(buffer, static_cast<std::size_t>(n));
        if (out.size() > command.max_output) {
          kill_child();
          result.ending = ShellResult::Ending::too_much_output;
          return result;
        }
        if (err.size() > 65536) {
          err.resize(65536);
        }
      } else if (n == 0 || (errno != EAGAIN && errno != EINTR)) {
        source.reset();
      }
    }
  }
  in_write.reset();
  // A command may close its output and linger (a daemon it started): the limit still holds.
  int status = 0;
  while (true) {
    const pid_t done = ::waitpid(pid, &status, WNOHANG);
    if (done == pid) {
      break;
    }
    if (done < 0 && errno != EINTR) {
      throw Error("{}: cannot wait for it: {}", name, std::strerror(errno));
    }
    if (std::chrono::steady_clock::now() >= deadline) {
      kill_child();
      result.ending = ShellResult::Ending::timed_out;
      return result;
    }
    ::usleep(2000);
  }
  if (WIFSIGNALED(status)) {
    result.ending = ShellResult::Ending::signaled;
    result.status = WTERMSIG(status);
  } else {
    result.status = WEXITSTATUS(status);
  }
  return result;
}

void exec_program(const std::vector<std::string>& argv) {
  if (argv.empty()) {
    throw Error("exec: no program named");
  }
  std::vector<std::string> words = argv;  // execvp takes char*, which a copy can give
  std::vector<char*> raw;
  raw.reserve(words.size() + 1);
  for (std::string& word : words) {
    raw.push_back(word.data());
  }
  raw.push_back(nullptr);
  std::fflush(stdout);
  std::fflush(stderr);
  ::execvp(raw.front(), raw.data());
  throw Error("{}: cannot run: {}", argv.front(), std::strerror(errno));
}

}  // namespace gv::util
