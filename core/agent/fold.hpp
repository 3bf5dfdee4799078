#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "core/agent/journal.hpp"
#include "core/dates.hpp"
#include "core/git/transaction.hpp"
#include "core/plan.hpp"

namespace gv {
class Snapshot;
class ParseCache;
}  // namespace gv

namespace gv::agent {

struct FoldPlan {
  Plan plan;                          // empty when nothing is to be folded
  std::size_t records = 0;            // journal records folded
  std::vector<std::string> memories;  // ids whose frontmatter changes, sorted
  std::size_t unknown = 0;            // records naming no memory of the vault (deleted since)
};

// The edits that fold `totals` into frontmatter (D16): each memory's `retrieval_count`
// becomes the larger of its frontmatter and index counts (D4) plus the journal's, and
// `last_retrieved` the latest of the three dates. Subject `vault(retrievals): …`, trailer
// `Vault-Action: retrievals`; landing adds the regenerated index files. Pure: reads `snapshot`.
[[nodiscard]] FoldPlan plan_fold(const Snapshot& snapshot, const JournalTotals& totals,
                                 ParseCache* cache = nullptr);

struct FoldResult {
  std::optional<std::string> commit;  // nullopt when the journal was empty
  std::size_t records = 0;
  std::vector<std::string> memories;
  std::size_t bad_lines = 0;  // journal lines that were not records, dropped with the rest
  std::size_t unknown = 0;    // records naming a memory the vault no longer has, dropped
};

// Folds the journal of `repo` into frontmatter as one commit (through landing::land) that
// consumes what it folded: the landing drops the journal's prefix the fold read once the branch
// has moved, and the recovery of a run killed in between does, so no record is lost or counted
// twice; records appended meanwhile stay. Refuses (gv::Error) while vault paths have
// uncommitted changes, unless `allow_dirty`, and when another run folded the same records first.
FoldResult fold_journal(git::Repo& repo, Date today, bool allow_dirty, ParseCache* cache = nullptr);

// The fold "the next maintenance commit" makes (D16), as its own commit right before the
// action's: the journal is folded (fold_journal), then every memory file `action` writes gets
// the same retrieval counts added on top of the action's own bytes, so the action commit keeps
// them and a later revert of the action does not lose them. Call it after the action was
// planned and before it is finished against the work tree (which then holds the fold).
// `read_state` (when set) is what the action read: the fold refuses, as the action would, when
// the vault moved since.
FoldResult fold_before_action(git::Repo& repo, Plan& action, Date today, bool allow_dirty,
                              ParseCache* cache = nullptr,
                              const std::optional<git::ReadState>& read_state = std::nullopt);

}  // namespace gv::agent
