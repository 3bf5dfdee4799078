#pragma once

#include <optional>
#include <vector>

#include "core/dates.hpp"
#include "core/memory/memory.hpp"
#include "core/plan.hpp"
#include "core/vault/index_check.hpp"

namespace gv {
class Snapshot;
}

namespace gv::hooks {

inline constexpr const char* k_reindex_subject =
    "vault(reindex): regenerate index files after merge";
inline constexpr const char* k_reindex_action = "reindex";

// The commit the post-merge hook makes when a merge left the generated files stale: every file
// plan_index_writes lists, subject k_reindex_subject, trailer `Vault-Action: reindex`, and a
// body naming the files. nullopt when nothing would change.
[[nodiscard]] std::optional<Plan> plan_reindex(const std::vector<Memory>& memories,
                                               const CommittedIndexFiles& committed, Date today);

}  // namespace gv::hooks
