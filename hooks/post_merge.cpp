#include <fmt/format.h>

#include <cstdio>
#include <exception>
#include <memory>
#include <new>
#include <optional>
#include <string>
#include <vector>

#include "core/gate/gate.hpp"
#include "core/git/merge_base.hpp"
#include "core/git/repo.hpp"
#include "core/hooks/reindex.hpp"
#include "core/landing/land.hpp"
#include "core/merge/buried_edits.hpp"
#include "core/session/session.hpp"
#include "core/snapshot/index_snapshot.hpp"
#include "core/snapshot/tree_snapshot.hpp"
#include "core/vault/generated_records.hpp"
#include "core/vault/parse_cache_file.hpp"
#include "core/vault/vault.hpp"
#include "hooks/hooks.hpp"

namespace gv::hooks {
namespace post_merge_hook {

void warn(const std::string& text) {
  std::fputs(fmt::format("git-vault: post-merge: {}\n", text).c_str(), stderr);
}

// Working-memory and memory ids the merged tree holds more than once: both branches gave an
// entry the same id, or the same entry arrived twice. Reported, never rewritten. With the
// repository's parse cache and regeneration records, only the memories the merge brought in are
// parsed and the generated files are not rendered again, as in the commit hook.
void report_duplicates(const git::Repo& repo, const Snapshot& merged, PersistentParseCache* cache) {
  const GeneratedRecords generated =
      GeneratedRecords::load(generated_records_path(repo.common_dir()));
  GateOptions options;
  options.cache = cache;
  options.generated = &generated;
  for (const Finding& finding : run_gate(merged, options)) {
    if (finding.check != "duplicate-id") {
      continue;
    }
    const std::string where =
        finding.line ? fmt::format("{}:{}", finding.path, *finding.line) : finding.path;
    warn(fmt::format("{}: the merge left a duplicate id {}: {}", where, finding.id,
                     finding.message));
    if (!finding.fix.empty()) {
      warn(fmt::format("  fix: {}", finding.fix));
    }
  }
}

// Memories one side tombstoned while the other edited their text: git merges the two without a
// conflict, and gc would later delete the edit with the memory. Only the memories the merge
// changed since the merge base are read (doc/merges.md, "A tombstone meets an edit").
void report_buried_edits(const git::Repo& repo) {
  const git::CommitInfo merge = repo.commit_info("HEAD");
  if (merge.parents.size() != 2) {
    return;  // a fast-forward or a squash: no two sides to compare
  }
  const std::optional<std::string> base_commit =
      git::merge_base(repo, merge.parents[0], merge.parents[1]);
  if (!base_commit) {
    return;
  }
  const std::string base_tree = repo.commit_info(*base_commit).tree;
  const std::string ours_tree = repo.commit_info(merge.parents[0]).tree;
  const std::string theirs_tree = repo.commit_info(merge.parents[1]).tree;
  const auto read = [&](const std::optional<std::string>& oid) {
    return oid ? repo.read_blob(*oid) : std::nullopt;
  };
  for (const git::TreeChange& change :
       repo.diff_trees(base_tree, merge.tree, vault_path::k_memories)) {
    if (!change.old_oid || !change.new_oid || !is_memory_path(change.path)) {
      continue;
    }
    merge::MergeSides sides;
    sides.base = read(change.old_oid);
    sides.merged = read(change.new_oid);
    sides.ours = read(repo.tree_blob_id(ours_tree, change.path));
    sides.theirs = read(repo.tree_blob_id(theirs_tree, change.path));
    const std::optional<merge::BuriedEdit> buried = merge::buried_edit(change.path, sides);
    if (!buried) {
      continue;
    }
    warn(fmt::format(
        "{}: tombstoned on one side of the merge and edited on the other ({}); the merged memory "
        "keeps the edit but stays tombstoned, and `git vault distill --gc` would delete both",
        change.path, buried->edited_on == merge::Side::ours ? "ours" : "theirs"));
    warn(
        "  fix: to keep it, set `status: active` in its frontmatter and delete its tombstoned_at "
        "and tombstone_reason lines, then: git vault index && git add :/.memory && git commit");
  }
}

void reindex(git::Repo& repo, const Snapshot& merged, bool squash, const Date& today,
             ParseCache* cache, git::ReadState read_state) {
  if (merged.list(".memory/").empty()) {
    return;  // no vault in this repository
  }
  std::optional<Reindex> reindex = build_reindex(merged, today, cache);
  if (!reindex) {
    return;
  }
  if (squash) {
    warn(
        "the generated index files are stale; run `git vault index` before you commit the "
        "squashed merge");
    return;
  }
  // Conflicts or the user's own uncommitted vault edits: committing now would mix them in.
  const std::vector<std::string> dirty = repo.dirty_paths({".memory/"});
  if (!dirty.empty()) {
    warn(
        fmt::format("the generated index files are stale, but {} has uncommitted changes or "
                    "conflicts; resolve and commit them, then run `git vault index`",
                    dirty.front()));
    return;
  }
  landing::Built built;
  built.plan = std::move(reindex->plan);
  built.regenerated = std::move(reindex->regenerated);
  built.carried = std::move(reindex->carried);
  landing::Target target;
  target.guarded_paths = {".memory/"};
  // A merge commit made a moment ago by this `git merge` is made valid itself, so every commit
  // of the branch passes `check --range` (doc/merges.md); anything else (a fast-forward onto a
  // commit made elsewhere) gets a commit of its own on top.
  target.amend = head_is_fresh_local_merge(repo);
  if (target.amend) {
    built.plan.subject = k_reindex_amend_subject;
  }
  target.read_state = std::move(read_state);
  const landing::Landed landed = landing::apply(repo, std::move(built), target);
  const std::string carried =
      landed.carried.empty() ? std::string{}
                             : fmt::format(" (retrieval counts carried into {} memory file(s))",
                                           landed.carried.size());
  const std::string commit = landed.commit.value_or("").substr(0, 12);
  if (target.amend) {
    warn(fmt::format("regenerated {} index file(s){} into the merge commit, now {}",
                     landed.regenerated.size(), carried, commit));
  } else {
    warn(fmt::format("regenerated {} index file(s){} as {} {}", landed.regenerated.size(), carried,
                     commit, landed.plan.subject));
  }
}

}  // namespace post_merge_hook

int run_post_merge(Session& session, std::span<const std::string> git_args) {
  using namespace post_merge_hook;  // this file's own helpers
  // git passes "1" when the merge was a squash: nothing was committed, so neither is ours.
  const bool squash = !git_args.empty() && git_args.front() == "1";
  try {
    git::Repo& repo = session.repo();
    if (!repo.head_commit()) {
      return 0;
    }
    git::ReadState read_state = git::capture_read_state(repo, {".memory/"});
    // A squash merge leaves its result staged, not committed.
    std::unique_ptr<Snapshot> merged;
    if (squash) {
      merged = std::make_unique<IndexSnapshot>(repo);
    } else {
      merged = std::make_unique<TreeSnapshot>(repo, "HEAD");
    }
    // The cost follows the merge: unchanged memories come from the parse cache by blob id.
    PersistentParseCache* cache = session.persistent_parse_cache();
    report_duplicates(repo, *merged, cache);
    if (!squash) {
      report_buried_edits(repo);
    }
    reindex(repo, *merged, squash, session.clock().today, cache, std::move(read_state));
  } catch (const std::bad_alloc&) {
    // The merge is done, but the index files may be stale: the one out-of-memory line says so.
    throw;
  } catch (const std::exception& e) {
    // Advisory: the merge itself has succeeded, so a failure here must not look like it failed.
    warn(fmt::format("warning: {}", e.what()));
  }
  return 0;
}

}  // namespace gv::hooks
