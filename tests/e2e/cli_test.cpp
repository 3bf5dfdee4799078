#include <catch2/catch.hpp>

#include "tests/e2e/sandbox.hpp"

namespace cli_test {

using gv::test::Sandbox;

TEST_CASE("an unknown subcommand is a usage error", "[cli]") {
  Sandbox sandbox;
  const auto result = sandbox.vault({"no-such-command"});
  CHECK(result.code == 129);
  CHECK(result.out.empty());
}

TEST_CASE("git runs git-vault as `git vault`", "[cli]") {
  Sandbox sandbox;
  const auto result = sandbox.git({"vault", "-h"});
  CHECK(result.code == 0);
  CHECK(result.out.find("distill") != std::string::npos);
}

TEST_CASE("a count out of range is refused in a line a person can read", "[cli]") {
  Sandbox sandbox;
  const auto negative_count = sandbox.vault({"search", "--limit", "-1", "retry"});
  CHECK(negative_count.code == 129);
  CHECK_THAT(negative_count.err, Catch::Contains("--limit"));
  CHECK(negative_count.err.size() < 300);
  const auto budget = sandbox.vault({"recall", "maintain", "--budget", "0"});
  CHECK(budget.code == 129);
  CHECK_THAT(budget.err, Catch::Contains("--budget: Value 0 not in range 1 to 1000000000"));
  CHECK(budget.err.size() < 300);
  const auto negative = sandbox.vault({"--limit", "-5", "search", "retry"});
  CHECK(negative.code == 129);
  CHECK_THAT(negative.err, Catch::Contains("--limit"));
}

}  // namespace cli_test
