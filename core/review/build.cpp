#include "core/review/build.hpp"

#include <algorithm>
#include <optional>
#include <set>

#include "core/distill/log.hpp"
#include "core/error.hpp"
#include "core/gate/gate.hpp"
#include "core/memory/parse.hpp"
#include "core/snapshot/snapshot.hpp"
#include "core/vault/parse_cache_file.hpp"
#include "core/vault/vault.hpp"

namespace gv::review {
namespace {

HealthSide score(const std::vector<Memory>& memories, Date today) {
  const std::size_t tombstoned = static_cast<std::size_t>(std::count_if(
      memories.begin(), memories.end(), [](const Memory& memory) { return memory.tombstoned; }));
  return health_side(scoring::build_report(memories, today), tombstoned);
}

// BASE's memories: HEAD's, with each changed memory file put back as BASE had it (or taken out
// when BASE had none).
std::vector<Memory> base_memories(std::vector<Memory> memories, const Snapshot& base,
                                  const std::vector<git::TreeChange>& changes, ParseCache& cache) {
  std::set<std::string> changed;
  for (const git::TreeChange& change : changes) {
    if (is_memory_path(change.path)) {
      changed.insert(memory_id_from_path(change.path));
    }
  }
  std::erase_if(memories, [&](const Memory& memory) { return changed.contains(memory.id); });
  for (const git::TreeChange& change : changes) {
    if (!is_memory_path(change.path) || !change.old_oid) {
      continue;
    }
    if (const ParsedMemory* hit = cache.find(change.path, *change.old_oid)) {
      if (hit->memory) {
        memories.push_back(*hit->memory);
      }
      continue;
    }
    const std::optional<std::string> bytes = base.read(change.path);
    if (!bytes) {
      continue;
    }
    ParsedMemory parsed = parse_memory(change.path, *bytes, *change.old_oid);
    if (parsed.memory) {
      memories.push_back(*parsed.memory);
    }
    cache.store(change.path, *change.old_oid, std::move(parsed));
  }
  std::sort(memories.begin(), memories.end(),
            [](const Memory& a, const Memory& b) { return a.id < b.id; });
  return memories;
}

// HEAD's distill log; a missing or unreadable log just means no entries to join (the gate
// reports a broken log where that matters).
std::vector<distill::OperationView> read_log(const Snapshot& head) {
  const std::optional<std::string> text = head.read(distill::k_log_path);
  if (!text) {
    return {};
  }
  try {
    return distill::DistillLog::parse(distill::k_log_path, *text).operations();
  } catch (const std::exception&) {
    return {};
  }
}

}  // namespace

Review build_review(const Snapshot& base, const Snapshot& head,
                    const std::vector<git::CommitInfo>& commits, Date today,
                    const ReviewSources& sources) {
  Review review;
  review.commit_count = commits.size();
  InMemoryParseCache in_memory;
  ParseCache& cache = sources.cache != nullptr ? static_cast<ParseCache&>(*sources.cache)
                                               : static_cast<ParseCache&>(in_memory);
  std::vector<git::TreeChange> listed;
  if (sources.memory_changes == nullptr) {
    listed = changed_memory_files(base, head);
  }
  const std::vector<git::TreeChange>& changes =
      sources.memory_changes != nullptr ? *sources.memory_changes : listed;

  review.memories = diff_memories(base, head, changes, &cache);
  review.working = diff_working_memory(base, head);
  Vault after = load_vault(head, &cache);
  review.memories.unchanged = unchanged_memory_files(after.memory_files, changes);
  review.after = score(after.memories, today);
  review.before = score(base_memories(std::move(after.memories), base, changes, cache), today);
  review.maintenance = maintenance_commits(commits, read_log(head));
  GateOptions gate;
  gate.cache = sources.cache;
  review.gate = run_gate(head, gate);
  for (const git::TreeChange& change : changes) {
    review.changed_paths.insert(change.path);
  }
  for (const auto* entries : {&review.working.added, &review.working.removed}) {
    for (const EntryAt& entry : *entries) {
      review.changed_paths.insert(entry.path);
    }
  }
  for (const EditedEntry& entry : review.working.edited) {
    review.changed_paths.insert(entry.path);
  }
  for (const MovedEntry& entry : review.working.moved) {
    review.changed_paths.insert(entry.from.path);
    review.changed_paths.insert(entry.to.path);
  }
  return review;
}

}  // namespace gv::review
