#include <cstdio>
#include <filesystem>
#include <string>

#include "core/error.hpp"
#include "core/gate/gate.hpp"
#include "core/gate/print.hpp"
#include "core/git/journal.hpp"
#include "core/git/repo.hpp"
#include "core/git/transaction.hpp"
#include "core/hooks/commit_gate.hpp"
#include "core/session/session.hpp"
#include "hooks/hooks.hpp"

namespace gv::hooks {

int run_pre_commit(Session& session, std::span<const std::string> git_args) {
  (void)git_args;  // pre-commit takes no arguments
  // From the environment: during `git commit -a` the index being committed is GIT_INDEX_FILE,
  // not .git/index, and in a linked worktree GIT_DIR names the worktree's git dir.
  const git::Repo& repo = session.repo();
  // A git-vault landing under way, or one a kill interrupted, has the branch, the index and the
  // work tree in two states at once: a commit now would take half of its changes as the user's.
  // One stat when there is none.
  if (!repo.is_bare() && std::filesystem::exists(git::journal_path(repo.git_dir()))) {
    if (git::landing_in_progress(repo)) {
      std::fputs(
          "git-vault: commit blocked: a git-vault run is half-way through landing its own commit "
          "(.git/vault-journal); wait for it to finish, then commit again\n",
          stderr);
      return 1;
    }
    try {
      (void)git::read_journal(repo.git_dir());
    } catch (const Error& e) {
      // `git vault check` cannot settle it either: say the way out here.
      std::fputs(
          ("git-vault: commit blocked: " + git::unreadable_journal_advice(repo, e.what()) + "\n")
              .c_str(),
          stderr);
      return 1;
    }
    std::fputs(
        "git-vault: commit blocked: an interrupted git-vault run left .git/vault-journal; run "
        "`git vault check`, which finishes or undoes it, then commit again\n",
        stderr);
    return 1;
  }
  // The same function as `git vault check --staged`: same input, same answer.
  const CommitGate gate = run_commit_gate(repo);
  std::fputs(skip_notice(gate.skip).c_str(), stderr);
  std::fputs(format_findings(gate.findings, {session.output().limit, session.output().color_stderr})
                 .c_str(),
             stderr);
  if (!blocks(gate.findings)) {
    return 0;
  }
  std::fputs(unstaged_fix_note(unstaged_blocked_files(repo, gate.findings)).c_str(), stderr);
  std::fputs(
      "git-vault: commit blocked by the findings above. Fix them and commit again; "
      "GIT_VAULT_SKIP=<check> skips one check, `git commit --no-verify` skips them all\n",
      stderr);
  return 1;
}

}  // namespace gv::hooks
