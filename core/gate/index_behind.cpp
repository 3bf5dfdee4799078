#include "core/gate/index_behind.hpp"

#include <fmt/format.h>

#include <map>
#include <string>

#include "core/git/repo.hpp"
#include "core/plan.hpp"

namespace gv {
namespace {

// The paths an action commits (doc/decisions.md, D7): the vault and the state file.
constexpr const char* k_prefixes[] = {".memory/", "specs/state.json"};

std::map<std::string, std::string> blobs(const std::vector<SnapshotEntry>& entries) {
  std::map<std::string, std::string> out;
  for (const SnapshotEntry& entry : entries) {
    out.emplace(entry.path, entry.oid);
  }
  return out;
}

}  // namespace

std::vector<Finding> index_behind_head_findings(const git::Repo& repo) {
  const std::optional<std::string> head = repo.head_commit();
  if (!head) {
    return {};
  }
  const git::CommitInfo info = repo.commit_info(*head);
  if (!find_trailer(info.trailers, k_trailer_action) || info.parents.size() != 1) {
    return {};
  }
  const git::CommitInfo parent = repo.commit_info(info.parents.front());
  std::vector<std::string> behind;
  for (const char* prefix : k_prefixes) {
    const auto now = blobs(repo.tree_entries(info.tree, prefix));
    const auto before = blobs(repo.tree_entries(parent.tree, prefix));
    const auto staged = blobs(repo.index_entries(prefix));
    std::map<std::string, bool> paths;
    for (const auto* side : {&now, &before}) {
      for (const auto& entry : *side) {
        paths[entry.first] = true;
      }
    }
    const auto at = [](const std::map<std::string, std::string>& side, const std::string& path) {
      const auto found = side.find(path);
      return found == side.end() ? std::string{} : found->second;
    };
    for (const auto& entry : paths) {
      const std::string& path = entry.first;
      if (at(now, path) != at(before, path) && at(staged, path) == at(before, path)) {
        behind.push_back(path);
      }
    }
  }
  if (behind.empty()) {
    return {};
  }
  Finding finding;
  finding.check = "index-behind-head";
  finding.severity = Severity::error;
  finding.path = behind.front();
  finding.message = fmt::format(
      "the git index holds {} as it was before HEAD ({}){}; the next commit would revert it",
      behind.front(), info.summary,
      behind.size() > 1 ? fmt::format(" and {} more vault files", behind.size() - 1) : "");
  finding.fix =
      "git reset -q -- .memory specs/state.json  (stages HEAD's version; then `git status`)";
  return {finding};
}

}  // namespace gv
