#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "core/memory/memory.hpp"

namespace gv {

struct SearchHit {
  std::string id;
  double score = 0.0;
};

// Ranks active memories against a free-text query (tombstoned memories are never returned,
// seed "Retrieval Exclusion"). Each query term (lower-cased, split on non-alphanumerics) scores
// 3 when it is a keyword, 2 when it is in the title, 1 when it is in the topic or summary;
// ties go to the more recently retrieved, then to the id. At most `limit` hits.
[[nodiscard]] std::vector<SearchHit> search_memories(const std::vector<Memory>& memories,
                                                     std::string_view query, std::size_t limit);

}  // namespace gv
