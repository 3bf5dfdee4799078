#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "tests/e2e/sandbox.hpp"
#include "tests/e2e/vault_fixture.hpp"

using gv::test::Sandbox;
using nlohmann::json;

TEST_CASE("search ranks keyword matches first and never returns tombstoned memories", "[search]") {
  Sandbox sandbox;
  gv::test::write_scored_vault(sandbox);
  const auto result = sandbox.vault({"search", "x", "q", "--json"});
  INFO(result.err);
  REQUIRE(result.code == 0);
  const json hits = json::parse(result.out)["hits"];
  REQUIRE(hits.size() == 2);           // MEM-eps has keyword q but is tombstoned
  CHECK(hits[0]["id"] == "MEM-beta");  // keyword x
  CHECK(hits[0]["score"] == 3.0);
  CHECK(hits[1]["id"] == "MEM-gamma");  // topic python/x
  CHECK(hits[1]["score"] == 1.0);
  CHECK(sandbox.vault({"search", "nothing-matches"}).code == 1);
}

TEST_CASE("search --record counts the retrieval in frontmatter and keeps the index fresh",
          "[search]") {
  Sandbox sandbox;
  gv::test::write_scored_vault(sandbox);
  REQUIRE(sandbox.vault({"search", "gamma", "--record"}).code == 0);
  CHECK_THAT(sandbox.read(".memory/10-Memories/MEM-gamma.md"),
             Catch::Contains("\nretrieval_count: 1\nlast_retrieved: 2026-11-30\n"));
  CHECK(sandbox.vault({"index", "--check"}).code == 0);
  const json report = json::parse(sandbox.vault({"distill", "--json"}).out);
  for (const json& memory : report["memories"]) {
    if (memory["id"] == "MEM-gamma") {
      CHECK(memory["zero_retrieval"] == 0.0);
    }
  }
}
