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
