#pragma once

#include <optional>
#include <string>

#include "core/distill/revert.hpp"
#include "core/git/repo.hpp"
#include "core/plan.hpp"

// The history side of `git vault revert` (D7): finding the action commit a target names and
// reading what undoing it restores. The rules themselves are pure (core/distill/revert.hpp);
// the revert lands as a distill action through landing::land.
namespace gv::landing {

struct RevertSearch {
  enum class Status {
    ready,             // `request` holds what to restore
    nothing_changed,   // the action changed no memory files
    conflicts,         // later commits changed files the revert would restore
    already_reverted,  // HEAD already holds what the action replaced
  };
  Status status = Status::ready;
  git::CommitInfo action;          // the action commit
  distill::RevertRequest request;  // ready (or forced) only
  // conflicts only: one line per later commit, `  <short id> <subject>: <paths>\n`.
  std::string later_changes;
  // already_reverted only: the latest `git vault revert` of the action, when one is in HEAD's
  // history (else the files were put back some other way).
  std::optional<git::CommitInfo> reverted_by;  // A working-memory maintenance commit
                                               // (`recall-maintain`, `recall-doctor`): it keeps no
  // distill log, so its revert restores the files alone (recall_revert_plan).
  bool recall = false;
};

// The Vault-Action of working-memory maintenance commits `git vault revert` undoes, and of its
// commits undoing them.
inline constexpr std::string_view k_recall_revert_action = "recall-revert";
[[nodiscard]] bool is_recall_action(std::string_view action);

// The commit undoing a working-memory maintenance commit: the restored files, subject
// `vault(revert): <its subject>`, the body git's own reverts write (`This reverts commit
// <id>.`), and `Vault-Action: recall-revert`.
[[nodiscard]] Plan recall_revert_plan(const RevertSearch& search);

// The first seven hex digits, as messages show a commit.
[[nodiscard]] std::string short_id(std::string_view id);

// Finds the action commit `target` names (a log id through its Vault-Log-Id trailer, else any
// revision whose commit carries Vault-Action and is in HEAD's history) and what reverting it
// restores. Throws gv::Error when HEAD has no commits, the target names nothing, or its commit
// is not a revertible action in HEAD's history, or a blob to restore is missing. With `force`,
// conflicts are not reported and the files are restored anyway.
[[nodiscard]] RevertSearch find_revert(const git::Repo& repo, const std::string& target,
                                       bool force);

}  // namespace gv::landing
