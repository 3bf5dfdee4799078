#include <fmt/format.h>

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "tests/e2e/sandbox.hpp"

namespace distill_merge_chain_test {

using gv::test::Sandbox;
using nlohmann::json;

namespace {

std::string memory(const std::string& title, const std::string& keywords, int retrievals,
                   const std::string& body = "Text.\n") {
  return fmt::format(
      "---\ntitle: \"{0}\"\ncreated: 2026-01-01\ntopic: \"chain\"\nkeywords: [{1}]\n"
      "summary: \"s\"\nretrieval_count: {2}\n---\n\n# {0}\n\n{3}",
      title, keywords, retrievals, body);
}

}  // namespace

TEST_CASE("merge --all on a chain tombstones every secondary merged_into the last primary",
          "[distill][merge]") {
  Sandbox sandbox;
  // A-B overlap 100%, C-A 75%, C-B 33%: the run merges B into A, then A into C (D14).
  sandbox.write(".memory/10-Memories/MEM-a.md", memory("A", "x1, x2, x3, x4, x5", 5));
  sandbox.write(".memory/10-Memories/MEM-b.md", memory("B", "x1, x2, x3", 1));
  sandbox.write(".memory/10-Memories/MEM-c.md", memory("C", "x3, x4, x5, y1", 10));
  sandbox.write(".memory/10-Memories/MEM-r.md", memory("R", "zz", 1, "See [[MEM-b]].\n"));
  REQUIRE(sandbox.vault({"index"}).code == 0);
  sandbox.commit_all("chain fixture");

  const auto dry = sandbox.vault({"distill", "--merge", "--dry-run", "--json"});
  REQUIRE(dry.code == 0);
  const json pairs = json::parse(dry.out)["pairs"];
  REQUIRE(pairs.size() == 2);
  CHECK(pairs[0]["primary"] == "MEM-a");
  CHECK(pairs[0]["secondary"] == "MEM-b");
  CHECK(pairs[1]["primary"] == "MEM-c");
  CHECK(pairs[1]["secondary"] == "MEM-a");

  const auto result = sandbox.vault({"distill", "--merge", "--all"});
  INFO(result.err);
  REQUIRE(result.code == 0);
  CHECK_THAT(sandbox.read(".memory/10-Memories/MEM-b.md"),
             Catch::Contains("tombstone_reason: \"merged_into:MEM-c\"\n"));
  CHECK_THAT(sandbox.read(".memory/10-Memories/MEM-a.md"),
             Catch::Contains("tombstone_reason: \"merged_into:MEM-c\"\n"));
  CHECK_THAT(sandbox.read(".memory/10-Memories/MEM-r.md"), Catch::Contains("See [[MEM-c]]."));
  const json index = json::parse(sandbox.read(".memory/memory-index.json"));
  for (const json& entry : index["entries"]) {
    if (entry["id"] == "MEM-a" || entry["id"] == "MEM-b") {
      CHECK(entry["tombstone_reason"] == "merged_into:MEM-c");
    }
  }
  CHECK(sandbox.git({"status", "--porcelain"}).out.empty());
  CHECK(sandbox.vault({"index", "--check"}).code == 0);
  CHECK(sandbox.vault({"check"}).code == 0);
}

}  // namespace distill_merge_chain_test
