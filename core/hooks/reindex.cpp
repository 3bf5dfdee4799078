#include "core/hooks/reindex.hpp"

#include "core/snapshot/snapshot.hpp"
#include "core/vault/index_files.hpp"

namespace gv::hooks {

std::optional<Plan> plan_reindex(const std::vector<Memory>& memories,
                                 const CommittedIndexFiles& committed, Date today) {
  const std::vector<FileWrite> writes =
      plan_index_writes(render_index_files(memories, today), committed);
  if (writes.empty()) {
    return std::nullopt;
  }
  Plan plan;
  plan.subject = k_reindex_subject;
  plan.action = k_reindex_action;
  plan.body = "The merge left these generated files out of date with the memory files:\n";
  for (const FileWrite& write : writes) {
    plan.body += "  " + write.path + "\n";
    plan.write(write.path, write.bytes);
  }
  // Plan::message adds the blank lines around the body itself.
  plan.body.pop_back();
  return plan;
}

}  // namespace gv::hooks
