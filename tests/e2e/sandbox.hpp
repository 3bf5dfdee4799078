#pragma once

#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

namespace gv::test {

// What a command printed and returned.
struct Result {
  int code = -1;
  std::string out;
  std::string err;
};

// A fresh git repository in a temporary directory, with a pinned environment: HOME inside the
// sandbox, no system git config, fixed author/committer names and dates, and fixed
// GIT_VAULT_TODAY / GIT_VAULT_NOW. Every e2e case builds one; the directory is removed after.
class Sandbox {
 public:
  Sandbox();
  ~Sandbox();
  Sandbox(const Sandbox&) = delete;
  Sandbox& operator=(const Sandbox&) = delete;

  [[nodiscard]] const std::filesystem::path& root() const { return m_root; }
  [[nodiscard]] std::filesystem::path path(std::string_view relative) const;

  // Writes (creating parent folders) or reads a file under root().
  void write(std::string_view relative, std::string_view bytes) const;
  [[nodiscard]] std::string read(std::string_view relative) const;
  [[nodiscard]] bool exists(std::string_view relative) const;

  // Runs the built git-vault with `args`, in root() (or `cwd` relative to it).
  Result vault(const std::vector<std::string>& args, std::string_view stdin_bytes = {},
               std::string_view cwd = {}) const;
  // Runs the built git-vault on a pseudo-terminal (stdin, stdout and stderr all the terminal,
  // echo off), typing `input` as a person would. `out` is everything the terminal showed, with
  // `\r\n` turned back into `\n`; `err` stays empty. Fails the test after 60 s without output.
  Result vault_tty(const std::vector<std::string>& args, std::string_view input) const;
  // Runs `git` with `args` in root().
  Result git(const std::vector<std::string>& args, std::string_view cwd = {}) const;
  // Runs a shell command line in root() with the sandbox environment (PATH has git-vault).
  Result sh(std::string_view command_line, std::string_view cwd = {}) const;

  // git add -A && git commit -m message; fails the test when git fails.
  void commit_all(std::string_view message = "fixture") const;

  // Extra environment for every later call, e.g. {"GIT_VAULT_TODAY", "2026-12-01"}.
  void set_env(std::string name, std::string value);

 private:
  Result run(const std::vector<std::string>& argv, std::string_view stdin_bytes,
             std::string_view cwd) const;
  [[nodiscard]] std::vector<std::string> child_environment() const;

  std::filesystem::path m_root;
  std::filesystem::path m_bin_dir;
  std::vector<std::pair<std::string, std::string>> m_env;
};

// Copies a fixture folder from tests/fixtures/<name> into the sandbox root.
void copy_fixture(const Sandbox& sandbox, std::string_view name);

}  // namespace gv::test
