#include <yaml-cpp/yaml.h>

#include <catch2/catch.hpp>
#include <string>

#include "core/ci/github_workflow.hpp"
#include "core/version.hpp"

namespace {

YAML::Node step_with_id(const YAML::Node& workflow, const std::string& id) {
  for (const YAML::Node& step : workflow["jobs"]["vault"]["steps"]) {
    if (step["id"] && step["id"].as<std::string>() == id) {
      return step;
    }
  }
  return YAML::Node();
}

}  // namespace

TEST_CASE("the GitHub workflow runs the range gate and publishes the review", "[ci]") {
  gv::ci::GithubWorkflowOptions options;
  options.source = "https://example.org/git-vault.git";
  options.ref = "v0.1.0";
  const YAML::Node workflow = YAML::Load(gv::ci::github_workflow(options));
  CHECK(workflow["on"]["pull_request"]);
  CHECK(workflow["jobs"]["vault"]["container"].as<std::string>() == "debian:12");
  const YAML::Node env = workflow["jobs"]["vault"]["env"];
  CHECK(env["GIT_VAULT_SOURCE"].as<std::string>() == "https://example.org/git-vault.git");
  CHECK(env["GIT_VAULT_REF"].as<std::string>() == "v0.1.0");

  const YAML::Node gate = step_with_id(workflow, "gate");
  REQUIRE(gate);
  CHECK_THAT(gate["run"].as<std::string>(),
             Catch::Contains("git vault check --range \"$base..$HEAD_SHA\""));
  CHECK(gate["env"]["BASE_SHA"].as<std::string>() == "${{ github.event.pull_request.base.sha }}");
  const YAML::Node review = step_with_id(workflow, "review");
  REQUIRE(review);
  CHECK_THAT(
      review["run"].as<std::string>(),
      Catch::Contains("git vault review \"$BASE_SHA...$HEAD_SHA\" >> \"$GITHUB_STEP_SUMMARY\""));
  CHECK_THAT(review["if"].as<std::string>(), Catch::Contains("!cancelled()"));
  const YAML::Node install = step_with_id(workflow, "install");
  REQUIRE(install);
  CHECK_THAT(install["run"].as<std::string>(), Catch::Contains("install.sh"));
}

TEST_CASE("without a source the workflow reads the GIT_VAULT_SOURCE repository variable", "[ci]") {
  const YAML::Node workflow = YAML::Load(gv::ci::github_workflow({}));
  CHECK(workflow["jobs"]["vault"]["env"]["GIT_VAULT_SOURCE"].as<std::string>() ==
        "${{ vars.GIT_VAULT_SOURCE }}");
  CHECK(workflow["jobs"]["vault"]["env"]["GIT_VAULT_REF"].as<std::string>() ==
        "v" + std::string(gv::version()));
}

TEST_CASE("a source with quotes stays one YAML string", "[ci]") {
  gv::ci::GithubWorkflowOptions options;
  options.source = "https://example.org/a\"b\\c.git";
  const YAML::Node workflow = YAML::Load(gv::ci::github_workflow(options));
  CHECK(workflow["jobs"]["vault"]["env"]["GIT_VAULT_SOURCE"].as<std::string>() ==
        "https://example.org/a\"b\\c.git");
}
