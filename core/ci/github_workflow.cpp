#include "core/ci/github_workflow.hpp"

#include <fmt/format.h>

#include <string>

#include "core/version.hpp"

namespace gv::ci {

std::string default_ref() { return "v" + std::string(version()); }

std::string built_from() {
#if defined(GIT_VAULT_ORIGIN)
  return github_repository(GIT_VAULT_ORIGIN).value_or("");
#else
  return "";
#endif
}

std::optional<std::string> github_repository(std::string_view source) {
  for (const std::string_view prefix :
       {"https://github.com/", "http://github.com/", "ssh://git@github.com/", "git@github.com:"}) {
    if (source.starts_with(prefix)) {
      source.remove_prefix(prefix.size());
      if (source.ends_with(".git")) {
        source.remove_suffix(4);
      }
      while (source.ends_with("/")) {
        source.remove_suffix(1);
      }
      break;
    }
  }
  // Owner and repository names: letters, digits, `-`, `_` and `.`, one slash between them.
  const std::size_t slash = source.find('/');
  if (slash == std::string_view::npos || slash == 0 || slash + 1 == source.size()) {
    return std::nullopt;
  }
  for (std::size_t i = 0; i < source.size(); ++i) {
    const char c = source[i];
    const bool name_char = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
                           (c >= '0' && c <= '9') || c == '-' || c == '_' || c == '.';
    if (!name_char && i != slash) {
      return std::nullopt;
    }
  }
  return std::string(source);
}

GithubWorkflow github_workflow(const GithubWorkflowOptions& options) {
  GithubWorkflow out;
  std::optional<std::string> repository =
      github_repository(options.source.empty() ? built_from() : options.source);
  if (!repository) {
    out.to_do.push_back(fmt::format(
        "{}: replace OWNER/git-vault in `uses:` with the GitHub repository of git-vault (or "
        "run init again with --ci-source OWNER/REPO)",
        k_github_workflow_path));
    if (!options.source.empty()) {
      out.to_do.back() = fmt::format(
          "{}: --ci-source {} is not a GitHub repository; replace OWNER/git-vault in `uses:` "
          "with one (OWNER/REPO)",
          k_github_workflow_path, options.source);
    }
    repository = "OWNER/git-vault";
  }
  // A ref holding anything but the characters of a tag or a commit would break the YAML line.
  std::string ref;
  for (const char c : options.ref) {
    if (c != ' ' && c != '#' && c != '"' && c != '\'' && c != '\n' && c != ':') {
      ref += c;
    }
  }
  out.text = fmt::format(
      R"(# Written by `git vault init --ci github`; edit freely, `git vault init` never rewrites it.
#
# The local pre-commit hook can be skipped (`git commit --no-verify`); this job cannot. It runs
# the same gates over the pull request, with each finding as an annotation on its line, and
# publishes what the branch does to the agent's memory (`git vault review`) as the job summary.
#
# git-vault's action builds git-vault at the pinned version ({ref}) once and keeps it in the
# Actions cache; bump the version when you upgrade git-vault locally.
name: git-vault

on:
  pull_request:

permissions:
  contents: read

jobs:
  vault:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@v4
        with:
          fetch-depth: 0  # the gate and the review read every commit of the pull request

      - uses: {repository}@{ref}
)",
      fmt::arg("repository", *repository), fmt::arg("ref", ref.empty() ? default_ref() : ref));
  return out;
}

}  // namespace gv::ci
