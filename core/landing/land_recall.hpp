#pragma once

#include <optional>
#include <string>
#include <vector>

#include "core/git/transaction.hpp"
#include "core/plan.hpp"

namespace gv {
class Snapshot;
}

namespace gv::landing {

// What must be clean before a recall run writes (unless `--allow-dirty`).
[[nodiscard]] std::vector<std::string> recall_guarded_paths();

struct RecallOptions {
  bool commit = true;  // false: `--no-commit`
  bool allow_dirty = false;
  // What the run read (git::capture_read_state before the scan); the landing refuses if it moved.
  std::optional<git::ReadState> read_state;
};

// The files whose uncommitted changes would make land_recall_maintain refuse (none when
// `allow_dirty`, or when no recall file is tracked), so a command can refuse before it prints.
[[nodiscard]] std::vector<std::string> recall_blockers(const git::Repo& repo, bool allow_dirty);

struct RecallOutcome {
  std::optional<std::string> commit;        // the new commit, when one was made
  std::vector<std::string> work_tree_only;  // paths written to the work tree without a commit
  bool untracked = false;                   // no recall file is tracked: nothing was committed
};

// Lands a `recall maintain` plan. Working memory is often kept out of git (`CLAUDE.local.md`
// and `memory/` in .gitignore), so:
// - when no file under `CLAUDE.local.md` or `memory/` is in HEAD or the index, the plan goes to
//   the work tree only (no commit, no dirty check: git could not restore those files anyway);
// - otherwise the plan is one commit (lock, dirty check on CLAUDE.local.md and memory/, all or
//   nothing). Paths git ignores and does not track are not put in the commit; they are written
//   to the work tree just before it, and put back if the commit fails.
// With `commit == false` everything goes to the work tree, after the same dirty check.
RecallOutcome land_recall_maintain(git::Repo& repo, const Snapshot& before, Plan plan,
                                   const RecallOptions& options);

// Lands a `recall init-ids` plan in the work tree: every file is written to a temporary file
// first and renamed only when all were written, so a failure leaves the work tree as it was.
void land_recall_init_ids(git::Repo& repo, const Snapshot& before, Plan plan,
                          std::optional<git::ReadState> read_state = std::nullopt);

}  // namespace gv::landing
