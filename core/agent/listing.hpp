#pragma once

#include <cstddef>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "core/dates.hpp"
#include "core/memory/memory.hpp"
#include "core/scoring/score.hpp"

// `git vault list` and MCP list_memories: the vault's memories with their metadata, filtered
// (doc/agent.md, "git vault list").
namespace gv::agent {

struct ListFilter {
  std::string category;           // compared upper-cased; empty: any
  std::string topic;              // the topic or anything under it; empty: any
  std::string status = "active";  // `active`, `tombstoned` or `all`
};

struct ListedMemory {
  const Memory* memory = nullptr;
  std::string category;              // upper-cased, as scoring reads it
  std::int64_t retrieval_count = 0;  // frontmatter plus the retrieval journal (D16)
  std::optional<Date> last_retrieved;
};

// The memories `filter` selects, in id order, with their counts. `pending` holds the
// journal's. Throws gv::UsageError for a status other than the three.
[[nodiscard]] std::vector<ListedMemory> list_memories(const std::vector<Memory>& memories,
                                                      const ListFilter& filter,
                                                      const scoring::PendingRetrievalMap& pending);

// One row as `list --json` and list_memories print it: `{"id", "title", "category", "topic",
// "status", "created", "modified", "retrieval_count", "last_retrieved", "token_count",
// "summary"}`.
[[nodiscard]] nlohmann::ordered_json listed_json(const ListedMemory& listed);

}  // namespace gv::agent
