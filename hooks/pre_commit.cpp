#include <fmt/format.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <string>

#include "core/error.hpp"
#include "core/gate/gate.hpp"
#include "core/gate/print.hpp"
#include "core/git/journal.hpp"
#include "core/git/repo.hpp"
#include "core/git/transaction.hpp"
#include "core/hooks/auto_index.hpp"
#include "core/hooks/commit_gate.hpp"
#include "core/session/session.hpp"
#include "hooks/hooks.hpp"

namespace gv::hooks {
namespace pre_commit_hook {

// True when the findings block and every error is a stale generated file.
bool only_stale_index_blocks(const std::vector<Finding>& findings) {
  return blocks(findings) &&
         std::all_of(findings.begin(), findings.end(), [](const Finding& finding) {
           return finding.severity != Severity::error || finding.check == "stale-index";
         });
}

// The one line that says what the gate added to the commit, as formatters in pre-commit
// report the files they changed.
std::string regenerated_line(const AutoIndex& done) {
  std::string names;
  for (std::size_t i = 0; i < done.regenerated.size(); ++i) {
    const bool last = i + 1 == done.regenerated.size();
    names += (i == 0 ? "" : last ? " and " : ", ") + done.regenerated[i];
  }
  return fmt::format(
      "git-vault: regenerated {} from the staged memories into this commit "
      "(git config vault.autoIndex false blocks instead)\n",
      names);
}

}  // namespace pre_commit_hook

int run_pre_commit(Session& session, std::span<const std::string> git_args) {
  using namespace pre_commit_hook;  // this file's own helpers
  (void)git_args;                   // pre-commit takes no arguments
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
  CommitGate gate = run_commit_gate(repo);
  // Stale index files are derived: regenerated into the commit when they are all that blocks it
  // and that is safe (D21), then the gate runs again over what will be committed.
  std::string refusal;
  const bool stale =
      std::any_of(gate.findings.begin(), gate.findings.end(),
                  [](const Finding& finding) { return finding.check == "stale-index"; });
  if (stale && auto_index_enabled(repo)) {
    if (!only_stale_index_blocks(gate.findings)) {
      refusal = "the index files are regenerated into the commit once nothing else blocks it";
    } else {
      const AutoIndex done =
          regenerate_into_commit(repo, session.clock().today, session.parse_cache());
      refusal = done.refusal;
      if (!done.regenerated.empty()) {
        std::fputs(regenerated_line(done).c_str(), stderr);
        gate = run_commit_gate(repo);
      }
    }
  }
  std::fputs(skip_notice(gate.skip).c_str(), stderr);
  std::fputs(format_findings(gate.findings, {session.output().limit, session.output().color_stderr})
                 .c_str(),
             stderr);
  if (!blocks(gate.findings)) {
    return 0;
  }
  std::fputs(unstaged_fix_note(unstaged_blocked_files(repo, gate.findings)).c_str(), stderr);
  if (!refusal.empty()) {
    std::fputs(fmt::format("git-vault: note: {}\n", refusal).c_str(), stderr);
  }
  std::fputs(
      "git-vault: commit blocked by the findings above. Fix them and commit again; "
      "GIT_VAULT_SKIP=<check> skips one check, `git commit --no-verify` skips them all\n",
      stderr);
  return 1;
}

}  // namespace gv::hooks
