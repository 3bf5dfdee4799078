#include "core/landing/land.hpp"

#include <algorithm>
#include <set>
#include <string>
#include <type_traits>
#include <utility>

#include "core/error.hpp"
#include "core/git/repo.hpp"
#include "core/git/transaction.hpp"
#include "core/snapshot/tree_snapshot.hpp"
#include "core/snapshot/worktree_snapshot.hpp"
#include "core/util/text.hpp"
#include "core/vault/regenerate.hpp"
#include "core/vault/vault.hpp"

namespace gv::landing {
namespace {

Built build_plan(Plan plan) {
  Built built;
  built.plan = std::move(plan);
  return built;
}

Built build_regeneration(IndexRegeneration draft, const Snapshot& before, const Context& context) {
  Built built;
  built.plan = std::move(draft.plan);
  std::set<std::string> drafted;
  for (const auto& [path, bytes] : built.plan.changes) {
    drafted.insert(path);
  }
  Regeneration done = regenerate_index_files(built.plan, before, context.clock.today, context.cache,
                                             draft.keep_unreadable_out);
  built.regenerated = std::move(done.regenerated);
  built.carried = std::move(done.carried);
  built.generated = std::move(done.record);
  // A commit says everything it changes: memories the regeneration rewrote beyond the draft's
  // own (retrieval counts an earlier index kept, moved into their frontmatter, D4) are named in
  // the body and the Vault-Memories trailer, not only in the diff.
  if (!built.plan.subject.empty()) {
    std::vector<std::string> also;
    for (const std::string& id : built.carried) {
      if (!drafted.contains(memory_path(id))) {
        also.push_back(id);
      }
    }
    if (!also.empty()) {
      if (!built.plan.body.empty()) {
        built.plan.body += built.plan.body.ends_with('\n') ? "\n" : "\n\n";
      }
      built.plan.body +=
          fmt::format("Also carries the retrieval counts the old index kept into {}: {}\n",
                      util::plural(also.size(), "memory", "memories"), util::join(also, ", "));
      for (std::string& id : also) {
        if (std::find(built.plan.memories.begin(), built.plan.memories.end(), id) ==
            built.plan.memories.end()) {
          built.plan.memories.push_back(std::move(id));
        }
      }
      std::sort(built.plan.memories.begin(), built.plan.memories.end());
    }
  }
  return built;
}

Built build_action(distill::ActionDraft draft, const Snapshot& before, const Context& context) {
  distill::FinishContext finish;
  finish.clock = context.clock;
  finish.cache = context.cache;
  finish.parent_commit = context.parent_commit;
  finish.commits_by_log_id = context.commits_by_log_id;
  finish.committed = context.committed;
  distill::FinishedAction done = distill::finish_action(std::move(draft), before, finish);
  Built built;
  built.plan = std::move(done.plan);
  built.log_id = std::move(done.log_id);
  built.regenerated = std::move(done.regenerated);
  built.carried = std::move(done.carried);
  built.generated = std::move(done.generated);
  return built;
}

bool is_tracked(const git::Repo& repo, const std::optional<std::string>& head_tree,
                const std::string& path) {
  return (head_tree && repo.tree_blob_id(*head_tree, path)) || repo.index_blob_id(path);
}

// A commit whose plan holds paths git ignores and does not track: those paths are written to
// the work tree first, so the commit stays the last step, and put back if the commit fails.
void apply_with_ignored(git::Repo& repo, Landed& landed, git::ApplyOptions options) {
  const std::optional<std::string> head_tree = repo.head_tree();
  Plan committed = landed.plan;
  Plan loose;
  for (const auto& [path, bytes] : landed.plan.changes) {
    if (!is_tracked(repo, head_tree, path) && repo.is_ignored(path)) {
      loose.changes.emplace(path, bytes);
      committed.changes.erase(path);
      landed.work_tree_only.push_back(path);
    }
  }
  if (loose.empty()) {
    landed.commit = git::apply(repo, committed, options);
    return;
  }

  // The dirty check runs before either write, as git::apply would run it.
  if (!options.allow_dirty && !options.guarded_paths.empty()) {
    const std::vector<std::string> dirty = repo.dirty_paths(options.guarded_paths);
    if (!dirty.empty()) {
      throw Error("{}", git::dirty_refusal(repo, dirty, options.offers_allow_dirty));
    }
  }
  Plan originals;
  {
    const WorktreeSnapshot work_tree(repo.workdir());
    for (const auto& [path, bytes] : loose.changes) {
      originals.changes.emplace(path, work_tree.read(path));
    }
  }
  git::ApplyOptions loose_options;
  loose_options.commit = false;
  // The read state is checked by the first write; the second would see the first's files.
  loose_options.read_state = std::move(options.read_state);
  options.read_state.reset();
  (void)git::apply(repo, loose, loose_options);
  if (committed.empty()) {
    return;
  }
  try {
    landed.commit = git::apply(repo, committed, options);
  } catch (...) {
    try {
      loose_options.read_state.reset();
      (void)git::apply(repo, originals, loose_options);
    } catch (const Error&) {
      // Best effort: the commit's error is the one to report.
    }
    throw;
  }
}

}  // namespace

Built build(Draft draft, const Snapshot& before, const Context& context) {
  return std::visit(
      [&](auto&& item) -> Built {
        using T = std::decay_t<decltype(item)>;
        if constexpr (std::is_same_v<T, Plan>) {
          return build_plan(std::move(item));
        } else if constexpr (std::is_same_v<T, IndexRegeneration>) {
          return build_regeneration(std::move(item), before, context);
        } else {
          return build_action(std::move(item), before, context);
        }
      },
      std::move(draft));
}

namespace {

Landed apply_plan(git::Repo& repo, Built built, const Target& target) {
  Landed landed;
  static_cast<Built&>(landed) = std::move(built);
  if (landed.plan.empty()) {
    return landed;
  }
  git::ApplyOptions options;
  options.commit = target.commit;
  options.allow_dirty = target.allow_dirty;
  options.offers_allow_dirty = target.offers_allow_dirty;
  options.guarded_paths = target.guarded_paths;
  options.amend = target.amend;
  options.read_state = target.read_state;
  options.consumes = target.consumes;
  if (!target.commit) {
    (void)git::apply(repo, landed.plan, options);
    for (const auto& [path, bytes] : landed.plan.changes) {
      landed.work_tree_only.push_back(path);
    }
    return landed;
  }
  if (target.ignored_to_work_tree) {
    apply_with_ignored(repo, landed, options);
    return landed;
  }
  landed.commit = git::apply(repo, landed.plan, options);
  return landed;
}

}  // namespace

Landed apply(git::Repo& repo, Built built, const Target& target) {
  Landed landed = apply_plan(repo, std::move(built), target);
  // Saved once the files are in place (or were already): the next commit's gate then knows
  // them current from their blob ids (core/vault/generated_records.hpp). A landing that threw
  // left the files as they were, so there is nothing to record.
  if (landed.generated) {
    remember_generated(repo.common_dir(), *landed.generated);
  }
  return landed;
}

namespace {

// The paths a draft's own plan writes, before landing adds anything.
std::set<std::string> drafted_paths(const Draft& draft) {
  std::set<std::string> paths;
  std::visit(
      [&](const auto& item) {
        using T = std::decay_t<decltype(item)>;
        const Plan* plan = nullptr;
        if constexpr (std::is_same_v<T, Plan>) {
          plan = &item;
        } else {
          plan = &item.plan;
        }
        for (const auto& [path, bytes] : plan->changes) {
          paths.insert(path);
        }
      },
      draft);
  return paths;
}

}  // namespace

Landed land(git::Repo& repo, const Snapshot& before, Draft draft, Context context,
            const Target& target) {
  if (std::holds_alternative<distill::ActionDraft>(draft)) {
    context.parent_commit = repo.head_commit();
    for (const auto& [log_id, commits] : repo.trailer_index(k_trailer_log_id)) {
      if (!commits.empty()) {
        context.commits_by_log_id.emplace(log_id, commits.front());
      }
    }
  }
  // A commit is HEAD's tree plus the plan, whatever else the work tree holds. With uncommitted
  // vault edits allowed, index files regenerated over the work tree would describe edits the
  // commit leaves out, and it would fail its own gate: they are regenerated over HEAD's tree
  // plus the plan. What landing would add on top of the draft (a memory file whose retrieval
  // counts move out of the old index) must then not be a file with uncommitted edits: written
  // from HEAD's version, it would lose them.
  std::vector<std::string> dirty;
  if (target.commit && target.allow_dirty && repo.head_commit() &&
      !std::holds_alternative<Plan>(draft)) {
    dirty = repo.dirty_paths(target.guarded_paths);
  }
  if (dirty.empty()) {
    return apply(repo, build(std::move(draft), before, context), target);
  }
  const std::set<std::string> drafted = drafted_paths(draft);
  const TreeSnapshot committed(repo, "HEAD");
  context.committed = &committed;
  Built built = std::holds_alternative<IndexRegeneration>(draft)
                    ? build(std::move(draft), committed, context)
                    : build(std::move(draft), before, context);
  for (const std::string& path : dirty) {
    if (built.plan.changes.contains(path) && !drafted.contains(path)) {
      const std::string_view why =
          path == vault_path::k_state         ? "its memory_health is refreshed"
          : path == vault_path::k_distill_log ? "the action's log entry is added to it"
          : std::string_view(path).ends_with("/README.md") || path == vault_path::k_index_json ||
                  path == vault_path::k_index_md
              ? "the index files are regenerated"
              : "its retrieval counts move from the old index into it";
      throw Error(
          "{} has uncommitted changes, and this commit must rewrite it ({}): --allow-dirty keeps "
          "uncommitted changes out of the commit, but not out of a file the commit rewrites; "
          "commit or stash it first",
          path, why);
    }
  }
  return apply(repo, std::move(built), target);
}

}  // namespace gv::landing
