#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "core/plan.hpp"

namespace gv::git {

class Repo;

struct ApplyOptions {
  // false = `--no-commit`: write the work tree files only; the index and HEAD stay as they are.
  bool commit = true;
  // Run even when a guarded path has uncommitted changes (they may then be overwritten).
  bool allow_dirty = false;
  // Paths (files, or directories ending in `/`) that must be clean before the run starts, e.g.
  // `.memory/`, `specs/state.json`, `CLAUDE.local.md`, `memory/`. Empty: no check.
  std::vector<std::string> guarded_paths;
  // Test seam: runs after the commit object exists and just before the branch moves. Lets a
  // test simulate a concurrent commit or a late failure. Leave empty in production.
  std::function<void()> before_ref_update;
  // Replace HEAD instead of building on it, as `git commit --amend` does: the new commit keeps
  // HEAD's parents, author and message, and its tree is HEAD's tree plus the plan's paths; the
  // plan's subject names the change in the reflog only. The post-merge hook folds its index
  // regeneration into the merge commit it follows this way (doc/merges.md).
  bool amend = false;
};

// Applies `plan` as exactly one commit (DECISIONS D7) and returns its id; with
// `options.commit == false` it only writes the work tree and returns nullopt.
//
// Order: take `<git dir>/vault.lock`; refuse when guarded paths are dirty; write blobs; build the
// tree from HEAD's tree plus only the plan's paths; create the commit; stage the new work tree
// files as temporary files next to their targets; move the branch with compare-and-swap
// against the HEAD read at the start; then rename the files into place and update only the
// plan's paths in the index (the user's other staged entries stay as staged).
//
// Any failure before the branch moves throws gv::Error and leaves HEAD, the index and the work
// tree as they were (only unreachable objects remain in the object database). After the branch
// has moved, only renames and one index write remain; if one of those fails, the error names
// the new commit and the paths to restore from it.
std::optional<std::string> apply(Repo& repo, const Plan& plan, const ApplyOptions& options);

}  // namespace gv::git
