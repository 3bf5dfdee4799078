#pragma once

#include <string>
#include <string_view>

namespace gv::ci {

// Where `git vault init --ci github` writes the workflow.
inline constexpr std::string_view k_github_workflow_path = ".github/workflows/git-vault.yml";

// The git-vault release the workflow builds when the user names none: the tag of this binary's
// version (`git vault --version`), so CI runs the same gates as the local hook.
[[nodiscard]] std::string default_ref();

struct GithubWorkflowOptions {
  // The git-vault repository to clone and build. Empty: the workflow reads the repository
  // variable GIT_VAULT_SOURCE and its install step stops with a message saying to set it.
  std::string source;
  std::string ref = default_ref();  // tag or commit to build; pinned, never a branch by default
};

// A GitHub Actions workflow for pull requests: build git-vault from its pinned sources with
// their install.sh inside a Debian 12 container (the platform install.sh targets), run
// `git vault check --range <merge-base>..<head>` over the pull request's commits, and append
// `git vault review` to the job summary ($GITHUB_STEP_SUMMARY), even when the gate fails.
// A runner with git-vault already on PATH skips the build.
//
// The steps that call git-vault take the range from their `env:` (BASE_SHA, HEAD_SHA) and keep
// `${{ }}` expressions out of `run:`, so the commands can be run outside GitHub as they stand.
[[nodiscard]] std::string github_workflow(const GithubWorkflowOptions& options);

}  // namespace gv::ci
