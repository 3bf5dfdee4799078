#pragma once

#include <fmt/format.h>

#include <stdexcept>
#include <string>
#include <utility>

namespace gv {

// Exit codes, matching git and libgit2's CLI so `git vault` composes with git itself.
namespace exit_code {
inline constexpr int k_ok = 0;
inline constexpr int k_no = 1;  // findings exist, a gate rejects, nothing selected
inline constexpr int k_fatal = 128;
inline constexpr int k_usage = 129;
}  // namespace exit_code

// A fatal problem: I/O, libgit2, malformed input that stops the run. Caught once in main,
// printed as `git-vault: error: <what>`, exit code 128. Messages start lowercase, have no
// trailing period, and start with `path:line:` when a file is at fault.
class Error : public std::runtime_error {
 public:
  explicit Error(std::string message) : std::runtime_error(std::move(message)) {}

  template <class... Args>
  explicit Error(fmt::format_string<Args...> format, Args&&... args)
      : std::runtime_error(fmt::format(format, std::forward<Args>(args)...)) {}
};

// A combination of arguments CLI11 cannot reject by itself. Exit code 129.
class UsageError : public Error {
 public:
  using Error::Error;
};

}  // namespace gv
