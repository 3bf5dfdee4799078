#include "core/ci/github_workflow.hpp"

#include <fmt/format.h>

#include <string>

#include "core/version.hpp"

namespace gv::ci {

std::string default_ref() { return "v" + std::string(version()); }

std::string github_workflow(const GithubWorkflowOptions& options) {
  // Values land in YAML double-quoted scalars; a quote or backslash would break them.
  const auto quoted = [](std::string_view text) {
    std::string out = "\"";
    for (const char c : text) {
      if (c == '"' || c == '\\') {
        out += '\\';
      }
      out += c;
    }
    return out + "\"";
  };
  const std::string source =
      options.source.empty() ? std::string("${{ vars.GIT_VAULT_SOURCE }}") : quoted(options.source);
  return fmt::format(
      R"(# Written by `git vault init --ci github`; edit freely, `git vault init` never rewrites it.
#
# The local pre-commit hook can be skipped (`git commit --no-verify`); this job cannot. It runs
# the same gates over every commit of a pull request and publishes what the branch does to the
# agent's memory (`git vault review`) as the job summary.
#
# git-vault is built from source: GIT_VAULT_SOURCE is the git-vault repository to clone and
# GIT_VAULT_REF the tag or commit to build (pin it; bump it when you upgrade git-vault locally).
# The job runs in a Debian 12 container because git-vault's install.sh builds against Debian
# 12's packages. A self-hosted runner with git-vault already on PATH skips the build.
name: git-vault

on:
  pull_request:

permissions:
  contents: read

jobs:
  vault:
    runs-on: ubuntu-latest
    container: debian:12
    env:
      GIT_VAULT_SOURCE: {source}
      GIT_VAULT_REF: {ref}
    steps:
      - name: Install git
        run: |
          apt-get update -qq
          DEBIAN_FRONTEND=noninteractive apt-get install -y -qq git ca-certificates >/dev/null
          git config --global --add safe.directory '*'

      - uses: actions/checkout@v4
        with:
          fetch-depth: 0  # the gate and the review read every commit of the pull request

      - name: Install git-vault
        id: install
        run: |
          if ! command -v git-vault >/dev/null; then
            : "${{GIT_VAULT_SOURCE:?set the repository variable GIT_VAULT_SOURCE to the URL of the git-vault sources}}"
            git clone --quiet "$GIT_VAULT_SOURCE" "$RUNNER_TEMP/git-vault-src"
            git -C "$RUNNER_TEMP/git-vault-src" checkout --quiet "$GIT_VAULT_REF"
            PREFIX=/usr/local "$RUNNER_TEMP/git-vault-src/install.sh"
          fi

      - name: Vault gate
        id: gate
        env:
          BASE_SHA: ${{{{ github.event.pull_request.base.sha }}}}
          HEAD_SHA: ${{{{ github.event.pull_request.head.sha }}}}
        run: |
          base=$(git merge-base "$BASE_SHA" "$HEAD_SHA")
          git vault check --range "$base..$HEAD_SHA"

      - name: Vault review
        id: review
        if: ${{{{ !cancelled() && steps.install.outcome == 'success' }}}}
        env:
          BASE_SHA: ${{{{ github.event.pull_request.base.sha }}}}
          HEAD_SHA: ${{{{ github.event.pull_request.head.sha }}}}
        run: |
          git vault review "$BASE_SHA...$HEAD_SHA" >> "$GITHUB_STEP_SUMMARY"
)",
      fmt::arg("source", source), fmt::arg("ref", quoted(options.ref)));
}

}  // namespace gv::ci
