#include <yaml-cpp/yaml.h>

#include <catch2/catch.hpp>
#include <fstream>
#include <map>
#include <sstream>
#include <string>

#include "tests/e2e/sandbox.hpp"
#include "tests/e2e/vault_fixture.hpp"

namespace ci_test {

using gv::test::Result;
using gv::test::Sandbox;

TEST_CASE("init --ci github writes a workflow that runs git-vault's action", "[ci]") {
  Sandbox sandbox;
  const Result init =
      sandbox.vault({"init", "--ci", "github", "--ci-source",
                     "https://github.com/acme/git-vault.git", "--ci-ref", "v9.9.9"});
  REQUIRE(init.code == 0);
  CHECK_THAT(init.out, Catch::Contains("created .github/workflows/git-vault.yml"));
  CHECK_THAT(init.err, !Catch::Contains("still to do"));
  const std::string workflow = sandbox.read(".github/workflows/git-vault.yml");
  const YAML::Node parsed = YAML::Load(workflow);
  CHECK(parsed["on"]["pull_request"].IsDefined());
  const YAML::Node steps = parsed["jobs"]["vault"]["steps"];
  REQUIRE(steps.size() == 2);
  CHECK(steps[0]["uses"].as<std::string>() == "actions/checkout@v4");
  CHECK(steps[0]["with"]["fetch-depth"].as<int>() == 0);
  CHECK(steps[1]["uses"].as<std::string>() == "acme/git-vault@v9.9.9");

  // Written once: a second init keeps the user's edits.
  REQUIRE(sandbox.vault({"init", "--ci", "github", "--ci-source", "acme/other"}).code == 0);
  CHECK(sandbox.read(".github/workflows/git-vault.yml") == workflow);
  CHECK(sandbox.vault({"init", "--ci", "gitlab"}).code == 129);
}

TEST_CASE("init --ci github says what is left to set when it knows no action", "[ci]") {
  Sandbox sandbox;
  const Result init =
      sandbox.vault({"init", "--ci", "github", "--ci-source", "https://example.org/git-vault.git"});
  REQUIRE(init.code == 0);
  CHECK_THAT(init.err, Catch::Contains("still to do: .github/workflows/git-vault.yml: "
                                       "--ci-source https://example.org/git-vault.git is not a "
                                       "GitHub repository"));
  std::string version = sandbox.vault({"--version"}).out;  // "git-vault version 0.1.0\n"
  version = version.substr(version.rfind(' ') + 1);
  version.pop_back();
  const YAML::Node parsed = YAML::LoadFile(sandbox.path(".github/workflows/git-vault.yml"));
  CHECK(parsed["jobs"]["vault"]["steps"][1]["uses"].as<std::string>() ==
        "OWNER/git-vault@v" + version);
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

}  // namespace ci_test
