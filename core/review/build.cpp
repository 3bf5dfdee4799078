#include "core/review/build.hpp"

#include <algorithm>
#include <optional>

#include "core/distill/log.hpp"
#include "core/error.hpp"
#include "core/gate/gate.hpp"
#include "core/snapshot/snapshot.hpp"
#include "core/vault/vault.hpp"

namespace gv::review {
namespace {

HealthSide score(const Vault& vault, Date today) {
  const std::size_t tombstoned = static_cast<std::size_t>(
      std::count_if(vault.memories.begin(), vault.memories.end(),
                    [](const Memory& memory) { return memory.tombstoned; }));
  return health_side(scoring::build_report(vault.memories, today), tombstoned);
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
                    const std::vector<git::CommitInfo>& commits, Date today) {
  Review review;
  review.commit_count = commits.size();
  InMemoryParseCache cache;
  review.memories = diff_memories(base, head, &cache);
  review.working = diff_working_memory(base, head);
  review.before = score(load_vault(base, &cache), today);
  review.after = score(load_vault(head, &cache), today);
  review.maintenance = maintenance_commits(commits, read_log(head));
  review.gate = run_gate(head, GateOptions{});
  return review;
}

}  // namespace gv::review
