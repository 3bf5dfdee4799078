#include "core/landing/land_recall.hpp"

#include "core/git/repo.hpp"
#include "core/landing/land.hpp"

namespace gv::landing {
namespace {

constexpr const char* k_working_path = "CLAUDE.local.md";
constexpr const char* k_memory_dir = "memory/";

bool recall_tracked(const git::Repo& repo) {
  const std::optional<std::string> head_tree = repo.head_tree();
  return (head_tree && repo.tree_blob_id(*head_tree, k_working_path)) ||
         repo.index_blob_id(k_working_path) ||
         (head_tree && !repo.tree_entries(*head_tree, k_memory_dir).empty()) ||
         !repo.index_entries(k_memory_dir).empty();
}

}  // namespace

std::vector<std::string> recall_guarded_paths() { return {k_working_path, k_memory_dir}; }

std::vector<std::string> recall_blockers(const git::Repo& repo, bool allow_dirty) {
  if (allow_dirty || !recall_tracked(repo)) {
    return {};
  }
  return repo.dirty_paths(recall_guarded_paths());
}

RecallOutcome land_recall_maintain(git::Repo& repo, const Snapshot& before, Plan plan,
                                   const RecallOptions& options) {
  RecallOutcome outcome;
  Target target;
  target.commit = options.commit;
  target.allow_dirty = options.allow_dirty;
  target.guarded_paths = recall_guarded_paths();
  target.ignored_to_work_tree = true;
  target.read_state = options.read_state;
  if (!recall_tracked(repo)) {
    outcome.untracked = true;
    target.commit = false;
    target.guarded_paths.clear();
  }
  Landed landed = land(repo, before, std::move(plan), Context{}, target);
  outcome.commit = std::move(landed.commit);
  outcome.work_tree_only = std::move(landed.work_tree_only);
  return outcome;
}

void land_recall_init_ids(git::Repo& repo, const Snapshot& before, Plan plan,
                          std::optional<git::ReadState> read_state) {
  Target target;
  target.commit = false;
  target.allow_dirty = true;
  target.read_state = std::move(read_state);
  (void)land(repo, before, std::move(plan), Context{}, target);
}

}  // namespace gv::landing
