#include "core/hooks/reindex.hpp"

#include "core/snapshot/snapshot.hpp"
#include "core/vault/index_files.hpp"
#include "core/vault/regenerate.hpp"

namespace gv::hooks {
namespace {

Plan reindex_message() {
  Plan plan;
  plan.subject = k_reindex_subject;
  plan.action = k_reindex_action;
  return plan;
}

// Names the regenerated files, and the memories whose counts came from the old index.
std::string reindex_body(const std::vector<std::string>& regenerated,
                         const std::vector<std::string>& carried) {
  std::string body;
  if (!regenerated.empty()) {
    body += "The merge left these generated files out of date with the memory files:\n";
    for (const std::string& path : regenerated) {
      body += "  " + path + "\n";
    }
  }
  if (!carried.empty()) {
    body += (body.empty() ? "" : "\n");
    body += "Retrieval counts the old index held, carried into frontmatter:\n";
    for (const std::string& id : carried) {
      body += "  " + id + "\n";
    }
  }
  // Plan::message adds the blank lines around the body itself.
  if (!body.empty()) {
    body.pop_back();
  }
  return body;
}

}  // namespace

std::optional<Reindex> build_reindex(const Snapshot& merged, Date today, ParseCache* cache) {
  Reindex reindex;
  reindex.plan = reindex_message();
  Regeneration done = regenerate_index_files(reindex.plan, merged, today, cache);
  if (reindex.plan.empty()) {
    return std::nullopt;
  }
  reindex.regenerated = std::move(done.regenerated);
  reindex.carried = std::move(done.carried);
  reindex.plan.body = reindex_body(reindex.regenerated, reindex.carried);
  return reindex;
}

std::optional<Plan> plan_reindex(const std::vector<Memory>& memories,
                                 const CommittedIndexFiles& committed, Date today) {
  std::vector<std::string> regenerated;
  Plan plan = reindex_message();
  for (FileWrite& write : plan_index_writes(render_index_files(memories, today), committed)) {
    regenerated.push_back(write.path);
    plan.write(std::move(write.path), std::move(write.bytes));
  }
  if (plan.empty()) {
    return std::nullopt;
  }
  plan.body = reindex_body(regenerated, {});
  return plan;
}

}  // namespace gv::hooks
