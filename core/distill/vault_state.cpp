#include "core/distill/vault_state.hpp"

#include <algorithm>
#include <cstddef>

namespace gv::distill {

VaultState read_vault_state(const Snapshot& snapshot, Date today, ParseCache* cache,
                            const scoring::PendingRetrievalMap& pending) {
  VaultState state;
  // The index is read before the memories: its bytes (tens of megabytes in a large vault) are
  // freed before the memories are held, and the memories reuse that heap.
  if (const auto bytes = snapshot.read(vault_path::k_index_json)) {
    IndexReadResult read = read_index(vault_path::k_index_json, *bytes);
    state.existing_index = std::move(read.index);
    state.index_findings = std::move(read.findings);
  }
  state.vault = load_vault(snapshot, cache);
  if (state.existing_index) {
    // An entry with no retrievals changes nothing (a memory's own count is never negative), and
    // in a large vault most entries are such: leaving them out keeps the map, which every later
    // step looks memories up in, to the memories that need it.
    const auto adds_something = [](const IndexEntryRecord& entry) {
      return entry.retrieval_count > 0 || entry.last_retrieved.has_value();
    };
    const auto& entries = state.existing_index->entries;
    state.overrides.reserve(
        static_cast<std::size_t>(std::count_if(entries.begin(), entries.end(), adds_something)) +
        pending.size());
    for (const IndexEntryRecord& entry : entries) {
      if (!adds_something(entry)) {
        continue;
      }
      scoring::RetrievalOverride& slot = state.overrides[entry.id];
      slot.retrieval_count = std::max(slot.retrieval_count, entry.retrieval_count);
      if (entry.last_retrieved &&
          (!slot.last_retrieved || *slot.last_retrieved < *entry.last_retrieved)) {
        slot.last_retrieved = entry.last_retrieved;
      }
    }
  }
  for (const auto& [id, retrievals] : pending) {
    scoring::RetrievalOverride& slot = state.overrides[id];
    slot.pending_count += retrievals.count;
    slot.pending_last_retrieved = retrievals.last_retrieved;
  }
  state.report = scoring::build_report(state.vault.memories, today, state.overrides);
  scoring::add_unreadable(state.report, state.vault.findings);
  return state;
}

}  // namespace gv::distill
