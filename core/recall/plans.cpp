#include "core/recall/plans.hpp"

#include <fmt/format.h>

namespace gv::recall {

Plan init_ids_plan(const InitIdsPlan& plan, const Metadata& metadata, int metadata_added) {
  Plan out;
  for (const FileRewrite& rewrite : plan.rewrites) {
    out.write(rewrite.path, rewrite.bytes);
  }
  if (metadata_added > 0) {
    out.write(std::string{k_metadata_path}, serialize_metadata(metadata));
  }
  return out;
}

Plan maintain_plan(const MaintainResult& result, Instant now) {
  Plan plan;
  for (const auto& [path, bytes] : result.writes) {
    plan.write(path, bytes);
  }
  plan.subject = "vault(recall-maintain): " + describe_run(result);
  for (const auto& [id, action] : result.applied) {
    plan.body += fmt::format("{} ^{}\n", action_name(action), id);
  }
  plan.action = "recall-maintain";
  plan.log_id = fmt::format("recall_{}", now.seconds);
  plan.memories = result.affected_ids;
  return plan;
}

}  // namespace gv::recall
