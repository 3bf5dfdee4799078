#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>
#include <string>

#include "tests/e2e/sandbox.hpp"
#include "tests/e2e/vault_fixture.hpp"

namespace reindex_test {

using gv::test::Result;
using gv::test::Sandbox;
using Json = nlohmann::json;

namespace {

std::int64_t index_count(const std::string& index_json, const std::string& id) {
  const Json index = Json::parse(index_json);
  for (const Json& entry : index["entries"]) {
    if (entry["id"] == id) {
      return entry["retrieval_count"].get<std::int64_t>();
    }
  }
  FAIL("no index entry for " << id);
  return -1;
}

}  // namespace

// Vaults made by the original scripts count retrievals only in the index. The hook regenerates
// the index with the same function as `git vault index`, so the count moves into frontmatter
// instead of being replaced by the smaller one there.
TEST_CASE("the post-merge reindex keeps a retrieval count only the index held, as index does",
          "[hooks][merge][index]") {
  Sandbox sandbox;
  gv::test::write_scored_vault(sandbox);  // MEM-beta: retrieval_count 2 in frontmatter
  REQUIRE(sandbox.vault({"hooks", "install"}).code == 0);
  Json index = Json::parse(sandbox.read(".memory/memory-index.json"));
  for (Json& entry : index["entries"]) {
    if (entry["id"] == "MEM-beta") {
      entry["retrieval_count"] = 42;
    }
  }
  sandbox.write(".memory/memory-index.json", index.dump(2) + "\n");
  sandbox.commit_all("index counted by the original scripts");
  REQUIRE(sandbox.git({"branch", "side"}).code == 0);
  REQUIRE(sandbox.git({"checkout", "-q", "side"}).code == 0);
  sandbox.write(".memory/10-Memories/MEM-zeta.md",
                gv::test::memory_file("Zeta", "2026-11-28", "q", 0, "null"));
  sandbox.commit_all("side memory");
  REQUIRE(sandbox.git({"checkout", "-q", "main"}).code == 0);

  const Result merge = sandbox.git({"merge", "--no-ff", "--no-edit", "side"});
  INFO(merge.err);
  REQUIRE(merge.code == 0);
  CHECK(sandbox.git({"log", "-1", "--format=%s"}).out == "Merge branch 'side'\n");
  CHECK_THAT(sandbox.git({"show", "HEAD:.memory/10-Memories/MEM-beta.md"}).out,
             Catch::Contains("\nretrieval_count: 42\n"));
  CHECK(index_count(sandbox.git({"show", "HEAD:.memory/memory-index.json"}).out, "MEM-beta") == 42);
  CHECK_THAT(sandbox.read(".memory/memory-index.json"), Catch::Contains("MEM-zeta"));
  CHECK(sandbox.git({"status", "--porcelain"}).out.empty());
  // What the hook committed is what `git vault index` makes: it finds nothing left to do.
  const Result again = sandbox.vault({"index", "--json"});
  INFO(again.err);
  REQUIRE(again.code == 0);
  CHECK(Json::parse(again.out)["written"].empty());
  CHECK(sandbox.git({"status", "--porcelain"}).out.empty());
}

}  // namespace reindex_test
