#pragma once

#include <optional>
#include <string>
#include <vector>

#include "core/dates.hpp"
#include "core/memory/memory.hpp"
#include "core/plan.hpp"
#include "core/vault/index_check.hpp"

namespace gv {
class Snapshot;
class ParseCache;
}  // namespace gv

namespace gv::hooks {

inline constexpr const char* k_reindex_subject =
    "vault(reindex): regenerate index files after merge";
inline constexpr const char* k_reindex_action = "reindex";

struct Reindex {
  Plan plan;
  std::vector<std::string> regenerated;  // generated index files the plan rewrites
  std::vector<std::string> carried;      // memories whose retrieval counts came from the index
};

// The commit the post-merge hook makes when a merge left the generated files stale: the one
// index regeneration (regenerate_index_files, core/vault/regenerate.hpp, the same `git vault
// index` lands) over `merged`, so retrieval counts the old index holds are carried into
// frontmatter first (D4); subject k_reindex_subject, trailer `Vault-Action: reindex`, and a body
// naming the files and the carried memories. nullopt when nothing would change. `cache` may be
// null.
[[nodiscard]] std::optional<Reindex> build_reindex(const Snapshot& merged, Date today,
                                                   ParseCache* cache);

// The same commit for memories whose retrieval counts all live in frontmatter already, given
// the generated files as committed: only the index files plan_index_writes lists.
[[nodiscard]] std::optional<Plan> plan_reindex(const std::vector<Memory>& memories,
                                               const CommittedIndexFiles& committed, Date today);

}  // namespace gv::hooks
