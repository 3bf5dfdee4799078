#include "core/review/build.hpp"

#include <algorithm>
#include <new>
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

// As `distill` scores a vault: a memory file that cannot be read keeps the status from
// "healthy" or "manageable" (scoring::add_unreadable), so review and report never disagree.
HealthSide score(const Vault& vault, Date today) {
  const std::size_t tombstoned = static_cast<std::size_t>(
      std::count_if(vault.memories.begin(), vault.memories.end(),
                    [](const Memory& memory) { return memory.tombstoned; }));
  scoring::Report report = scoring::build_report(vault.memories, today);
  scoring::add_unreadable(report, vault.findings);
  return health_side(report, tombstoned);
}

// BASE's memories and findings: HEAD's, with each changed memory file put back as BASE had it
// (or taken out when BASE had none).
Vault base_vault(Vault vault, const Snapshot& base, const std::vector<git::TreeChange>& changes,
                 ParseCache& cache) {
  std::set<std::string> changed_ids;
  std::set<std::string> changed_paths;
  for (const git::TreeChange& change : changes) {
    if (is_memory_path(change.path)) {
      changed_ids.insert(memory_id_from_path(change.path));
      changed_paths.insert(change.path);
    }
  }
  std::erase_if(vault.memories,
                [&](const Memory& memory) { return changed_ids.contains(memory.id); });
  std::erase_if(vault.findings,
                [&](const Finding& finding) { return changed_paths.contains(finding.path); });
  const auto keep = [&](const ParsedMemory& parsed) {
    if (parsed.memory) {
      vault.memories.push_back(*parsed.memory);
    }
    vault.findings.insert(vault.findings.end(), parsed.findings.begin(), parsed.findings.end());
  };
  for (const git::TreeChange& change : changes) {
    if (!is_memory_path(change.path) || !change.old_oid) {
      continue;
    }
    if (const ParsedMemory* hit = cache.find(change.path, *change.old_oid)) {
      keep(*hit);
      continue;
    }
    const std::optional<std::string> bytes = base.read(change.path);
    if (!bytes) {
      continue;
    }
    ParsedMemory parsed = parse_memory(change.path, *bytes, *change.old_oid);
    keep(parsed);
    cache.store(change.path, *change.old_oid, std::move(parsed));
  }
  std::sort(vault.memories.begin(), vault.memories.end(),
            [](const Memory& a, const Memory& b) { return a.id < b.id; });
  std::stable_sort(vault.findings.begin(), vault.findings.end(),
                   [](const Finding& a, const Finding& b) { return a.path < b.path; });
  return vault;
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
  } catch (const std::bad_alloc&) {
    throw;  // the process's condition, not the log's: the command ends on it
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
  review.after = score(after, today);
  review.before = score(base_vault(std::move(after), base, changes, cache), today);
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
