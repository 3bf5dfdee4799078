#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace gv::ci {

// Where `git vault init --ci github` writes the workflow.
inline constexpr std::string_view k_github_workflow_path = ".github/workflows/git-vault.yml";

// The git-vault release the workflow's action runs when the user names none: the tag of this
// binary's version (`git vault --version`), so CI runs the same gates as the local hook.
[[nodiscard]] std::string default_ref();

// The GitHub repository this binary was built from (`OWNER/REPO`, from the sources' `origin`
// remote when it is on GitHub), or empty.
[[nodiscard]] std::string built_from();

// `OWNER/REPO` of a GitHub repository given as `OWNER/REPO` or as its https or ssh URL;
// nullopt for anything else.
[[nodiscard]] std::optional<std::string> github_repository(std::string_view source);

struct GithubWorkflowOptions {
  // The git-vault repository on GitHub whose action (action.yml) the workflow uses:
  // `OWNER/REPO` or its URL. Empty: built_from().
  std::string source;
  std::string ref = default_ref();  // tag or commit of the action; pinned, never a branch
};

struct GithubWorkflow {
  std::string text;
  // What the user still has to do before the workflow runs, one sentence each; empty when
  // nothing (init prints them).
  std::vector<std::string> to_do;
};

// A GitHub Actions workflow for pull requests that runs git-vault's own action (action.yml at
// the top of its repository): the action builds git-vault once per version into the Actions
// cache, runs `git vault check --range <merge-base>..<head> --format github` (findings become
// annotations on the pull request's lines) and appends `git vault review` to the job summary.
[[nodiscard]] GithubWorkflow github_workflow(const GithubWorkflowOptions& options);

}  // namespace gv::ci
