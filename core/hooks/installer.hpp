#pragma once

#include <string>
#include <vector>

#include "core/git/hooks_location.hpp"
#include "core/hooks/diff_driver.hpp"
#include "core/hooks/hook_files.hpp"

namespace gv::git {
class Repo;
}

namespace gv::hooks {

struct InstallOptions {
  // Write into a `core.hooksPath` set in global or system config. Off by default: that
  // directory serves every repository of the user, not just this one.
  bool allow_global_hooks_path = false;
  // Append the merge-driver lines to `<work tree>/.gitattributes` when missing.
  bool gitattributes = true;
  // false: only the merge drivers and `.gitattributes` (`git vault init --no-hooks`, for
  // repositories whose hooks another tool manages).
  bool hooks = true;
  // Also set up the rendered memory diff for this clone (`git vault init --diff-driver`,
  // diff_driver.hpp). Without it, a textconv an earlier git-vault set unasked is removed, with a
  // note, and an opted-in one is kept (D23).
  bool diff_driver = false;
};

struct InstallReport {
  git::HooksLocation location;
  std::vector<HookChange> hooks;       // in k_hook_names order; empty when refused
  std::vector<std::string> notes;      // drivers configured, .gitattributes lines added, ...
  std::string refusal;                 // non-empty: nothing was written, and this says why
  bool gitattributes_written = false;  // .gitattributes created or given lines: to commit
  [[nodiscard]] bool ok() const;       // no refusal and no hook refused
};

// Installs the pre-commit and post-merge shims where git looks for hooks, defines the merge
// drivers in the repository's own config and adds the `.gitattributes` lines. What `git vault
// hooks install` and `git vault init` run. Idempotent. Throws gv::Error on I/O or git failure.
//
// A hooks directory inside the work tree (a `core.hooksPath` such as husky's `.husky`) is shared
// through the repository, so nothing is written there (doc/decisions.md D17): each hook's
// change is `manual` and its message gives the line to add to that hook.
[[nodiscard]] InstallReport install_hooks(git::Repo& repo, const InstallOptions& options);

// True when `location` is a folder of the work tree outside the git directory: files there are
// (or can be) committed and reach every clone.
[[nodiscard]] bool is_shared_hooks_dir(const git::Repo& repo, const git::HooksLocation& location);

// Removes the shims (restoring chained hooks), the merge-driver config and the rendered diff's
// config and attribute. `.gitattributes` is a tracked file and stays as it is. Same rule for a
// global `core.hooksPath`.
[[nodiscard]] InstallReport uninstall_hooks(git::Repo& repo, const InstallOptions& options);

struct HookStatusLine {
  std::string name;
  HookState state = HookState::not_installed;
};

struct HooksStatus {
  git::HooksLocation location;
  bool shared = false;               // the hooks directory is a folder the repository tracks
  std::filesystem::path edited_dir;  // where a person edits its hooks (editable_hooks_dir)
  std::vector<HookStatusLine> hooks;
  bool merge_drivers_configured = false;  // every driver defined with our command
  bool gitattributes_complete = false;    // every line present (false for a bare repository)
  DiffDriverState diff_driver = DiffDriverState::plain;
};

[[nodiscard]] HooksStatus hooks_status(const git::Repo& repo);

}  // namespace gv::hooks
