#include "tests/e2e/sandbox.hpp"

#include <fcntl.h>
#include <poll.h>
#if __has_include(<pty.h>)
#include <pty.h>  // openpty: glibc and musl
#else
#include <util.h>  // openpty: macOS and the BSDs
#endif
#include <signal.h>
#include <sys/wait.h>
#include <termios.h>
#include <unistd.h>

#include <array>
#include <catch2/catch.hpp>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include "core/util/system.hpp"

extern char** environ;

namespace gv::test {
namespace fs = std::filesystem;

namespace {

fs::path make_temp_dir() {
  std::string pattern = (fs::temp_directory_path() / "git-vault-e2e-XXXXXX").string();
  if (mkdtemp(pattern.data()) == nullptr) {
    throw std::runtime_error("mkdtemp failed");
  }
  return fs::canonical(pattern);
}

// Drains both pipes together so a chatty child never blocks on a full pipe.
void drain(int out_fd, int err_fd, std::string& out, std::string& err) {
  std::array<pollfd, 2> fds{pollfd{out_fd, POLLIN, 0}, pollfd{err_fd, POLLIN, 0}};
  int open_count = 2;
  std::array<char, 65536> buffer{};
  while (open_count > 0) {
    if (poll(fds.data(), fds.size(), -1) < 0) {
      break;
    }
    for (std::size_t i = 0; i < fds.size(); ++i) {
      if (fds[i].fd < 0 || fds[i].revents == 0) {
        continue;
      }
      const ssize_t n = ::read(fds[i].fd, buffer.data(), buffer.size());
      if (n <= 0) {
        ::close(fds[i].fd);
        fds[i].fd = -1;
        --open_count;
        continue;
      }
      (i == 0 ? out : err).append(buffer.data(), static_cast<std::size_t>(n));
    }
  }
}

}  // namespace

Sandbox::Sandbox() : m_root(make_temp_dir()) {
  m_bin_dir = m_root.parent_path() / (m_root.filename().string() + "-bin");
  fs::create_directories(m_bin_dir);
  // `git vault` finds git-vault on PATH; link the freshly built binary there.
  fs::create_symlink(GIT_VAULT_BIN, m_bin_dir / "git-vault");
  fs::create_directories(m_root / ".home");
  m_env = {
      {"HOME", (m_root / ".home").string()},
      {"XDG_CONFIG_HOME", (m_root / ".home" / ".config").string()},
      {"GIT_CONFIG_NOSYSTEM", "1"},
      {"GIT_AUTHOR_NAME", "Vault Tester"},
      {"GIT_AUTHOR_EMAIL", "tester@example.com"},
      {"GIT_AUTHOR_DATE", "2026-11-30T12:00:00Z"},
      {"GIT_COMMITTER_NAME", "Vault Tester"},
      {"GIT_COMMITTER_EMAIL", "tester@example.com"},
      {"GIT_COMMITTER_DATE", "2026-11-30T12:00:00Z"},
      {"GIT_VAULT_TODAY", "2026-11-30"},
      {"GIT_VAULT_NOW", "2026-11-30T12:00:00Z"},
      {"NO_COLOR", "1"},
  };
  const Result init = git({"init", "-q", "-b", "main"});
  REQUIRE(init.code == 0);
  // The sandbox's .home lives inside the repository root; keep it out of `git add -A`.
  write(".git/info/exclude", ".home/\n");
}

Sandbox::~Sandbox() {
  std::error_code ignored;
  fs::remove_all(m_root, ignored);
  fs::remove_all(m_bin_dir, ignored);
}

fs::path Sandbox::path(std::string_view relative) const { return m_root / relative; }

void Sandbox::write(std::string_view relative, std::string_view bytes) const {
  const fs::path target = path(relative);
  fs::create_directories(target.parent_path());
  std::ofstream stream(target, std::ios::binary | std::ios::trunc);
  stream.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  REQUIRE(stream.good());
}

std::string Sandbox::read(std::string_view relative) const {
  std::ifstream stream(path(relative), std::ios::binary);
  REQUIRE(stream.good());
  std::ostringstream buffer;
  buffer << stream.rdbuf();
  return buffer.str();
}

bool Sandbox::exists(std::string_view relative) const {
  return fs::exists(fs::symlink_status(path(relative)));
}

void Sandbox::set_env(std::string name, std::string value) {
  for (auto& [key, current] : m_env) {
    if (key == name) {
      current = std::move(value);
      return;
    }
  }
  m_env.emplace_back(std::move(name), std::move(value));
}

Result Sandbox::vault(const std::vector<std::string>& args, std::string_view stdin_bytes,
                      std::string_view cwd) const {
  std::vector<std::string> argv{GIT_VAULT_BIN};
  argv.insert(argv.end(), args.begin(), args.end());
  return run(argv, stdin_bytes, cwd);
}

Result Sandbox::git(const std::vector<std::string>& args, std::string_view cwd) const {
  std::vector<std::string> argv{"git"};
  argv.insert(argv.end(), args.begin(), args.end());
  return run(argv, {}, cwd);
}

Result Sandbox::sh(std::string_view command_line, std::string_view cwd) const {
  return run({"/bin/sh", "-c", std::string{command_line}}, {}, cwd);
}

void Sandbox::commit_all(std::string_view message) const {
  const Result add = git({"add", "-A"});
  REQUIRE(add.code == 0);
  const Result commit = git({"commit", "-q", "--no-verify", "-m", std::string{message}});
  INFO(commit.err);
  REQUIRE(commit.code == 0);
}

std::vector<std::string> Sandbox::child_environment() const {
  // Ours minus git/vault variables that would leak in from a developer's shell (or from a git
  // hook running this suite), plus the sandbox's pins.
  std::vector<std::string> env_strings;
  for (char** entry = environ; *entry != nullptr; ++entry) {
    const std::string_view kv{*entry};
    if (kv.starts_with("GIT_") || kv.starts_with("HOME=") || kv.starts_with("XDG_CONFIG_HOME=")) {
      continue;
    }
    if (kv.starts_with("PATH=")) {
      env_strings.push_back("PATH=" + m_bin_dir.string() + ":" + std::string{kv.substr(5)});
      continue;
    }
    env_strings.emplace_back(kv);
  }
  for (const auto& [key, value] : m_env) {
    env_strings.push_back(key + "=" + value);
  }
  return env_strings;
}

Result Sandbox::vault_tty(const std::vector<std::string>& args, std::string_view input) const {
  std::vector<std::string> env_strings = child_environment();
  std::vector<char*> envp;
  for (std::string& s : env_strings) {
    envp.push_back(s.data());
  }
  envp.push_back(nullptr);
  std::vector<std::string> argv{GIT_VAULT_BIN};
  argv.insert(argv.end(), args.begin(), args.end());
  std::vector<char*> argp;
  for (std::string& s : argv) {
    argp.push_back(s.data());
  }
  argp.push_back(nullptr);
  const std::string dir = m_root.string();

  int master = -1;
  const pid_t pid = forkpty(&master, nullptr, nullptr, nullptr);
  REQUIRE(pid >= 0);
  if (pid == 0) {
    if (chdir(dir.c_str()) != 0) {
      _exit(126);
    }
    execvpe(argp[0], argp.data(), envp.data());
    _exit(127);
  }
  // No echo, so the output holds only what the program wrote; set on the master before typing.
  termios settings{};
  REQUIRE(tcgetattr(master, &settings) == 0);
  settings.c_lflag &= ~static_cast<tcflag_t>(ECHO);
  REQUIRE(tcsetattr(master, TCSANOW, &settings) == 0);
  // Canonical mode queues whole lines until the program reads them.
  REQUIRE(::write(master, input.data(), input.size()) == static_cast<ssize_t>(input.size()));

  Result result;
  std::array<char, 4096> buffer{};
  while (true) {
    pollfd fd{master, POLLIN, 0};
    const int ready = poll(&fd, 1, 60000);
    if (ready == 0) {
      kill(pid, SIGKILL);
      ::close(master);
      waitpid(pid, nullptr, 0);
      FAIL("git-vault on a terminal produced no output for 60 s; output so far:\n" << result.out);
    }
    const ssize_t n = ::read(master, buffer.data(), buffer.size());
    if (n <= 0) {
      break;  // EIO once the program has exited and closed the terminal
    }
    result.out.append(buffer.data(), static_cast<std::size_t>(n));
  }
  ::close(master);
  int status = 0;
  waitpid(pid, &status, 0);
  result.code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  std::string::size_type pos = 0;
  while ((pos = result.out.find("\r\n", pos)) != std::string::npos) {
    result.out.erase(pos, 1);
  }
  return result;
}

Result Sandbox::run(const std::vector<std::string>& argv, std::string_view stdin_bytes,
                    std::string_view cwd) const {
  std::vector<std::string> env_strings = child_environment();
  std::vector<char*> envp;
  for (std::string& s : env_strings) {
    envp.push_back(s.data());
  }
  envp.push_back(nullptr);
  std::vector<std::string> args = argv;
  std::vector<char*> argp;
  for (std::string& s : args) {
    argp.push_back(s.data());
  }
  argp.push_back(nullptr);
  const std::string dir = (m_root / cwd).string();

  int in_pipe[2];
  int out_pipe[2];
  int err_pipe[2];
  REQUIRE(gv::util::cloexec_pipe(in_pipe) == 0);
  REQUIRE(gv::util::cloexec_pipe(out_pipe) == 0);
  REQUIRE(gv::util::cloexec_pipe(err_pipe) == 0);
  const pid_t pid = fork();
  REQUIRE(pid >= 0);
  if (pid == 0) {
    dup2(in_pipe[0], 0);
    dup2(out_pipe[1], 1);
    dup2(err_pipe[1], 2);
    if (chdir(dir.c_str()) != 0) {
      _exit(126);
    }
    execvpe(argp[0], argp.data(), envp.data());
    _exit(127);
  }
  ::close(in_pipe[0]);
  ::close(out_pipe[1]);
  ::close(err_pipe[1]);
  // Inputs are small (answers to prompts), so writing before draining cannot deadlock.
  if (!stdin_bytes.empty()) {
    [[maybe_unused]] const ssize_t written =
        ::write(in_pipe[1], stdin_bytes.data(), stdin_bytes.size());
  }
  ::close(in_pipe[1]);
  Result result;
  drain(out_pipe[0], err_pipe[0], result.out, result.err);
  int status = 0;
  waitpid(pid, &status, 0);
  result.code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  return result;
}

void copy_fixture(const Sandbox& sandbox, std::string_view name) {
  const fs::path source = fs::path(GIT_VAULT_SOURCE_DIR) / "tests" / "fixtures" / name;
  REQUIRE(fs::is_directory(source));
  fs::copy(source, sandbox.root(),
           fs::copy_options::recursive | fs::copy_options::overwrite_existing);
}

}  // namespace gv::test
