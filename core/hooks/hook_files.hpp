#pragma once

#include <filesystem>
#include <string>
#include <string_view>

namespace gv::hooks {

// What one hook file in a hooks directory is, from git-vault's point of view.
enum class HookState {
  not_installed,  // no file
  installed,      // our shim, nothing chained
  chained,        // our shim, with the prior hook kept as `<hook>.pre-git-vault`
  foreign,        // somebody else's hook (a symlink always counts as foreign)
};
[[nodiscard]] std::string_view to_string(HookState state);

[[nodiscard]] HookState hook_state(const std::filesystem::path& dir, std::string_view name);

enum class HookOutcome {
  installed,          // shim written where there was none
  chained,            // foreign hook moved aside and chained, shim written
  updated,            // our older shim rewritten
  already_installed,  // our shim, same bytes: nothing written
  refused,            // foreign hook and an existing backup: nothing touched
  removed,            // uninstall: shim deleted
  restored,           // uninstall: shim deleted and the prior hook put back
  absent,             // uninstall: nothing of ours there
  left_foreign,       // uninstall: a foreign hook is in place, left alone
};

struct HookChange {
  std::string name;
  HookOutcome outcome = HookOutcome::absent;
  std::string message;  // one line for the user, starting with the hook name
};

// Installs the shim for `name` into `dir` (created when missing). Idempotent: our own shim is
// rewritten only when its bytes differ. A foreign hook is renamed (bytes and mode kept) to
// `<name>.pre-git-vault` and chained; when that name is already taken nothing is touched and
// the outcome is `refused`. Files are written to a temporary name and renamed into place, mode
// 0755. Throws gv::Error on I/O failure.
HookChange install_shim(const std::filesystem::path& dir, std::string_view name);

// Removes our shim for `name` and renames `<name>.pre-git-vault` back, so the directory holds
// exactly what it held before install. A foreign hook is never removed.
HookChange uninstall_shim(const std::filesystem::path& dir, std::string_view name);

}  // namespace gv::hooks
