#include <fmt/format.h>

#include <cstdio>
#include <cstdlib>
#include <string>

#include "core/gate/cached_gate.hpp"
#include "core/gate/gate.hpp"
#include "core/gate/print.hpp"
#include "core/git/repo.hpp"
#include "core/hooks/skip.hpp"
#include "core/snapshot/index_snapshot.hpp"
#include "hooks/hooks.hpp"

namespace gv::hooks {

int run_pre_commit(std::span<const std::string> git_args) {
  (void)git_args;  // pre-commit takes no arguments
  const char* skip_env = std::getenv("GIT_VAULT_SKIP");
  const SkipSpec skip = parse_skip(skip_env != nullptr ? skip_env : "");
  if (skip.all) {
    std::fputs(
        "git-vault: warning: GIT_VAULT_SKIP=all: every vault check skipped for this commit\n",
        stderr);
    return 0;
  }
  if (!skip.checks.empty()) {
    std::string names;
    for (const std::string& name : skip.checks) {
      names += names.empty() ? name : "," + name;
    }
    std::fputs(fmt::format("git-vault: skipping {} (GIT_VAULT_SKIP)\n", names).c_str(), stderr);
  }

  // From the environment: during `git commit -a` the index being committed is GIT_INDEX_FILE,
  // not .git/index, and in a linked worktree GIT_DIR names the worktree's git dir.
  const git::Repo repo = git::Repo::open_from_env();
  const IndexSnapshot snapshot(repo);
  // The cached gate re-parses only memory files whose blob changed since a state it has seen,
  // so the hook costs what the commit changes, not what the vault holds.
  GateOptions options;
  options.skip = skip.checks;
  const std::vector<Finding> findings = run_cached_gate(snapshot, gate_cache_file(repo), options);
  std::fputs(format_findings(findings).c_str(), stderr);
  if (!blocks(findings)) {
    return 0;
  }
  std::fputs(
      "git-vault: commit blocked by the findings above. Fix them and commit again; "
      "GIT_VAULT_SKIP=<check> skips one check, `git commit --no-verify` skips them all\n",
      stderr);
  return 1;
}

}  // namespace gv::hooks
