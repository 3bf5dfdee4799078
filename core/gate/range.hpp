#pragma once

#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "core/finding.hpp"
#include "core/gate/gate.hpp"

namespace gv {

namespace git {
class Repo;
}

// The findings of one commit's tree.
struct CommitFindings {
  std::string commit;  // 40 hex
  std::vector<Finding> findings;
  // Beside `findings`, one per finding once mark_fixed_later has run: for a note, the commit of
  // the range whose tree no longer has it; empty for the rest.
  std::vector<std::string> fixed_in{};
};

// `check --range`: each finding once, under the first commit (in the given order, oldest first)
// whose tree has it, unless `baseline` (the findings of the trees the range starts from) has it
// already. Two findings are the same when path, check and message are equal (a dangling link by
// its target alone); the line is left out so a finding that only moved is not reported again.
// Commits left with no finding are dropped.
[[nodiscard]] std::vector<CommitFindings> first_introduced(
    std::vector<CommitFindings> commits, const std::vector<Finding>& baseline = {});

// What a branch delivers (doc/decisions.md, D22): each finding of `introduced` (first_introduced
// of `checked`) that the last of `checked`, the tip, no longer has becomes a note, and
// `fixed_in` names the first commit after the one that introduced it whose tree lacks it. The
// rest keep their severity. Fills `fixed_in` of every entry of `introduced`.
void mark_fixed_later(std::vector<CommitFindings>& introduced,
                      const std::vector<CommitFindings>& checked);

// How `check --range` judges a range.
struct RangeOptions {
  // Every commit's findings count as they are (`--every-commit`): a commit that broke the vault
  // fails the range even when a later one repaired it.
  bool every_commit = false;
};

// What `check --range A..B` demands (doc/merges.md, "What check --range demands"): the tip
// passes, merge or not, and no commit adds a finding the tip still has; a finding a commit
// introduced and a later commit removed is a note (mark_fixed_later), unless
// `range_options.every_commit`, where every non-merge commit must pass. A merge commit inside
// the range is not checked: it joins two histories whose commits are checked themselves, where
// git-vault's hooks run it is made valid by the post-merge hook, and one made elsewhere (a
// hosting service's merge button) can never be repaired, only followed by a commit that fixes
// what it left; that commit, or the tip, is checked.
//
// Runs the gate over those commits, oldest first, with the persisted cache so unchanged memories
// are parsed once for the whole range, and over each parent outside the range (the base), and
// returns first_introduced of the results: what the range introduced, so a branch is never
// blamed for what its base already had. A stale index file at a tip that is a merge commit gets
// the fix that repairs the branch (k_stale_merge_fix); with `every_commit`, a stale index file
// in an earlier commit gets the rewrite (k_stale_inner_fix).
[[nodiscard]] std::vector<CommitFindings> run_range_gate(const git::Repo& repo,
                                                         std::string_view range,
                                                         const std::filesystem::path& cache_file,
                                                         GateOptions options,
                                                         RangeOptions range_options = {});

// The fix named, with `--every-commit`, for a stale index file in a commit before the tip: that
// commit cannot change any more, so the branch is rewritten with each commit's index regenerated. A
// rebase or a cherry-pick runs no git-vault hook, and keeps one side's index where both changed it
// (doc/merges.md, "Rebase and cherry-pick"). `{}` is the range's base.
inline constexpr std::string_view k_stale_inner_fix =
    "an index file no git-vault hook regenerated, as after a rebase or cherry-pick; regenerate "
    "it in every commit of the branch: git rebase -x 'git vault index -q && git add .memory && "
    "git commit -q --amend --no-edit' {}";

// The fix named for a stale index file at the tip that a commit on top repairs: the branch needs
// one more commit, not a rewrite.
inline constexpr std::string_view k_stale_tip_fix =
    "commit the regenerated index files on the branch: git vault index --commit, then push";

// The fix named for a stale index file at a tip that is a merge commit.
inline constexpr std::string_view k_stale_merge_fix =
    "the merge was made without git-vault's post-merge hook (by a hosting service's merge "
    "button, or with hooks off); on the branch run `git pull`, then `git vault index --commit`, "
    "and push";

}  // namespace gv
