#include "core/recall/apply.hpp"

#include <fstream>
#include <sstream>
#include <system_error>

#include "core/error.hpp"
#include "core/git/transaction.hpp"

namespace gv::recall {
namespace {

namespace fs = std::filesystem;

constexpr const char* k_working_path = "CLAUDE.local.md";
constexpr const char* k_memory_dir = "memory/";

bool is_tracked(const git::Repo& repo, const std::optional<std::string>& head_tree,
                const std::string& path) {
  return (head_tree && repo.tree_blob_id(*head_tree, path)) || repo.index_blob_id(path);
}

bool recall_tracked(const git::Repo& repo, const std::optional<std::string>& head_tree) {
  return is_tracked(repo, head_tree, k_working_path) ||
         (head_tree && !repo.tree_entries(*head_tree, k_memory_dir).empty()) ||
         !repo.index_entries(k_memory_dir).empty();
}

std::optional<std::string> read_file(const fs::path& path) {
  std::error_code ec;
  if (!fs::is_regular_file(fs::symlink_status(path, ec))) {
    return std::nullopt;
  }
  std::ifstream in(path, std::ios::binary);
  std::ostringstream bytes;
  bytes << in.rdbuf();
  return bytes.str();
}

// Puts files back as they were before a failed commit: best effort, the commit error matters.
void restore(const fs::path& workdir,
             const std::vector<std::pair<std::string, std::optional<std::string>>>& originals) {
  for (const auto& [path, bytes] : originals) {
    std::error_code ec;
    if (!bytes) {
      fs::remove(workdir / path, ec);
      continue;
    }
    std::ofstream out(workdir / path, std::ios::binary | std::ios::trunc);
    out.write(bytes->data(), static_cast<std::streamsize>(bytes->size()));
  }
}

}  // namespace

std::vector<std::string> recall_guarded_paths() { return {k_working_path, k_memory_dir}; }

RecallApplyOutcome apply_recall_plan(git::Repo& repo, const Plan& plan,
                                     const RecallApplyOptions& options) {
  RecallApplyOutcome outcome;
  git::ApplyOptions apply_options;
  apply_options.allow_dirty = options.allow_dirty;
  apply_options.guarded_paths = recall_guarded_paths();

  const std::optional<std::string> head_tree = repo.head_tree();
  if (!recall_tracked(repo, head_tree)) {
    outcome.untracked = true;
    apply_options.commit = false;
    apply_options.guarded_paths.clear();
  } else if (!options.commit) {
    apply_options.commit = false;
  }
  if (!apply_options.commit) {
    git::apply(repo, plan, apply_options);
    for (const auto& [path, bytes] : plan.changes) {
      outcome.work_tree_only.push_back(path);
    }
    return outcome;
  }

  Plan committed = plan;
  Plan loose;
  for (const auto& [path, bytes] : plan.changes) {
    if (!is_tracked(repo, head_tree, path) && repo.is_ignored(path)) {
      loose.changes.emplace(path, bytes);
      committed.changes.erase(path);
      outcome.work_tree_only.push_back(path);
    }
  }
  if (loose.empty()) {
    outcome.commit = git::apply(repo, committed, apply_options);
    return outcome;
  }

  // The ignored files go first, so the commit stays the last step; the dirty check runs before
  // either write, as git::apply would run it.
  if (!options.allow_dirty) {
    const std::vector<std::string> dirty = repo.dirty_paths(apply_options.guarded_paths);
    if (!dirty.empty()) {
      std::string list;
      for (const std::string& path : dirty) {
        list += (list.empty() ? "" : ", ") + path;
      }
      throw Error("uncommitted changes in vault paths (commit or stash them first): {}", list);
    }
  }
  const fs::path workdir = repo.workdir();
  std::vector<std::pair<std::string, std::optional<std::string>>> originals;
  for (const auto& [path, bytes] : loose.changes) {
    originals.emplace_back(path, read_file(workdir / path));
  }
  git::ApplyOptions loose_options;
  loose_options.commit = false;
  git::apply(repo, loose, loose_options);
  if (committed.empty()) {
    return outcome;
  }
  try {
    outcome.commit = git::apply(repo, committed, apply_options);
  } catch (...) {
    restore(workdir, originals);
    throw;
  }
  return outcome;
}

}  // namespace gv::recall
