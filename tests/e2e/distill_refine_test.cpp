#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "tests/e2e/refine_fixture.hpp"
#include "tests/e2e/sandbox.hpp"

namespace distill_refine_test {

using gv::test::Sandbox;
using nlohmann::json;

namespace {

std::string head(const Sandbox& sandbox) { return sandbox.git({"rev-parse", "HEAD"}).out; }

// The six numbers a log entry records, as a fresh `git vault distill --json` sees the vault.
json report_metrics(const Sandbox& sandbox) {
  const auto result = sandbox.vault({"distill", "--json"});
  REQUIRE(result.code == 0);
  const json report = json::parse(result.out);
  std::int64_t tokens = 0;
  for (const json& memory : report["memories"]) {
    tokens += memory["token_count"].get<std::int64_t>();
  }
  return json{{"total_memories", report["memories"].size() + report["tombstoned"].size()},
              {"total_tokens", tokens},
              {"health_score", report["health_score"]},
              {"purge_candidates", report["candidates"]["purge"].size()},
              {"merge_candidates", report["candidates"]["merge"].size()},
              {"compress_candidates", report["candidates"]["compress"].size()}};
}

json last_log_entry(const Sandbox& sandbox) {
  const json log = json::parse(sandbox.read(".memory/distill-log.json"));
  REQUIRE_FALSE(log["operations"].empty());
  return log["operations"].back();
}

}  // namespace

TEST_CASE("refine --dry-run lists both tiers and writes nothing", "[distill][refine]") {
  Sandbox sandbox;
  gv::test::write_refine_vault(sandbox);
  const std::string before = head(sandbox);

  const auto text = sandbox.vault({"distill", "--refine", "--dry-run"});
  INFO(text.err);
  REQUIRE(text.code == 0);
  CHECK_THAT(text.out,
             Catch::StartsWith("[DRY RUN] Would apply 3 Tier 1 fixes and offer 3 Tier 2 fixes:\n"
                               "\n## Tier 1 Automatic Fixes\n\n"
                               "| Memory | Fix | Description |\n"
                               "|--------|-----|-------------|\n"
                               "| MEM-retry | keyword_dedup | Removed 2 duplicate keywords |\n"
                               "| MEM-retry | summary_gen | Generated summary from content |\n"
                               "| MEM-retry | topic_normalize | Normalized topic path |\n"
                               "\n## Refine Candidates (3 issues found)\n\n"));
  CHECK_THAT(
      text.out,
      Catch::Contains("  - MEM-editor:category | Category may not match content | Current: "
                      "PATTERN | Suggested: CONFIG\n    Rule: cue-words: CONFIG 11, PATTERN 0\n"));
  CHECK_THAT(text.out, Catch::EndsWith("\nNo changes made.\n"));

  const auto dry = sandbox.vault({"distill", "--refine", "--dry-run", "--json"});
  REQUIRE(dry.code == 0);
  const json doc = json::parse(dry.out);
  CHECK(doc["schema"] == 1);
  CHECK(doc["sub_mode"] == "refine");
  CHECK(doc["dry_run"] == true);
  REQUIRE(doc["tier1"].size() == 3);
  CHECK(doc["tier1"][0] == json::parse(R"j({"id": "MEM-retry", "fix": "keyword_dedup",
      "description": "Remove duplicate keywords (case-insensitive, keep first occurrence)",
      "before": ["retry", "Backoff", "RETRY", "jitter", "timeout", "backoff"],
      "after": ["retry", "Backoff", "jitter", "timeout"]})j"));
  CHECK(doc["tier1"][2]["after"] == "python/libs");
  REQUIRE(doc["candidates"].size() == 3);
  CHECK(doc["candidates"][0]["key"] == "MEM-editor:keywords");
  CHECK(doc["candidates"][0]["current"] == json::array({"lazy"}));
  CHECK(doc["candidates"][0]["suggested"] == json::array({"plugin"}));
  CHECK(doc["candidates"][1]["key"] == "MEM-editor:category");
  CHECK(doc["candidates"][2]["key"] == "MEM-editor:topic");
  CHECK(doc["candidates"][2]["suggested"] == "tools/neovim");
  CHECK_THAT(doc["candidates"][2]["rule"].get<std::string>(), Catch::StartsWith("known-path:"));

  CHECK(sandbox.git({"status", "--porcelain"}).out.empty());
  CHECK(head(sandbox) == before);
}

TEST_CASE("refine without a terminal and with Tier 2 fixes to choose changes nothing",
          "[distill][refine]") {
  Sandbox sandbox;
  gv::test::write_refine_vault(sandbox);
  const std::string before = head(sandbox);
  const auto result = sandbox.vault({"distill", "--refine"});
  INFO(result.out << result.err);
  CHECK(result.code == 1);
  // Each Tier 2 candidate is named with the key --select takes, and --auto for Tier 1 alone.
  CHECK_THAT(result.err, Catch::Contains("--refine needs a selection: nothing was changed."));
  CHECK_THAT(result.err, Catch::Contains("   1. MEM-editor:keywords\n"));
  CHECK_THAT(result.err, Catch::Contains("Pass --select with numbers (1,3-4), keys or `a`"));
  CHECK_THAT(result.err, Catch::Contains("--all"));
  CHECK_THAT(result.err,
             Catch::Contains("git vault distill --auto applies the Tier 1 fixes alone"));
  CHECK(head(sandbox) == before);
  CHECK(sandbox.git({"status", "--porcelain"}).out.empty());
  // The flag it names works as printed.
  const auto tier1 = sandbox.sh("git vault distill --auto");
  INFO(tier1.err);
  CHECK(tier1.code == 0);
  CHECK(sandbox.read(".memory/10-Memories/MEM-retry.md") == gv::test::k_refine_retry_fixed);
}

TEST_CASE("refine without a terminal applies Tier 1 fixes when there is nothing to choose",
          "[distill][refine]") {
  Sandbox sandbox;
  gv::test::write_refine_vault(sandbox, /*with_retry=*/true, /*with_editor=*/false);
  sandbox.write("notes.txt", "mine\n");
  REQUIRE(sandbox.git({"add", "notes.txt"}).code == 0);  // the user's own staged change
  const std::string parent = head(sandbox).substr(0, 40);
  const json pre = report_metrics(sandbox);

  const auto result = sandbox.vault({"distill", "--refine"});
  INFO(result.err);
  REQUIRE(result.code == 0);
  CHECK(result.out ==
        "## Tier 1 Automatic Fixes\n\n"
        "| Memory | Fix | Description |\n"
        "|--------|-----|-------------|\n"
        "| MEM-retry | keyword_dedup | Removed 2 duplicate keywords |\n"
        "| MEM-retry | summary_gen | Generated summary from content |\n"
        "| MEM-retry | topic_normalize | Normalized topic path |\n"
        "\nTier 1 fixes are applied without a selection: they are mechanical and need none.\n"
        "\nRefined 1 memory. Tier 1: 3 fixes, Tier 2: 0 fixes\n");

  CHECK(sandbox.read(".memory/10-Memories/MEM-retry.md") == gv::test::k_refine_retry_fixed);

  const std::string message = sandbox.git({"log", "-1", "--format=%B"}).out;
  const json entry = last_log_entry(sandbox);
  CHECK(message ==
        "vault(refine): refine MEM-retry (keyword_dedup, summary_gen, topic_normalize)\n\n"
        "Vault-Action: refine\nVault-Log-Id: " +
            entry["id"].get<std::string>() + "\nVault-Memories: MEM-retry\n\n");
  CHECK(sandbox.git({"show", "--name-only", "--format=", "HEAD"}).out ==
        ".memory/10-Memories/MEM-retry.md\n"
        ".memory/20-Indices/index.md\n"
        ".memory/distill-log.json\n"
        ".memory/memory-index.json\n"
        "specs/state.json\n");
  CHECK(sandbox.git({"diff", "--cached", "--name-only"}).out == "notes.txt\n");
  CHECK(sandbox.git({"status", "--porcelain", "--", ".memory", "specs"}).out.empty());

  CHECK(entry["type"] == "refine");
  CHECK(entry["affected_memories"] == json::parse(R"([{"id": "MEM-retry",
      "fixes_applied": ["keyword_dedup", "summary_gen", "topic_normalize"],
      "action": "refined"}])"));
  CHECK(entry["notes"] == "Refined 1 memory. Tier 1: 3 fixes, Tier 2: 0 fixes");
  CHECK(entry["parent_commit"] == parent);
  CHECK(entry["pre_metrics"] == pre);
  CHECK(entry["post_metrics"] == report_metrics(sandbox));
  const json log = json::parse(sandbox.read(".memory/distill-log.json"));
  CHECK(log["summary"]["total_refined"] == 1);

  const json state = json::parse(sandbox.read("specs/state.json"));
  CHECK(state["memory_health"]["distill_count"] == 1);

  CHECK(sandbox.vault({"index", "--check"}).code == 0);
  CHECK(sandbox.vault({"check", "--worktree"}).code == 0);
}

TEST_CASE("refine --select applies exactly the chosen Tier 2 fixes with Tier 1",
          "[distill][refine]") {
  Sandbox sandbox;
  gv::test::write_refine_vault(sandbox);

  const auto result =
      sandbox.vault({"distill", "--refine", "--select", "MEM-editor:keywords,MEM-editor:topic"});
  INFO(result.err);
  REQUIRE(result.code == 0);
  CHECK_THAT(result.out,
             Catch::Contains("## Tier 2 Fixes Applied\n\n"
                             "| Memory | Fix | Change |\n"
                             "|--------|-----|--------|\n"
                             "| MEM-editor | keyword_enrich | Added [plugin] |\n"
                             "| MEM-editor | topic_correct | neovim -> tools/neovim |\n"
                             "\nRefined 2 memories. Tier 1: 3 fixes, Tier 2: 2 fixes\n"));
  CHECK_THAT(result.out, !Catch::Contains("No Tier 2 fixes selected"));

  std::string editor = gv::test::k_refine_editor;
  editor.replace(editor.find("topic: \"neovim\""), 15, "topic: \"tools/neovim\"");
  editor.replace(editor.find("modified: 2026-11-01"), 20, "modified: 2026-11-30");
  editor.replace(editor.find("keywords: [lazy]"), 16, "keywords: [lazy, plugin]");
  CHECK(sandbox.read(".memory/10-Memories/MEM-editor.md") == editor);  // tags untouched
  CHECK(sandbox.read(".memory/10-Memories/MEM-retry.md") == gv::test::k_refine_retry_fixed);
  CHECK(sandbox.read(".memory/10-Memories/MEM-tools.md") == gv::test::k_refine_tools);

  const json entry = last_log_entry(sandbox);
  CHECK(entry["affected_memories"][0] == json::parse(R"({"id": "MEM-editor",
      "fixes_applied": ["keyword_enrich", "topic_correct"], "action": "refined"})"));
  CHECK(entry["affected_memories"].size() == 2);
  CHECK(json::parse(sandbox.read(".memory/distill-log.json"))["summary"]["total_refined"] == 2);
  const std::string message = sandbox.git({"log", "-1", "--format=%B"}).out;
  CHECK_THAT(message, Catch::StartsWith("vault(refine): refine 2 memories (5 fixes)\n"));
  CHECK_THAT(message, Catch::Contains("\nVault-Memories: MEM-editor, MEM-retry\n"));
  CHECK(sandbox.vault({"index", "--check"}).code == 0);
  CHECK(sandbox.vault({"check", "--worktree"}).code == 0);
}

TEST_CASE("refine with only Tier 2 fixes and no selection changes nothing", "[distill][refine]") {
  Sandbox sandbox;
  gv::test::write_refine_vault(sandbox, /*with_retry=*/false);
  const std::string before = head(sandbox);
  const auto result = sandbox.vault({"distill", "--refine"});
  CHECK(result.code == 1);
  CHECK_THAT(result.err, Catch::Contains("--refine needs a selection: nothing was changed."));
  CHECK(sandbox.git({"status", "--porcelain"}).out.empty());
  CHECK(head(sandbox) == before);
}

TEST_CASE("refine --all applies every fix of both tiers", "[distill][refine]") {
  Sandbox sandbox;
  gv::test::write_refine_vault(sandbox);
  const auto result = sandbox.vault({"distill", "--refine", "--all"});
  INFO(result.err);
  REQUIRE(result.code == 0);
  const std::string editor = sandbox.read(".memory/10-Memories/MEM-editor.md");
  CHECK_THAT(editor, Catch::Contains("\ntags: [CONFIG, STANDARD]\ntopic: \"tools/neovim\"\n"));
  CHECK_THAT(editor, Catch::Contains("\nkeywords: [lazy, plugin]\n"));
  CHECK(last_log_entry(sandbox)["notes"] == "Refined 2 memories. Tier 1: 3 fixes, Tier 2: 3 fixes");
}

TEST_CASE("refine edge cases print their exact messages and change nothing", "[distill][refine]") {
  Sandbox sandbox;
  SECTION("a vault whose only memory is tombstoned") {
    sandbox.write(".memory/10-Memories/MEM-gone.md",
                  "---\ntitle: \"Gone\"\ncreated: 2026-01-01\nstatus: tombstoned\n"
                  "tombstoned_at: 2026-11-01\ntombstone_reason: \"purge\"\n---\n\n# Gone\n");
    REQUIRE(sandbox.vault({"index"}).code == 0);
    sandbox.commit_all();
    const auto result = sandbox.vault({"distill", "--refine"});
    CHECK(result.code == 0);
    CHECK(result.out == "No memories in vault to refine.\n");
  }
  SECTION("a vault with clean metadata") {
    gv::test::write_refine_vault(sandbox, false, false);
    const auto result = sandbox.vault({"distill", "--refine"});
    CHECK(result.code == 0);
    CHECK(result.out == "No quality issues found. All memories have clean metadata.\n");
    const auto dry = sandbox.vault({"distill", "--refine", "--dry-run"});
    CHECK(dry.out == "No quality issues found. All memories have clean metadata.\n");
  }
  CHECK(sandbox.git({"status", "--porcelain"}).out.empty());
  CHECK_FALSE(sandbox.exists(".memory/distill-log.json"));
}

TEST_CASE("refine refuses a vault with uncommitted changes", "[distill][refine]") {
  Sandbox sandbox;
  gv::test::write_refine_vault(sandbox);
  sandbox.write(".memory/10-Memories/MEM-tools.md", gv::test::k_refine_tools + "edited\n");
  const std::string before = head(sandbox);
  const auto result = sandbox.vault({"distill", "--refine", "--all"});
  INFO(result.err);
  CHECK(result.code == 128);
  CHECK(head(sandbox) == before);
  CHECK(sandbox.read(".memory/10-Memories/MEM-retry.md") == gv::test::k_refine_retry);
  CHECK(sandbox.git({"status", "--porcelain"}).out == " M .memory/10-Memories/MEM-tools.md\n");
}

TEST_CASE("refine --no-commit leaves the fixes in the work tree", "[distill][refine]") {
  Sandbox sandbox;
  gv::test::write_refine_vault(sandbox);
  const std::string before = head(sandbox);
  const auto result = sandbox.vault({"distill", "--refine", "--all", "--no-commit"});
  INFO(result.err);
  REQUIRE(result.code == 0);
  CHECK(head(sandbox) == before);
  CHECK(sandbox.read(".memory/10-Memories/MEM-retry.md") == gv::test::k_refine_retry_fixed);
}

}  // namespace distill_refine_test
