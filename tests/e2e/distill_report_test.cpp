#include <fmt/format.h>

#include <algorithm>
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "tests/e2e/sandbox.hpp"
#include "tests/e2e/vault_fixture.hpp"

namespace distill_report_test {

using gv::test::Sandbox;
using nlohmann::json;

namespace {

const json& memory_of(const json& report, const std::string& id) {
  for (const json& memory : report["memories"]) {
    if (memory["id"] == id) {
      return memory;
    }
  }
  FAIL("no memory " << id);
  throw;
}

}  // namespace

TEST_CASE("distill --json scores every active memory as worked out by hand", "[distill][report]") {
  Sandbox sandbox;
  gv::test::write_scored_vault(sandbox);
  const auto result = sandbox.vault({"distill", "--json"});
  INFO(result.err);
  REQUIRE(result.code == 0);
  CHECK_THAT(result.out, Catch::EndsWith("\n}\n"));  // one document, ended as a line
  const json report = json::parse(result.out);
  CHECK(report["schema"] == 1);
  CHECK(report["today"] == "2026-11-30");
  REQUIRE(report["memories"].size() == 4);  // MEM-eps is tombstoned

  const json& alpha = memory_of(report, "MEM-alpha");
  CHECK(alpha["token_count"] == 15);  // "# Alpha" + 10 words = 12 words * 1.3
  CHECK(alpha["staleness"].get<double>() == Approx(10.0 / 90));
  CHECK(alpha["zero_retrieval"] == 0.0);                   // only 10 days old
  CHECK(alpha["duplicate"].get<double>() == Approx(0.6));  // {a,b,c} of 5 shared with beta
  CHECK(alpha["composite"].get<double>() == Approx(0.3 * 10.0 / 90 + 0.25 * 0.6));
  CHECK(alpha["classification"] == "healthy");
  CHECK(alpha["cluster"] == "tests");

  const json& beta = memory_of(report, "MEM-beta");
  CHECK(beta["token_count"] == 910);  // 700 words
  CHECK(beta["size_penalty"].get<double>() == Approx(310.0 / 600));
  CHECK(beta["staleness"].get<double>() == Approx(30.0 / 90 - 0.3));  // FSRS adjustment
  CHECK(beta["duplicate"].get<double>() == Approx(0.75));
  CHECK(beta["classification"] == "review");

  const json& gamma = memory_of(report, "MEM-gamma");
  CHECK(gamma["staleness"] == 1.0);
  CHECK(gamma["zero_retrieval"] == 1.0);
  CHECK(gamma["composite"].get<double>() == Approx(0.55));
  CHECK(gamma["cluster"] == "python");

  const json& delta = memory_of(report, "MEM-delta");
  CHECK(delta["duplicate"] == 1.0);
  CHECK(delta["composite"].get<double>() == Approx(0.8));
  CHECK(delta["classification"] == "purge");

  CHECK(report["candidates"]["purge"] == json::array({"MEM-delta"}));
  CHECK(report["candidates"]["merge"] == json::array({"MEM-beta", "MEM-delta"}));
  CHECK(report["candidates"]["compress"] == json::array({"MEM-beta"}));
  CHECK(report["candidates"]["review"] == json::array({"MEM-beta", "MEM-gamma"}));
  CHECK(report["health_score"] == 100 - 3 - 2 * 5 - 2);
  CHECK(report["status"] == "healthy");
  REQUIRE(report["tombstoned"].size() == 1);
  CHECK(report["tombstoned"][0]["id"] == "MEM-eps");
  CHECK(report["tombstoned"][0]["days_until_gc"] == 2);
}

TEST_CASE("the health report is the Markdown template and changes nothing", "[distill][report]") {
  Sandbox sandbox;
  gv::test::write_scored_vault(sandbox);
  const auto head = sandbox.git({"rev-parse", "HEAD"}).out;
  const auto result = sandbox.vault({"distill"});
  REQUIRE(result.code == 0);
  CHECK_THAT(result.out,
             Catch::StartsWith("## Memory Vault Health Report\n\n**Generated**: 2026-11-30\n"));
  CHECK_THAT(result.out,
             Catch::Contains("#### Purge Candidates (score >= 0.7)\n- MEM-delta (score: 0.80)\n"));
  CHECK_THAT(result.out, Catch::Contains("| MEM-eps | 2026-11-25 | purge | 2 |"));
  CHECK_THAT(result.out, Catch::Contains("**Score**: 85/100"));
  CHECK(sandbox.git({"status", "--porcelain"}).out.empty());
  CHECK(sandbox.git({"rev-parse", "HEAD"}).out == head);
  CHECK(sandbox.read("specs/state.json") == "{}\n");
}

TEST_CASE("the --today option changes the scores", "[distill][report]") {
  Sandbox sandbox;
  gv::test::write_scored_vault(sandbox);
  const auto result = sandbox.vault({"--today", "2026-12-30", "distill", "--json"});
  REQUIRE(result.code == 0);
  CHECK(memory_of(json::parse(result.out), "MEM-alpha")["staleness"].get<double>() ==
        Approx(40.0 / 90));
}

TEST_CASE("distill --record logs the report and refreshes memory_health in one commit",
          "[distill][report]") {
  Sandbox sandbox;
  gv::test::write_scored_vault(sandbox);
  sandbox.write("specs/state.json", "{\"repository_health\": {\"status\": \"healthy\"}}\n");
  sandbox.write("notes.txt", "mine\n");
  REQUIRE(sandbox.git({"add", "specs/state.json"}).code == 0);
  REQUIRE(sandbox.git({"commit", "-qm", "state"}).code == 0);
  REQUIRE(sandbox.git({"add", "notes.txt"}).code == 0);  // the user's own staged change
  const auto parent = sandbox.git({"rev-parse", "HEAD"}).out.substr(0, 40);

  const auto result = sandbox.vault({"distill", "--record", "--json"});
  INFO(result.err);
  REQUIRE(result.code == 0);
  const json landed = json::parse(result.out);
  const std::string log_id = landed["log_id"];

  const auto message = sandbox.git({"log", "-1", "--format=%B"}).out;
  CHECK_THAT(message, Catch::StartsWith("vault(report): health 85/100 (healthy)\n"));
  CHECK_THAT(message, Catch::Contains("Vault-Action: report\nVault-Log-Id: " + log_id));
  const auto files = sandbox.git({"show", "--name-only", "--format=", "HEAD"}).out;
  CHECK(files == ".memory/distill-log.json\nspecs/state.json\n");
  // The user's staged file stays staged and out of the vault commit.
  CHECK(sandbox.git({"diff", "--cached", "--name-only"}).out == "notes.txt\n");

  const json log = json::parse(sandbox.read(".memory/distill-log.json"));
  REQUIRE(log["operations"].size() == 1);
  const json& entry = log["operations"][0];
  CHECK(entry["type"] == "report");
  CHECK(entry["id"] == log_id);
  CHECK(entry["parent_commit"] == parent);
  CHECK(entry["pre_metrics"] == entry["post_metrics"]);
  CHECK(entry["pre_metrics"]["health_score"] == 85);
  CHECK(entry["pre_metrics"]["total_memories"] == 5);
  CHECK(entry["pre_metrics"]["merge_candidates"] == 2);
  CHECK(log["summary"]["total_operations"] == 1);

  const json state = json::parse(sandbox.read("specs/state.json"));
  CHECK(state["repository_health"]["status"] == "healthy");
  CHECK(state["memory_health"]["health_score"] == 85);
  CHECK(state["memory_health"]["status"] == "healthy");
  CHECK(state["memory_health"]["distill_count"] == 0);
  CHECK(state["memory_health"]["total_memories"] == 5);
  CHECK(state["memory_health"]["never_retrieved"] == 3);
  CHECK(state["memory_health"]["last_distilled"] == "2026-11-30T12:00:00Z");

  SECTION("a second record fills in the first entry's commit") {
    const auto first_commit = sandbox.git({"rev-parse", "HEAD"}).out.substr(0, 40);
    sandbox.set_env("GIT_VAULT_NOW", "2026-11-30T13:00:00Z");
    REQUIRE(sandbox.vault({"distill", "--record"}).code == 0);
    const json again = json::parse(sandbox.read(".memory/distill-log.json"));
    REQUIRE(again["operations"].size() == 2);
    CHECK(again["operations"][0]["commit"] == first_commit);
    CHECK(again["operations"][1]["commit"].is_null());
  }
}

TEST_CASE("distill --record refuses a vault with uncommitted changes", "[distill][report]") {
  Sandbox sandbox;
  gv::test::write_scored_vault(sandbox);
  sandbox.write(".memory/10-Memories/MEM-alpha.md",
                gv::test::memory_file("Alpha edited", "2026-11-20", "a", 0, "null"));
  const auto head = sandbox.git({"rev-parse", "HEAD"}).out;
  const auto result = sandbox.vault({"distill", "--record"});
  CHECK(result.code == 128);
  CHECK_THAT(result.err, Catch::Contains("MEM-alpha.md"));
  CHECK(result.out.empty());  // why it refused, not a report that was not recorded
  CHECK(sandbox.git({"rev-parse", "HEAD"}).out == head);
  CHECK(sandbox.read("specs/state.json") == "{}\n");

  // With --allow-dirty: the report, then git's commit line, in that order on one stream.
  const auto allowed = sandbox.sh("git vault distill --record --allow-dirty >all.txt 2>&1");
  REQUIRE(allowed.code == 0);
  const std::string all = sandbox.read("all.txt");
  const auto note = all.find("note: --allow-dirty: uncommitted changes stay out of the commit");
  const auto report = all.find("Health");
  const auto commit = all.find("] vault(report): health");
  CHECK(note < report);
  CHECK(report < commit);
  CHECK(commit != std::string::npos);
}

TEST_CASE("a report on a vault with a broken memory warns with path and line",
          "[distill][report]") {
  Sandbox sandbox;
  gv::test::write_scored_vault(sandbox);
  sandbox.write(".memory/10-Memories/MEM-broken.md",
                "---\ntitle: [unclosed\ncreated: 2026-01-01\n---\nbody\n");
  const auto result = sandbox.vault({"distill", "--json"});
  CHECK(result.code == 0);
  CHECK_THAT(result.err, Catch::Contains(".memory/10-Memories/MEM-broken.md:"));
  CHECK(json::parse(result.out)["memories"].size() == 4);
}

TEST_CASE("a report names each unreadable memory file and is then never healthy",
          "[distill][report]") {
  Sandbox sandbox;
  gv::test::write_scored_vault(sandbox);
  REQUIRE(json::parse(sandbox.vault({"distill", "--json"}).out)["status"] == "healthy");
  sandbox.write(".memory/10-Memories/MEM-old.md",
                "# Memory: an older note\n\n**Category**: [PATTERN]\n\nbody\n");
  const auto result = sandbox.vault({"distill", "--json"});
  INFO(result.err);
  REQUIRE(result.code == 0);
  const json report = json::parse(result.out);
  CHECK(report["status"] == "concerning");
  REQUIRE(report["unreadable"].size() == 1);
  CHECK(report["unreadable"][0]["path"] == ".memory/10-Memories/MEM-old.md");
  CHECK(report["unreadable"][0]["line"] == 1);
  CHECK_THAT(report["unreadable"][0]["message"].get<std::string>(),
             Catch::StartsWith("unreadable: no frontmatter"));
  const auto markdown = sandbox.vault({"distill"});
  REQUIRE(markdown.code == 0);
  CHECK_THAT(markdown.out, Catch::Contains("### Unreadable Memory Files\n\n1 file could not be "
                                           "read; it is in no score, no index and no search:\n\n"
                                           "- .memory/10-Memories/MEM-old.md:1: unreadable: no "
                                           "frontmatter"));
  // The score alone would be Healthy: the status says what holds it back.
  CHECK_THAT(markdown.out, Catch::Contains("**Status**: 🟠 Concerning (1 unreadable memory file "
                                           "keeps it from Healthy: see Unreadable Memory "
                                           "Files)\n"));
}

TEST_CASE("distill outside a vault says how to create one", "[distill][report]") {
  Sandbox sandbox;
  const auto result = sandbox.vault({"distill"});
  CHECK(result.code == 128);
  CHECK(result.out.empty());
  CHECK_THAT(result.err, Catch::Contains("git vault init"));
}

TEST_CASE("the health report cuts each list at --limit and --json keeps every entry",
          "[distill][report][conventions]") {
  Sandbox sandbox;
  for (int i = 0; i < 40; ++i) {
    sandbox.write(fmt::format(".memory/10-Memories/MEM-old-{:02}.md", i),
                  gv::test::memory_file(fmt::format("Old note {}", i), "2025-01-01",
                                        fmt::format("k{}", i), 0, "null"));
  }
  REQUIRE(sandbox.vault({"index"}).code == 0);
  sandbox.commit_all();
  const auto cut = sandbox.vault({"--limit", "5", "distill"});
  REQUIRE(cut.code == 0);
  CHECK_THAT(cut.out, Catch::Contains("- MEM-old-04 (score: "));
  CHECK_THAT(cut.out, !Catch::Contains("- MEM-old-05 (score: "));
  CHECK_THAT(cut.out, Catch::Contains("... and 35 more (`--limit 0` lists them all"));
  const auto all = sandbox.vault({"distill"});  // not a terminal: every row
  CHECK_THAT(all.out, Catch::Contains("- MEM-old-39 (score: "));
  const auto document = json::parse(sandbox.vault({"--json", "--limit", "5", "distill"}).out);
  CHECK(document["candidates"]["review"].size() == 40);
}

TEST_CASE("what the report recommends is what each action's dry run proposes",
          "[distill][report]") {
  Sandbox sandbox;
  gv::test::write_scored_vault(sandbox);
  const auto report = sandbox.vault({"distill"});
  INFO(report.out);
  REQUIRE(report.code == 0);
  // MEM-gamma is never retrieved and stale, MEM-delta too: purge's own rule, not the composite.
  CHECK_THAT(report.out, Catch::Contains("- `git vault distill --purge`: 2 memories (never "
                                         "retrieved, or staleness > 0.8): MEM-delta, MEM-gamma\n"));
  json purge = json::parse(sandbox.vault({"distill", "--purge", "--dry-run", "--json"}).out);
  std::vector<std::string> proposed;
  for (const json& candidate : purge["candidates"]) {
    proposed.push_back(candidate["id"]);
  }
  std::sort(proposed.begin(), proposed.end());
  CHECK(proposed == std::vector<std::string>{"MEM-delta", "MEM-gamma"});
  // Review candidates exist (MEM-beta, MEM-gamma), but refine looks at metadata: not recommended.
  CHECK_THAT(report.out, !Catch::Contains("distill --refine`"));
  // Merge: the pairs of the dry run are among the memories the report names.
  CHECK_THAT(report.out, Catch::Contains("- `git vault distill --merge`: 3 memories"));
  const json merge = json::parse(sandbox.vault({"distill", "--merge", "--dry-run", "--json"}).out);
  CHECK(merge["pairs"].size() == 3);
}

}  // namespace distill_report_test
