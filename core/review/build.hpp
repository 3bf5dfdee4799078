#pragma once

#include <vector>

#include "core/dates.hpp"
#include "core/git/repo.hpp"
#include "core/review/review.hpp"

namespace gv {
class Snapshot;
}

namespace gv::review {

// Everything `git vault review` shows, from the two ends of the range and the commits between
// them (oldest first). Both vaults are scored as of `today`. The memory and working-memory
// diffs read only files whose bytes changed; the health scores need both whole vaults, parsed
// once through a shared cache. The distill log and the gate are read at HEAD. `base` and `head`
// ids in the result are left for the caller, who knows which commits the snapshots are.
[[nodiscard]] Review build_review(const Snapshot& base, const Snapshot& head,
                                  const std::vector<git::CommitInfo>& commits, Date today);

}  // namespace gv::review
