#include <yaml-cpp/yaml.h>

#include <catch2/catch.hpp>
#include <optional>
#include <string>

#include "core/ci/github_workflow.hpp"
#include "core/version.hpp"

namespace review_ci_test {

using gv::ci::github_repository;

TEST_CASE("the GitHub workflow checks out the history and runs git-vault's action", "[ci]") {
  gv::ci::GithubWorkflowOptions options;
  options.source = "acme/git-vault";
  options.ref = "v0.1.0";
  const gv::ci::GithubWorkflow written = gv::ci::github_workflow(options);
  CHECK(written.to_do.empty());
  const YAML::Node workflow = YAML::Load(written.text);
  CHECK(workflow["on"]["pull_request"]);
  CHECK(workflow["permissions"]["contents"].as<std::string>() == "read");
  const YAML::Node steps = workflow["jobs"]["vault"]["steps"];
  REQUIRE(steps.size() == 2);
  CHECK(steps[0]["uses"].as<std::string>() == "actions/checkout@v4");
  CHECK(steps[0]["with"]["fetch-depth"].as<int>() == 0);
  CHECK(steps[1]["uses"].as<std::string>() == "acme/git-vault@v0.1.0");
  CHECK_FALSE(workflow["jobs"]["vault"]["container"]);  // the action builds on the runner
}

TEST_CASE("the workflow pins this version when no ref is given", "[ci]") {
  gv::ci::GithubWorkflowOptions options;
  options.source = "https://github.com/acme/git-vault";
  const YAML::Node workflow = YAML::Load(gv::ci::github_workflow(options).text);
  CHECK(workflow["jobs"]["vault"]["steps"][1]["uses"].as<std::string>() ==
        "acme/git-vault@v" + std::string(gv::version()));
}

TEST_CASE("a source that is no GitHub repository leaves a placeholder and a note", "[ci]") {
  gv::ci::GithubWorkflowOptions options;
  options.source = "https://example.org/a\"b.git";
  const gv::ci::GithubWorkflow written = gv::ci::github_workflow(options);
  REQUIRE(written.to_do.size() == 1);
  CHECK_THAT(written.to_do[0], Catch::Contains("is not a GitHub repository"));
  const YAML::Node workflow = YAML::Load(written.text);
  CHECK_THAT(workflow["jobs"]["vault"]["steps"][1]["uses"].as<std::string>(),
             Catch::StartsWith("OWNER/git-vault@"));
}

TEST_CASE("a ref cannot break the workflow's YAML", "[ci]") {
  gv::ci::GithubWorkflowOptions options;
  options.source = "acme/git-vault";
  options.ref = "v1 # \"x\": y";
  const YAML::Node workflow = YAML::Load(gv::ci::github_workflow(options).text);
  CHECK(workflow["jobs"]["vault"]["steps"][1]["uses"].as<std::string>() == "acme/git-vault@v1xy");
}

TEST_CASE("GitHub repositories are recognised in their usual spellings", "[ci]") {
  CHECK(github_repository("acme/git-vault") == "acme/git-vault");
  CHECK(github_repository("https://github.com/acme/git-vault") == "acme/git-vault");
  CHECK(github_repository("https://github.com/acme/git-vault.git") == "acme/git-vault");
  CHECK(github_repository("https://github.com/acme/git-vault/") == "acme/git-vault");
  CHECK(github_repository("git@github.com:acme/git-vault.git") == "acme/git-vault");
  CHECK(github_repository("ssh://git@github.com/acme/git.vault_2") == "acme/git.vault_2");
  CHECK(github_repository("https://example.org/acme/git-vault") == std::nullopt);
  CHECK(github_repository("acme") == std::nullopt);
  CHECK(github_repository("acme/") == std::nullopt);
  CHECK(github_repository("/git-vault") == std::nullopt);
  CHECK(github_repository("acme/git vault") == std::nullopt);
  CHECK(github_repository("acme/git-vault/extra") == std::nullopt);
}

}  // namespace review_ci_test
