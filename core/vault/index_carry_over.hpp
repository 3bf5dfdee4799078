#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/dates.hpp"
#include "core/memory/memory.hpp"
#include "core/vault/index_reader.hpp"

namespace gv {

// Retrieval bookkeeping an existing index holds beyond a memory's frontmatter (D4): the
// original scripts counted retrievals only in the index, so before the index is regenerated
// these values go into the memory file. A field is set only when it must change.
struct RetrievalCarry {
  std::string id;
  std::optional<std::int64_t> retrieval_count;  // the index's larger count
  std::optional<Date> last_retrieved;           // the index's later date
};

// One item per memory (tombstoned ones too: their counts are history worth keeping) whose
// index entry has a larger retrieval_count or a later last_retrieved than its frontmatter, in
// id order. When an id appears more than once in the index, the largest count and the latest
// date among its entries count. Index entries without a memory are ignored.
[[nodiscard]] std::vector<RetrievalCarry> retrieval_carry_over(const std::vector<Memory>& memories,
                                                               const ExistingIndex& index);

// The memories with the carried values applied: what the frontmatter will say once written,
// and what scoring uses on a read-only run until then.
[[nodiscard]] std::vector<Memory> with_carried_retrievals(std::vector<Memory> memories,
                                                          const std::vector<RetrievalCarry>& carry);

}  // namespace gv
