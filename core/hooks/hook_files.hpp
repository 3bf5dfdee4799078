#pragma once

#include <filesystem>
#include <string>
#include <string_view>

namespace gv::hooks {

// What one hook in a hooks directory is, from git-vault's point of view.
enum class HookState {
  not_installed,     // no file
  installed,         // our shim, nothing chained
  chained,           // our shim, with the prior hook kept as `<hook>.pre-git-vault`
  behind_framework,  // the pre-commit framework's hook, with our shim as `<hook>.legacy`
  line,              // somebody else's hook that runs `git-vault hook <hook>`
  foreign,           // somebody else's hook that does not run git-vault (a symlink always counts
                     // as foreign)
  displaced,         // somebody else's hook, with our shim moved aside as `<hook>.old` (lefthook's
                     // install does that), where nothing runs it
};
[[nodiscard]] std::string_view to_string(HookState state);
// True for the states in which git runs git-vault's hook: installed, chained, behind_framework,
// line.
[[nodiscard]] bool is_running(HookState state);

// The state of hook `name` in a hooks directory git-vault may write into. Somebody else's hook
// that runs `git-vault hook <name>` is `line`; the pre-commit framework's is `behind_framework`
// when `framework_config` (the repository's .pre-commit-config.yaml, empty if none) lists the
// git-vault hook. Any other is `foreign`: nothing runs git-vault's gate.
[[nodiscard]] HookState hook_state(const std::filesystem::path& dir, std::string_view name,
                                   std::string_view framework_config = {});
// The state of hook `name` in a folder the repository tracks: `line` when the hook runs
// `git-vault hook <name>`, else not_installed or foreign.
[[nodiscard]] HookState tracked_hook_state(const std::filesystem::path& dir, std::string_view name);

// The name lefthook gives a hook it moves aside on `lefthook install`; it never runs that file.
[[nodiscard]] std::string displaced_name(std::string_view name);

// Where a person edits the hooks of hooks directory `dir`: `dir` itself, except for husky 9's
// `.husky/_`, whose scripts husky generates (and ignores) to run the ones in `.husky/`.
[[nodiscard]] std::filesystem::path editable_hooks_dir(const std::filesystem::path& dir);

enum class HookOutcome {
  installed,          // shim written where there was none
  chained,            // foreign hook moved aside and chained, shim written
  behind_framework,   // the pre-commit framework's hook left in place, shim as `<hook>.legacy`
  updated,            // our older shim rewritten (or moved behind the framework's hook)
  already_installed,  // our shim, same bytes: nothing written
  refused,            // foreign hook and an existing backup: nothing touched
  manual,             // a tracked folder: nothing written, the line to add is in the message
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
//
// The pre-commit framework's hook is never chained: `pre-commit install` moves any hook it does
// not recognise to `<name>.legacy` and runs that before its own hooks, and a chained copy of its
// own script would then run it twice ("migration mode", which fails every commit). So when the
// framework's hook is in place, the shim goes to `<name>.legacy` (chaining what was there), and
// either order of `pre-commit install` and `git vault hooks install` keeps both gates. Layouts
// that earlier versions left behind the framework's hook are rearranged into this one.
HookChange install_shim(const std::filesystem::path& dir, std::string_view name);

// Removes every file install_shim created for `name` (the shim, in either place) and puts back
// what it moved aside, so the directory holds what it held before install. A foreign hook is
// never removed; a leftover copy of the framework's own script is, and so is a shim that another
// hook manager moved aside as `<name>.old`.
HookChange uninstall_shim(const std::filesystem::path& dir, std::string_view name);

}  // namespace gv::hooks
