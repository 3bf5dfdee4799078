#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "tests/e2e/sandbox.hpp"
#include "tests/e2e/vault_fixture.hpp"

namespace show_test {

using gv::test::Sandbox;
using nlohmann::json;

TEST_CASE("show prints a memory file as it is", "[show]") {
  Sandbox sandbox;
  gv::test::write_scored_vault(sandbox);
  const auto result = sandbox.vault({"show", "MEM-gamma"});
  INFO(result.err);
  REQUIRE(result.code == 0);
  CHECK(result.out == sandbox.read(".memory/10-Memories/MEM-gamma.md"));
  const auto two = sandbox.vault({"show", "MEM-gamma", ".memory/10-Memories/MEM-alpha.md"});
  REQUIRE(two.code == 0);
  CHECK_THAT(two.out, Catch::StartsWith("==> .memory/10-Memories/MEM-gamma.md <==\n---\n"));
  CHECK_THAT(two.out, Catch::Contains("\n\n==> .memory/10-Memories/MEM-alpha.md <==\n"));
}

TEST_CASE("show --json gives frontmatter as an object, the body, token count and path", "[show]") {
  Sandbox sandbox;
  gv::test::write_scored_vault(sandbox);
  const auto result = sandbox.vault({"show", "MEM-beta", "MEM-eps", "--json"});
  INFO(result.err);
  REQUIRE(result.code == 0);
  const json document = json::parse(result.out);
  CHECK(document["schema"] == 1);
  REQUIRE(document["memories"].size() == 2);
  const json& beta = document["memories"][0];
  CHECK(beta["id"] == "MEM-beta");
  CHECK(beta["path"] == ".memory/10-Memories/MEM-beta.md");
  CHECK(beta["token_count"] == 910);
  CHECK(beta["frontmatter"]["title"] == "Beta");
  CHECK(beta["frontmatter"]["created"] == "2026-08-01");
  CHECK(beta["frontmatter"]["retrieval_count"] == 2);
  CHECK(beta["frontmatter"]["keywords"] == json{"a", "b", "c", "x"});
  CHECK_THAT(beta["body"].get<std::string>(), Catch::StartsWith("\n# Beta\n\nw0 w1"));
  // Tombstoned memories can still be read by id.
  CHECK(document["memories"][1]["frontmatter"]["status"] == "tombstoned");
}

TEST_CASE("show names the closest ids for an unknown one", "[show]") {
  Sandbox sandbox;
  gv::test::write_scored_vault(sandbox);
  const auto result = sandbox.vault({"show", "MEM-gama"});
  CHECK(result.code == 128);
  CHECK(result.out.empty());
  CHECK_THAT(result.err,
             Catch::Contains("git-vault: error: no memory or entry `MEM-gama` (did you mean "
                             "MEM-gamma"));
  const auto bare = sandbox.vault({"show", "alpha"});
  CHECK_THAT(bare.err, Catch::Contains("did you mean MEM-alpha"));
}

TEST_CASE("show --record counts active memories only and touches no tracked file", "[show]") {
  Sandbox sandbox;
  gv::test::write_scored_vault(sandbox);
  REQUIRE(sandbox.vault({"show", "MEM-alpha", "MEM-eps", "--record"}).code == 0);
  const std::string journal = sandbox.read(".git/git-vault/retrievals.jsonl");
  CHECK(journal == "{\"id\":\"MEM-alpha\",\"date\":\"2026-11-30\",\"via\":\"show\"}\n");
  CHECK(sandbox.git({"status", "--porcelain"}).out.empty());
}

TEST_CASE("show names a memory file that is there but cannot be read", "[show]") {
  Sandbox sandbox;
  gv::test::write_scored_vault(sandbox);
  sandbox.write(".memory/10-Memories/MEM-old.md",
                "# Memory: an older note\n\n**Category**: [PATTERN]\n\nbody\n");
  const auto result = sandbox.vault({"show", "MEM-old"});
  CHECK(result.code == 128);
  CHECK_THAT(result.err, Catch::Contains(".memory/10-Memories/MEM-old.md:1: MEM-old cannot be "
                                         "read: unreadable: no frontmatter"));
  CHECK_THAT(result.err, Catch::Contains("git vault migrate"));
}

TEST_CASE("show opens entries by id, memories by a unique start, and each thing once", "[show]") {
  Sandbox sandbox;
  gv::test::write_scored_vault(sandbox);
  sandbox.write("memory/registers/decisions.md",
                "# Decisions\n\n## Store fields\n- **Decision**: do not add readonly "
                "^tr0123456789\n- **Status**: in-effect\n");
  sandbox.write("memory/.recall/metadata.json",
                "{\n  \"tr0123456789\": {\n    \"created_at\": \"2026-11-01T00:00:00Z\",\n"
                "    \"pinned\": true,\n    \"status\": \"active\",\n"
                "    \"tier\": \"register\"\n  }\n}\n");
  sandbox.commit_all();

  const auto entry = sandbox.vault({"show", "^tr0123456789"});
  INFO(entry.err);
  REQUIRE(entry.code == 0);
  CHECK(entry.out ==
        "memory/registers/decisions.md:4: [register] ^tr0123456789\n## Store fields\n"
        "- **Decision**: do not add readonly ^tr0123456789\n- **Status**: in-effect\n"
        "(status active, created 2026-11-01T00:00:00Z, pinned)\n");

  const auto json_result =
      sandbox.vault({"show", "tr0123456789", "MEM-gam", "MEM-gamma.md", "--json"});
  INFO(json_result.err);
  REQUIRE(json_result.code == 0);
  const json document = json::parse(json_result.out);
  REQUIRE(document["memories"].size() == 1);
  CHECK(document["memories"][0]["id"] == "MEM-gamma");
  REQUIRE(document["entries"].size() == 1);
  CHECK(document["entries"][0]["tier"] == "register");
  CHECK(document["entries"][0]["heading"] == "Store fields");
  CHECK(document["entries"][0]["metadata"]["pinned"] == true);

  const auto ambiguous = sandbox.vault({"show", "MEM-"});
  CHECK(ambiguous.code == 128);
  CHECK_THAT(ambiguous.err, Catch::Contains("`MEM-` is the start of 5 ids"));
  const auto missing = sandbox.vault({"show", "^tr9999999999"});
  CHECK(missing.code == 128);
  CHECK_THAT(missing.err, Catch::Contains("`^tr9999999999` (no working-memory entry has this id)"));
  const auto huge = sandbox.vault({"show", std::string(100000, 'x')});
  CHECK(huge.code == 128);
  CHECK_THAT(huge.err, Catch::Contains("a name of 100000 bytes"));
}

}  // namespace show_test
