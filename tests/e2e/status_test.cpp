#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>
#include <string>

#include "tests/e2e/sandbox.hpp"
#include "tests/e2e/vault_fixture.hpp"

namespace status_test {

// `git vault status`: where the vault stands, in one screen, as `git status` says where the work
// tree stands.

using gv::test::Result;
using gv::test::Sandbox;
using Json = nlohmann::json;

namespace {

bool contains(const std::string& text, std::string_view part) {
  return text.find(part) != std::string::npos;
}

}  // namespace

TEST_CASE("status of a repository without a vault says how to make one", "[e2e][status]") {
  Sandbox sandbox;
  sandbox.write("README.md", "hello\n");
  sandbox.commit_all();
  const Result status = sandbox.vault({"status"});
  INFO(status.out << status.err);
  CHECK(status.code == 0);
  CHECK(contains(status.out, "No vault here"));
  CHECK(contains(status.out, "git vault init"));
  CHECK(contains(status.out, "Hooks: pre-commit not installed, post-merge not installed"));
}

TEST_CASE("status names memories, health, working memory, uncommitted files, the gate and wiring",
          "[e2e][status]") {
  Sandbox sandbox;
  REQUIRE(sandbox.vault({"init"}).code == 0);
  gv::test::write_scored_vault(sandbox);  // 4 active, 1 tombstoned; indexed and committed
  sandbox.write("CLAUDE.local.md", "# Working\n\n- Prefers tabs ^tr0000000001\n- No id here\n");
  sandbox.write(".memory/10-Memories/MEM-alpha.md",
                gv::test::memory_file("Alpha, edited", "2026-11-20", "a, b", 0, "null"));

  const Result status = sandbox.vault({"status"});
  INFO(status.out << status.err);
  REQUIRE(status.code == 0);
  CHECK(contains(status.out, "Memories: 4 active, 1 tombstoned"));
  CHECK(contains(status.out, "Health: "));
  CHECK(contains(status.out, "Working memory: 2 entries in 1 file, 1 without a valid id\n"));
  CHECK(contains(status.out, "Not committed:\n"));
  CHECK(contains(status.out, "  M .memory/10-Memories/MEM-alpha.md\n"));
  CHECK(contains(status.out, "  A CLAUDE.local.md\n"));
  CHECK(contains(status.out,
                 "Index files: stale in the work tree; the commit that fixes "
                 "the errors below regenerates them"));
  CHECK(contains(status.out, "Gate: a commit of the work tree would be blocked"));
  CHECK(contains(status.out, "CLAUDE.local.md:4: entry has no id"));
  CHECK(contains(status.out,
                 "Hooks: pre-commit installed, post-merge installed; merge drivers "
                 "configured; rendered diff off\n"));
  CHECK(contains(status.out, "Agents: none wired to git-vault"));

  const Result as_json = sandbox.vault({"status", "--json"});
  REQUIRE(as_json.code == 0);
  const Json doc = Json::parse(as_json.out);
  CHECK(doc["schema"] == 1);
  CHECK(doc["memories"]["active"] == 4);
  CHECK(doc["memories"]["tombstoned"] == 1);
  CHECK(doc["working_memory"]["entries"] == 2);
  CHECK(doc["working_memory"]["without_id"] == 1);
  CHECK(doc["index_stale"] == true);
  CHECK(doc["gate"]["ok"] == false);
  CHECK(doc["changes"][0] == Json::parse(R"({"status": "M",
      "path": ".memory/10-Memories/MEM-alpha.md"})"));
  CHECK(doc["hooks"]["hooks"][0]["running"] == true);
  CHECK(doc["agents"].empty());

  SECTION("an MCP server registered for the agent shows") {
    REQUIRE(sandbox.vault({"init", "--mcp"}).code == 0);
    const Result wired = sandbox.vault({"status"});
    CHECK(contains(wired.out, "Agents: claude MCP server (.mcp.json)"));
  }
  SECTION("once committed, nothing is left to say about the work tree") {
    REQUIRE(sandbox.vault({"recall", "init-ids", "--yes"}).code == 0);
    const Result commit = sandbox.sh("git add -A && git commit -q -m edits");
    INFO(commit.err);
    REQUIRE(commit.code == 0);
    const Result clean = sandbox.vault({"status"});
    INFO(clean.out);
    CHECK_FALSE(contains(clean.out, "Not committed"));
    CHECK_FALSE(contains(clean.out, "Index files: stale"));
    CHECK(contains(clean.out, "Gate: the work tree passes"));
  }
}

}  // namespace status_test
