#include "core/landing/revert_search.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <map>

#include "core/error.hpp"
#include "core/plan.hpp"

namespace gv::landing {
namespace {

std::map<std::string, std::string> tree_map(const git::Repo& repo,
                                            const std::optional<std::string>& tree) {
  std::map<std::string, std::string> files;
  if (tree) {
    for (SnapshotEntry& entry : repo.tree_entries(*tree, "")) {
      files.emplace(std::move(entry.path), std::move(entry.oid));
    }
  }
  return files;
}

// Refuses commits that are not distill actions: nothing else has the bookkeeping a revert
// rebuilds.
void check_action(const git::CommitInfo& info) {
  const std::optional<std::string> action = find_trailer(info.trailers, k_trailer_action);
  if (!action) {
    throw Error("{} ({}) is not a vault action: its message has no {} trailer; use `git revert`",
                short_id(info.id), info.summary, k_trailer_action);
  }
  if (!distill::revertible_action(*action) && !is_recall_action(*action)) {
    throw Error(
        "{} ({}) is a `{}` action, which `git vault revert` does not undo; use `git revert {}`",
        short_id(info.id), info.summary, *action, short_id(info.id));
  }
}

// The action commit `target` names: a log id through its Vault-Log-Id trailer, else any
// revision whose commit carries Vault-Action and is in HEAD's history.
git::CommitInfo find_action(const git::Repo& repo, const std::string& target) {
  const auto by_log_id = repo.trailer_index(k_trailer_log_id);
  if (const auto it = by_log_id.find(target); it != by_log_id.end() && !it->second.empty()) {
    if (it->second.size() > 1) {
      // Cherry-picked, or two branches that acted in the same second: which one is meant?
      std::string listed;
      for (const std::string& commit : it->second) {
        listed += fmt::format("\n  git vault revert {}   # {}", short_id(commit),
                              repo.commit_info(commit).summary);
      }
      throw Error("{}: {} commits carry `{}: {}`; name the one to undo:{}", target,
                  it->second.size(), k_trailer_log_id, target, listed);
    }
    git::CommitInfo info = repo.commit_info(it->second.front());
    check_action(info);
    return info;
  }
  const std::optional<std::string> commit = repo.resolve_commit(target);
  if (!commit) {
    if (target.rfind("distill_", 0) == 0) {
      throw Error(
          "{}: no commit in the history of HEAD carries `{}: {}` (squashed, rebased or reset "
          "away?); name the commit instead",
          target, k_trailer_log_id, target);
    }
    throw Error("{}: no such log entry or commit", target);
  }
  git::CommitInfo info = repo.commit_info(*commit);
  check_action(info);
  const auto actions = repo.trailer_index(k_trailer_action);
  for (const auto& [action, commits] : actions) {
    if (std::find(commits.begin(), commits.end(), info.id) != commits.end()) {
      return info;
    }
  }
  throw Error("{} ({}) is not in the history of HEAD", short_id(info.id), info.summary);
}

// The later commits (oldest first) that changed each of `paths`, for the conflict message.
std::string describe_later_changes(const git::Repo& repo, const std::string& commit,
                                   const std::vector<std::string>& paths) {
  std::string text;
  for (const std::string& id : repo.resolve_range(commit + "..HEAD")) {
    const git::CommitInfo info = repo.commit_info(id);
    const std::optional<std::string> parent_tree =
        info.parents.empty()
            ? std::nullopt
            : std::optional<std::string>(repo.commit_info(info.parents.front()).tree);
    std::vector<std::string> touched;
    for (const std::string& path : paths) {
      const auto now = repo.tree_blob_id(info.tree, path);
      const auto before = parent_tree ? repo.tree_blob_id(*parent_tree, path) : std::nullopt;
      if (now != before) {
        touched.push_back(path);
      }
    }
    if (!touched.empty()) {
      text +=
          fmt::format("  {} {}: {}\n", short_id(info.id), info.summary, fmt::join(touched, ", "));
    }
  }
  return text;
}

// The latest commit after `action` made by reverting it (its body says so, as git's own
// reverts do).
std::optional<git::CommitInfo> find_reverter(const git::Repo& repo, const std::string& action) {
  const std::string marker = fmt::format("This reverts commit {}.", action);
  std::optional<git::CommitInfo> found;
  for (const std::string& id : repo.resolve_range(action + "..HEAD")) {
    git::CommitInfo info = repo.commit_info(id);
    if (info.message.find(marker) != std::string::npos) {
      found = std::move(info);
    }
  }
  return found;
}

}  // namespace

std::string short_id(std::string_view id) { return std::string{id.substr(0, 7)}; }

bool is_recall_action(std::string_view action) {
  return action == "recall-maintain" || action == "recall-doctor";
}

Plan recall_revert_plan(const RevertSearch& search) {
  Plan plan;
  plan.subject = "vault(revert): " + search.action.summary;
  plan.body = fmt::format("This reverts commit {}.", search.action.id);
  plan.action = std::string(k_recall_revert_action);
  for (const auto& [path, bytes] : search.request.restored) {
    if (bytes) {
      plan.write(path, *bytes);
    } else {
      plan.remove(path);
    }
  }
  return plan;
}

RevertSearch find_revert(const git::Repo& repo, const std::string& target, bool force) {
  if (!repo.head_commit()) {
    throw Error("nothing to revert: the current branch has no commits");
  }
  RevertSearch search;
  search.action = find_action(repo, target);
  const git::CommitInfo& action = search.action;
  search.recall =
      is_recall_action(find_trailer(action.trailers, k_trailer_action).value_or(std::string()));
  const std::optional<std::string> parent_tree =
      action.parents.empty()
          ? std::nullopt
          : std::optional<std::string>(repo.commit_info(action.parents.front()).tree);
  const std::vector<distill::PathChange> restore = distill::paths_to_restore(
      distill::diff_trees(tree_map(repo, parent_tree), tree_map(repo, action.tree)));
  if (restore.empty()) {
    search.status = RevertSearch::Status::nothing_changed;
    return search;
  }

  std::map<std::string, std::string> head;
  const std::optional<std::string> head_tree = repo.head_tree();
  for (const distill::PathChange& change : restore) {
    if (const auto oid = repo.tree_blob_id(*head_tree, change.path)) {
      head.emplace(change.path, *oid);
    }
  }
  // Before the conflict check: a revert's own changes would otherwise read as later changes.
  if (distill::already_restored(restore, head)) {
    search.status = RevertSearch::Status::already_reverted;
    search.reverted_by = find_reverter(repo, action.id);
    return search;
  }
  const std::vector<std::string> conflicts = distill::changed_since(restore, head);
  if (!conflicts.empty() && !force) {
    search.status = RevertSearch::Status::conflicts;
    search.later_changes = describe_later_changes(repo, action.id, conflicts);
    return search;
  }

  distill::RevertRequest& request = search.request;
  const auto state_in = [&](const std::optional<std::string>& tree) -> std::optional<std::string> {
    if (!tree) {
      return std::nullopt;
    }
    const auto oid = repo.tree_blob_id(*tree, std::string{distill::k_state_path});
    return oid ? repo.read_blob(*oid) : std::nullopt;
  };
  const std::optional<std::string> state_before = state_in(parent_tree);
  const std::optional<std::string> state_after = state_in(action.tree);
  const std::optional<std::string> state_now = state_in(head_tree);
  request.cursors = distill::cursors_on_revert(state_before, state_after, state_now);
  request.commit = action.id;
  request.subject = action.summary;
  request.log_id = find_trailer(action.trailers, k_trailer_log_id);
  for (const distill::PathChange& change : restore) {
    if (!change.before) {
      request.restored.emplace(change.path, std::nullopt);
      continue;
    }
    std::optional<std::string> bytes = repo.read_blob(*change.before);
    if (!bytes) {
      throw Error("{}: blob {} of {} is missing from the object database", change.path,
                  *change.before, short_id(action.id));
    }
    request.restored.emplace(change.path, std::move(bytes));
  }
  return search;
}

}  // namespace gv::landing
