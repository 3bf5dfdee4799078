#include <yaml-cpp/yaml.h>

#include <catch2/catch.hpp>
#include <fstream>
#include <map>
#include <sstream>
#include <string>

#include "tests/e2e/sandbox.hpp"
#include "tests/e2e/vault_fixture.hpp"

using gv::test::Result;
using gv::test::Sandbox;

namespace {

std::string rev(const Sandbox& sandbox, const std::string& name) {
  std::string out = sandbox.git({"rev-parse", name}).out;
  out.erase(out.find_last_not_of('\n') + 1);
  return out;
}

std::string replace_all(std::string text, const std::string& from, const std::string& to) {
  for (std::size_t at = text.find(from); at != std::string::npos; at = text.find(from, at)) {
    text.replace(at, from.size(), to);
    at += to.size();
  }
  return text;
}

// Runs the workflow's steps that call git-vault (not the one installing it) as GitHub would on
// a pull request from `head` into `base`: the step's env with the event's SHAs substituted,
// and GITHUB_STEP_SUMMARY pointing at a file. Returns each step's result by id.
std::map<std::string, Result> run_workflow(const Sandbox& sandbox, const std::string& base,
                                           const std::string& head) {
  const YAML::Node workflow = YAML::LoadFile(sandbox.path(".github/workflows/git-vault.yml"));
  std::map<std::string, Result> results;
  for (const YAML::Node& step : workflow["jobs"]["vault"]["steps"]) {
    if (!step["run"] || !step["id"]) {
      continue;
    }
    const std::string id = step["id"].as<std::string>();
    const std::string run = step["run"].as<std::string>();
    if (id == "install" || run.find("git vault") == std::string::npos) {
      continue;
    }
    std::string script = "set -e\nexport GITHUB_STEP_SUMMARY=\"$PWD/summary.md\"\n";
    for (const auto& pair : step["env"]) {
      std::string value = pair.second.as<std::string>();
      value = replace_all(value, "${{ github.event.pull_request.base.sha }}", base);
      value = replace_all(value, "${{ github.event.pull_request.head.sha }}", head);
      script += "export " + pair.first.as<std::string>() + "='" + value + "'\n";
    }
    script += run;
    results[id] = sandbox.sh(script);
  }
  return results;
}

void start_repository(Sandbox& sandbox) {
  REQUIRE(sandbox
              .vault({"init", "--recall", "--ci", "github", "--ci-source",
                      "https://example.org/git-vault.git"})
              .code == 0);
  sandbox.write(".git/info/exclude", ".home/\nsummary.md\n");
  // init --recall ignores the private working memory; this project shares it.
  REQUIRE(sandbox.git({"add", "-f", "CLAUDE.local.md"}).code == 0);
  gv::test::write_scored_vault(sandbox);
  REQUIRE(sandbox.git({"checkout", "-q", "-b", "feature"}).code == 0);
}

}  // namespace

TEST_CASE("init --ci github writes the workflow once and never rewrites it", "[ci]") {
  Sandbox sandbox;
  REQUIRE(sandbox.vault({"init", "--ci", "github", "--ci-ref", "v9.9.9"}).code == 0);
  const std::string workflow = sandbox.read(".github/workflows/git-vault.yml");
  const YAML::Node parsed = YAML::Load(workflow);
  CHECK(parsed["jobs"]["vault"]["env"]["GIT_VAULT_REF"].as<std::string>() == "v9.9.9");
  CHECK(parsed["jobs"]["vault"]["env"]["GIT_VAULT_SOURCE"].as<std::string>() ==
        "${{ vars.GIT_VAULT_SOURCE }}");
  REQUIRE(sandbox.vault({"init", "--ci", "github", "--ci-ref", "v1.0.0"}).code == 0);
  CHECK(sandbox.read(".github/workflows/git-vault.yml") == workflow);
  CHECK(sandbox.vault({"init", "--ci", "gitlab"}).code == 129);
}

TEST_CASE("the workflow's gate passes a clean pull request and publishes the review", "[ci]") {
  Sandbox sandbox;
  start_repository(sandbox);
  sandbox.write(".memory/10-Memories/MEM-new.md",
                gv::test::memory_file("New", "2026-11-29", "fresh", 0, "null"));
  REQUIRE(sandbox.vault({"index"}).code == 0);
  sandbox.commit_all("add MEM-new");

  const auto results = run_workflow(sandbox, rev(sandbox, "main"), rev(sandbox, "feature"));
  REQUIRE(results.size() == 2);
  INFO(results.at("gate").out << results.at("gate").err);
  CHECK(results.at("gate").code == 0);
  INFO(results.at("review").err);
  CHECK(results.at("review").code == 0);
  const std::string summary = sandbox.read("summary.md");
  CHECK_THAT(summary, Catch::StartsWith("## git-vault review `"));
  CHECK_THAT(summary, Catch::Contains("**+1 memory; health "));
  CHECK_THAT(summary, Catch::Contains("| `MEM-new` | New | PATTERN | tests/e2e | 15 |"));
}

TEST_CASE("the workflow's gate judges what a pull request delivers, not each commit", "[ci]") {
  Sandbox sandbox;
  start_repository(sandbox);
  // A commit in the middle of the range breaks the gate and a later one repairs it: the branch
  // delivers a clean vault, so the gate passes and names the repaired finding as a note
  // (doc/decisions.md, D22).
  const std::string working = sandbox.read("CLAUDE.local.md");
  sandbox.write("CLAUDE.local.md", working + "- an entry with no id\n");
  sandbox.commit_all("untagged entry");
  sandbox.write("CLAUDE.local.md", working + "- an entry with no id ^tr00000000ab\n");
  sandbox.commit_all("tag the entry");

  const auto repaired = run_workflow(sandbox, rev(sandbox, "main"), rev(sandbox, "feature"));
  INFO(repaired.at("gate").out << repaired.at("gate").err);
  CHECK(repaired.at("gate").code == 0);
  CHECK_THAT(repaired.at("gate").out, Catch::Contains("note: entry has no id"));
  // The review shows the gate at HEAD, which the repair made clean.
  CHECK(repaired.at("review").code == 0);
  CHECK_THAT(sandbox.read("summary.md"), Catch::Contains("No findings"));
  CHECK_THAT(sandbox.read("summary.md"), Catch::Contains("entries added (1)"));

  // A break the tip still has fails it.
  sandbox.write("CLAUDE.local.md", working + "- an entry with no id ^tr00000000ab\n- another\n");
  sandbox.commit_all("another untagged entry");
  const auto broken = run_workflow(sandbox, rev(sandbox, "main"), rev(sandbox, "feature"));
  INFO(broken.at("gate").out << broken.at("gate").err);
  CHECK(broken.at("gate").code == 1);
  CHECK_THAT(broken.at("gate").out + broken.at("gate").err,
             Catch::Contains("error: entry has no id"));
}

TEST_CASE("the pre-commit framework hook runs the staged gate", "[ci]") {
  const YAML::Node hooks =
      YAML::LoadFile(std::string(GIT_VAULT_SOURCE_DIR) + "/.pre-commit-hooks.yaml");
  REQUIRE(hooks.size() == 1);
  const YAML::Node hook = hooks[0];
  CHECK(hook["id"].as<std::string>() == "git-vault");
  CHECK(hook["language"].as<std::string>() == "system");
  CHECK_FALSE(hook["pass_filenames"].as<bool>());
  CHECK(hook["always_run"].as<bool>());
  const std::string entry = hook["entry"].as<std::string>();
  CHECK(entry == "git-vault check --staged");

  Sandbox sandbox;
  REQUIRE(sandbox.vault({"init", "--recall", "--no-hooks"}).code == 0);
  gv::test::write_scored_vault(sandbox);
  sandbox.write("CLAUDE.local.md", sandbox.read("CLAUDE.local.md") + "- tagged ^tr00000000aa\n");
  // init --recall ignores the private working memory; this project shares it.
  REQUIRE(sandbox.git({"add", "-f", "CLAUDE.local.md"}).code == 0);
  REQUIRE(sandbox.git({"add", "-A"}).code == 0);
  const Result clean = sandbox.sh(entry);
  INFO(clean.out << clean.err);
  CHECK(clean.code == 0);

  sandbox.write("CLAUDE.local.md", sandbox.read("CLAUDE.local.md") + "- no id here\n");
  REQUIRE(sandbox.git({"add", "-A"}).code == 0);
  const Result blocked = sandbox.sh(entry);
  CHECK(blocked.code == 1);
  CHECK_THAT(blocked.out + blocked.err, Catch::Contains("error: entry has no id"));
}
