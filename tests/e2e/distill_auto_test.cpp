#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "tests/e2e/refine_fixture.hpp"
#include "tests/e2e/sandbox.hpp"
#include "tests/e2e/vault_fixture.hpp"

namespace distill_auto_test {

using gv::test::Sandbox;
using nlohmann::json;

namespace {

std::string head(const Sandbox& sandbox) { return sandbox.git({"rev-parse", "HEAD"}).out; }

}  // namespace

TEST_CASE("auto applies Tier 1 fixes only, without a prompt, and prints the completion table",
          "[distill][auto]") {
  Sandbox sandbox;
  gv::test::write_refine_vault(sandbox);
  sandbox.write("notes.txt", "mine\n");
  REQUIRE(sandbox.git({"add", "notes.txt"}).code == 0);

  const auto result = sandbox.vault({"distill", "--auto"});
  INFO(result.err);
  REQUIRE(result.code == 0);
  CHECK(result.out ==
        "## Auto Distill Complete\n"
        "\n"
        "| Fix Type | Count | Details |\n"
        "|----------|-------|---------|\n"
        "| Keyword dedup | 1 | Removed duplicates in 1 memory |\n"
        "| Summary gen | 1 | Generated summaries for 1 memory |\n"
        "| Topic normalize | 1 | Normalized topics in 1 memory |\n"
        "\n"
        "**Total fixes**: 3 across 1 memory\n"
        "**Health score**: 100/100 (healthy)\n"
        "\n"
        "Auto mode applies only Tier 1 fixes, which need no selection;\nrun `git vault distill "
        "--refine` to review Tier 2 suggestions.\n");
  // The commit line and how to undo it go to stderr, leaving the table alone on stdout.
  CHECK_THAT(result.err, Catch::Contains("] vault(auto): Tier 1 fixes in MEM-retry\nUndo with: "
                                         "git vault revert distill_"));

  // Tier 1 on MEM-retry; MEM-editor's Tier 2 issues stay for --refine.
  CHECK(sandbox.read(".memory/10-Memories/MEM-retry.md") == gv::test::k_refine_retry_fixed);
  CHECK(sandbox.read(".memory/10-Memories/MEM-editor.md") == gv::test::k_refine_editor);

  const json log = json::parse(sandbox.read(".memory/distill-log.json"));
  const json& entry = log["operations"].back();
  CHECK(entry["type"] == "refine");
  CHECK(entry["notes"] == "auto mode - Tier 1 fixes only. Applied 3 fixes to 1 memory");
  CHECK(entry["affected_memories"] == json::parse(R"([{"id": "MEM-retry",
      "fixes_applied": ["keyword_dedup", "summary_gen", "topic_normalize"],
      "action": "refined"}])"));
  CHECK(log["summary"]["total_refined"] == 1);

  const std::string message = sandbox.git({"log", "-1", "--format=%B"}).out;
  CHECK(message == "vault(auto): Tier 1 fixes in MEM-retry\n\nVault-Action: auto\nVault-Log-Id: " +
                       entry["id"].get<std::string>() + "\nVault-Memories: MEM-retry\n\n");
  CHECK(sandbox.git({"show", "--name-only", "--format=", "HEAD"}).out ==
        ".memory/10-Memories/MEM-retry.md\n"
        ".memory/20-Indices/index.md\n"
        ".memory/distill-log.json\n"
        ".memory/memory-index.json\n"
        "specs/state.json\n");
  CHECK(sandbox.git({"diff", "--cached", "--name-only"}).out == "notes.txt\n");
  CHECK(sandbox.vault({"index", "--check"}).code == 0);
  CHECK(sandbox.vault({"check", "--worktree"}).code == 0);

  SECTION("a second run finds nothing to do and writes nothing") {
    const std::string before = head(sandbox);
    const auto again = sandbox.vault({"distill", "--auto"});
    CHECK(again.code == 0);
    CHECK(again.out ==
          "Auto distill: No changes needed. All memories have clean metadata.\n"
          "Health score: 100/100 (healthy)\n");
    CHECK(head(sandbox) == before);
    CHECK(sandbox.git({"status", "--porcelain", "--", ".memory", "specs"}).out.empty());
  }
}

TEST_CASE("auto on a clean vault reports the health score of the vault as it is",
          "[distill][auto]") {
  Sandbox sandbox;
  gv::test::write_scored_vault(sandbox);  // clean metadata; health 85 (see vault_fixture.hpp)
  const std::string before = head(sandbox);
  const auto result = sandbox.vault({"distill", "--auto"});
  CHECK(result.code == 0);
  CHECK(result.out ==
        "Auto distill: No changes needed. All memories have clean metadata.\n"
        "Health score: 85/100 (healthy)\n");
  CHECK(head(sandbox) == before);
  CHECK(sandbox.git({"status", "--porcelain"}).out.empty());
}

TEST_CASE("auto --dry-run shows the fixes and what auto never runs, and writes nothing",
          "[distill][auto]") {
  Sandbox sandbox;
  gv::test::write_refine_vault(sandbox);
  const std::string before = head(sandbox);

  const auto text = sandbox.vault({"distill", "--auto", "--dry-run"});
  REQUIRE(text.code == 0);
  CHECK_THAT(text.out,
             Catch::StartsWith("[DRY RUN] Auto distill would apply 3 Tier 1 fixes to 1 memory:\n\n"
                               "## Tier 1 Automatic Fixes\n"));
  CHECK_THAT(text.out,
             Catch::Contains("| Tier 2 Refine | Interactive fixes require user selection |\n"));
  CHECK_THAT(text.out, Catch::EndsWith("\nNo changes made.\n"));

  const auto dry = sandbox.vault({"distill", "--auto", "--dry-run", "--json"});
  REQUIRE(dry.code == 0);
  const json doc = json::parse(dry.out);
  CHECK(doc["sub_mode"] == "auto");
  CHECK(doc["dry_run"] == true);
  REQUIRE(doc["tier1"].size() == 3);
  CHECK(doc["tier1"][1] == json::parse(R"({"id": "MEM-retry", "fix": "summary_gen",
      "description": "Generate summary from first line of content", "before": "",
      "after": "Wrap flaky HTTP calls in a retry loop with exponential waits."})"));

  CHECK(head(sandbox) == before);
  CHECK(sandbox.git({"status", "--porcelain"}).out.empty());
}

}  // namespace distill_auto_test
