#pragma once

#include <string>
#include <vector>

#include "core/finding.hpp"
#include "core/hooks/skip.hpp"

namespace gv::git {
class Repo;
}

namespace gv::hooks {

// The gate over the index being committed, as the pre-commit hook and `git vault check
// --staged` both run it, so the two always give the same answer for the same input.
struct CommitGate {
  SkipSpec skip;                  // GIT_VAULT_SKIP as read
  std::vector<Finding> findings;  // after skipping; empty when everything is skipped
};

// Reads GIT_VAULT_SKIP, else git config vault.skip (skip_from_environment: an unknown check name
// throws gv::UsageError), then runs the cached gate over `repo`'s index, which is GIT_INDEX_FILE
// when `repo` was opened from the environment (`git commit -a` stages into a temporary index). With
// `all`, nothing is read. Errors block wherever they are; warnings are kept only for files the
// commit changes (index differs from HEAD), so an unrelated commit is not told about the whole
// vault's warnings every time (`check --worktree` lists them all).
[[nodiscard]] CommitGate run_commit_gate(const git::Repo& repo);

// The files with a blocking finding whose work-tree bytes differ from the staged ones: a fix made
// but not staged (init-ids writes the work tree, never the index), which the gate cannot see.
// Sorted; at most `max_files` files are read, so a block over a whole vault costs no more.
[[nodiscard]] std::vector<std::string> unstaged_blocked_files(const git::Repo& repo,
                                                              const std::vector<Finding>& findings,
                                                              std::size_t max_files = 64);

// The note printed under a blocked gate for those files; empty when there are none.
[[nodiscard]] std::string unstaged_fix_note(const std::vector<std::string>& files);

}  // namespace gv::hooks
