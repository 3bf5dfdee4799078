#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "tests/e2e/sandbox.hpp"
#include "tests/e2e/vault_fixture.hpp"

namespace list_test {

using gv::test::Sandbox;
using nlohmann::json;

TEST_CASE("list prints the memories with their category, topic and use, filtered", "[list]") {
  Sandbox sandbox;
  gv::test::write_scored_vault(sandbox);

  const auto all = sandbox.vault({"list"});
  INFO(all.err);
  REQUIRE(all.code == 0);
  CHECK(all.out ==
        "MEM-alpha  PATTERN  tests/e2e  Alpha (never retrieved)\n"
        "MEM-beta   PATTERN  tests/e2e  Beta (2 retrievals)\n"
        "MEM-delta  PATTERN  tests/e2e  Delta (never retrieved)\n"
        "MEM-gamma  PATTERN  python/x   Gamma (never retrieved)\n");

  const auto topic = sandbox.vault({"list", "--topic", "python", "--json"});
  REQUIRE(topic.code == 0);
  const json document = json::parse(topic.out);
  CHECK(document["schema"] == 1);
  CHECK(document["total"] == 1);
  REQUIRE(document["memories"].size() == 1);
  CHECK(document["memories"][0]["id"] == "MEM-gamma");
  CHECK(document["memories"][0]["category"] == "PATTERN");
  CHECK(document["memories"][0]["last_retrieved"].is_null());

  const auto tombstoned = sandbox.vault({"list", "--status", "tombstoned"});
  REQUIRE(tombstoned.code == 0);
  CHECK(tombstoned.out == "MEM-eps  PATTERN  tests/e2e  Eps [tombstoned] (never retrieved)\n");

  const auto none = sandbox.vault({"list", "--category", "config"});
  CHECK(none.code == 1);
  CHECK(none.out.empty());
  CHECK_THAT(none.err, Catch::Contains("no memory matches these filters"));
  CHECK(sandbox.vault({"list", "--status", "gone"}).code == 129);
}

}  // namespace list_test
