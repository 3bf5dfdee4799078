#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "tests/e2e/sandbox.hpp"

namespace index_values_test {

using gv::test::Sandbox;
using nlohmann::json;

TEST_CASE("index carries a title and summary that end in a space exactly", "[index]") {
  Sandbox sandbox;
  sandbox.write(".memory/10-Memories/MEM-space.md",
                "---\ntitle: \"Ends in space \"\ncreated: 2026-01-01\nkeywords: [k]\n"
                "summary: \" padded summary \"\n---\n\n# Ends in space\n\nText.\n");
  const auto result = sandbox.vault({"index"});
  INFO(result.err);
  REQUIRE(result.code == 0);
  const json index = json::parse(sandbox.read(".memory/memory-index.json"));
  REQUIRE(index["entries"].size() == 1);
  CHECK(index["entries"][0]["title"] == "Ends in space ");
  CHECK(index["entries"][0]["summary"] == " padded summary ");
  sandbox.commit_all("space fixture");
  CHECK(sandbox.vault({"index", "--check"}).code == 0);
}

}  // namespace index_values_test
