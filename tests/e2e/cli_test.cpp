#include <catch2/catch.hpp>

#include "tests/e2e/sandbox.hpp"

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
  const auto zero = sandbox.vault({"search", "--limit", "0", "retry"});
  CHECK(zero.code == 129);
  CHECK_THAT(zero.err, Catch::Contains("--limit: Value 0 not in range 1 to 1000000000"));
  CHECK(zero.err.size() < 300);
  const auto negative = sandbox.vault({"--limit", "-5", "search", "retry"});
  CHECK(negative.code == 129);
  CHECK_THAT(negative.err, Catch::Contains("--limit"));
}
