#include "core/agent/listing.hpp"

#include <string_view>

#include "core/error.hpp"
#include "core/vault/vault.hpp"

namespace gv::agent {

std::vector<ListedMemory> list_memories(const std::vector<Memory>& memories,
                                        const ListFilter& filter,
                                        const scoring::PendingRetrievalMap& pending) {
  if (filter.status != "active" && filter.status != "tombstoned" && filter.status != "all") {
    throw UsageError("status must be active, tombstoned or all, not `{}`", filter.status);
  }
  const std::string wanted_category = category_key(std::string_view(filter.category));
  std::vector<ListedMemory> out;
  for (const Memory& memory : memories) {
    if ((filter.status == "active" && !memory.active()) ||
        (filter.status == "tombstoned" && memory.active())) {
      continue;
    }
    const std::string category = category_key(memory);
    if (!filter.category.empty() && category != wanted_category) {
      continue;
    }
    if (!filter.topic.empty() && memory.topic != filter.topic &&
        !std::string_view(memory.topic).starts_with(filter.topic + "/")) {
      continue;
    }
    ListedMemory listed{&memory, category, memory.retrieval_count, memory.last_retrieved};
    if (const auto found = pending.find(memory.id); found != pending.end()) {
      listed.retrieval_count += found->second.count;
      if (found->second.last_retrieved &&
          (!listed.last_retrieved || *listed.last_retrieved < *found->second.last_retrieved)) {
        listed.last_retrieved = found->second.last_retrieved;
      }
    }
    out.push_back(listed);
  }
  return out;
}

nlohmann::ordered_json listed_json(const ListedMemory& listed) {
  const Memory& memory = *listed.memory;
  return nlohmann::ordered_json{
      {"id", memory.id},
      {"title", memory.title},
      {"category", listed.category},
      {"topic", memory.topic},
      {"status", memory.active() ? "active" : "tombstoned"},
      {"created", format_date(memory.created)},
      {"modified", format_date(memory.modified)},
      {"retrieval_count", listed.retrieval_count},
      {"last_retrieved", listed.last_retrieved
                             ? nlohmann::ordered_json(format_date(*listed.last_retrieved))
                             : nullptr},
      {"token_count", memory.token_count},
      {"summary", memory.summary}};
}

}  // namespace gv::agent
