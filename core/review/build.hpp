#pragma once

#include <vector>

#include "core/dates.hpp"
#include "core/git/repo.hpp"
#include "core/review/review.hpp"

namespace gv {
class Snapshot;
class PersistentParseCache;
}  // namespace gv

namespace gv::review {

// What build_review may take from its caller to do less work. Both may be null.
struct ReviewSources {
  // The files under `.memory/10-Memories/` that differ between the two ends
  // (git::Repo::diff_trees). Null: found by listing both snapshots.
  const std::vector<git::TreeChange>* memory_changes = nullptr;
  // The repository's parse cache, shared with the gate. Null: every memory file at HEAD is
  // parsed.
  PersistentParseCache* cache = nullptr;
};

// Everything `git vault review` shows, from the two ends of the range and the commits between
// them (oldest first). Both vaults are scored as of `today`. Only files whose bytes changed are
// read at BASE: its vault is HEAD's with the changed files put back, so the work beyond HEAD's
// vault (one parse-cache lookup per memory when the cache is warm) follows the size of the
// change. The distill log and the gate are read at HEAD. `base` and `head` ids in the result are
// left for the caller, who knows which commits the snapshots are.
[[nodiscard]] Review build_review(const Snapshot& base, const Snapshot& head,
                                  const std::vector<git::CommitInfo>& commits, Date today,
                                  const ReviewSources& sources = {});

}  // namespace gv::review
