#include "core/distill/log_resolve.hpp"

#include <fmt/format.h>

namespace gv::distill {
namespace {

std::string short_id(const std::string& id) { return id.substr(0, 12); }

}  // namespace

std::vector<ResolvedEntry> resolve_log(
    const std::vector<OperationView>& operations,
    const std::map<std::string, std::vector<std::string>>& by_log_id,
    const std::function<std::optional<std::string>(const std::string&)>& first_parent) {
  std::vector<ResolvedEntry> resolved;
  for (const OperationView& operation : operations) {
    ResolvedEntry entry;
    entry.operation = operation;
    const auto found = by_log_id.find(operation.id);
    if (found != by_log_id.end() && !found->second.empty()) {
      // Of several commits carrying the id, the one made on the parent the entry records.
      entry.commit = found->second.front();
      for (const std::string& commit : found->second) {
        if (operation.parent_commit && first_parent(commit) == operation.parent_commit) {
          entry.commit = commit;
          break;
        }
      }
    }
    entry.legacy = !entry.commit && !operation.raw.contains("parent_commit") &&
                   !operation.raw.contains("commit");
    if (entry.legacy) {
      resolved.push_back(std::move(entry));
      continue;
    }
    if (!entry.commit) {
      entry.problems.push_back(
          operation.commit
              ? fmt::format("its commit {} is not in the history of HEAD (squashed, rebased or "
                            "reset away?)",
                            short_id(*operation.commit))
              : std::string{"no commit in the history of HEAD carries its Vault-Log-Id (not "
                            "committed yet, or squashed, rebased or reset away?)"});
      resolved.push_back(std::move(entry));
      continue;
    }
    if (found->second.size() > 1) {
      entry.problems.push_back(
          fmt::format("{} commits carry its Vault-Log-Id (cherry-picked, or two branches acted "
                      "in the same second); `git vault revert` needs the commit named",
                      found->second.size()));
    }
    if (operation.commit && *operation.commit != *entry.commit) {
      entry.problems.push_back(fmt::format("the log records commit {} but the trailer is on {}",
                                           short_id(*operation.commit), short_id(*entry.commit)));
    }
    const std::optional<std::string> parent = first_parent(*entry.commit);
    if (parent != operation.parent_commit) {
      entry.problems.push_back(fmt::format(
          "commit {} has parent {} but the log records parent_commit {} (rebased?)",
          short_id(*entry.commit), parent ? short_id(*parent) : std::string{"none"},
          operation.parent_commit ? short_id(*operation.parent_commit) : std::string{"null"}));
    }
    resolved.push_back(std::move(entry));
  }
  return resolved;
}

}  // namespace gv::distill
