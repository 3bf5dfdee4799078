#include "core/vault/index_carry_over.hpp"

#include <algorithm>
#include <map>

namespace gv {

namespace {

struct Best {
  std::int64_t retrieval_count = 0;
  std::optional<Date> last_retrieved;
};

}  // namespace

std::vector<RetrievalCarry> retrieval_carry_over(const std::vector<Memory>& memories,
                                                 const ExistingIndex& index) {
  std::map<std::string, Best> best;
  for (const IndexEntryRecord& entry : index.entries) {
    Best& slot = best[entry.id];
    slot.retrieval_count = std::max(slot.retrieval_count, entry.retrieval_count);
    if (entry.last_retrieved &&
        (!slot.last_retrieved || *entry.last_retrieved > *slot.last_retrieved)) {
      slot.last_retrieved = entry.last_retrieved;
    }
  }
  std::vector<RetrievalCarry> out;
  for (const Memory& memory : memories) {
    const auto it = best.find(memory.id);
    if (it == best.end()) {
      continue;
    }
    RetrievalCarry carry{memory.id, std::nullopt, std::nullopt};
    if (it->second.retrieval_count > memory.retrieval_count) {
      carry.retrieval_count = it->second.retrieval_count;
    }
    if (it->second.last_retrieved &&
        (!memory.last_retrieved || *it->second.last_retrieved > *memory.last_retrieved)) {
      carry.last_retrieved = it->second.last_retrieved;
    }
    if (carry.retrieval_count || carry.last_retrieved) {
      out.push_back(std::move(carry));
    }
  }
  std::sort(out.begin(), out.end(),
            [](const RetrievalCarry& a, const RetrievalCarry& b) { return a.id < b.id; });
  return out;
}

std::vector<Memory> with_carried_retrievals(std::vector<Memory> memories,
                                            const std::vector<RetrievalCarry>& carry) {
  std::map<std::string_view, const RetrievalCarry*> by_id;
  for (const RetrievalCarry& item : carry) {
    by_id.emplace(item.id, &item);
  }
  for (Memory& memory : memories) {
    const auto it = by_id.find(memory.id);
    if (it == by_id.end()) {
      continue;
    }
    if (it->second->retrieval_count) {
      memory.retrieval_count = *it->second->retrieval_count;
    }
    if (it->second->last_retrieved) {
      memory.last_retrieved = it->second->last_retrieved;
    }
  }
  return memories;
}

}  // namespace gv
