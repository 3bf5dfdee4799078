#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>
#include <string>

#include "tests/e2e/sandbox.hpp"
#include "tests/e2e/vault_fixture.hpp"

namespace review_test {

using gv::test::memory_file;
using gv::test::Result;
using gv::test::Sandbox;
using nlohmann::json;

namespace {

const std::string k_working_base =
    "# Working memory\n\n- keep this ^tr0000000001\n- edit this ^tr0000000002\n"
    "- file this away ^tr0000000003\n- drop this ^tr0000000004\n";

void commit_with(Sandbox& sandbox, const std::string& subject, const std::string& trailers) {
  REQUIRE(sandbox.git({"add", "-A"}).code == 0);
  const Result commit = sandbox.git({"commit", "-q", "--no-verify", "-m", subject, "-m", trailers});
  INFO(commit.err);
  REQUIRE(commit.code == 0);
}

void reindex(Sandbox& sandbox) {
  const Result index = sandbox.vault({"index"});
  INFO(index.err);
  REQUIRE(index.code == 0);
}

// main: the shared five-memory vault plus MEM-zeta and a working memory. feature: one commit
// of hand edits, a real purge, then a merge, a compress and a gc made the way those actions
// make them (frontmatter edits, `merged_into:` tombstone, `## History` / `### Pre-Compression`,
// `Vault-Action` trailers), and a retrieval bump.
void build_feature_branch(Sandbox& sandbox) {
  sandbox.write(".memory/10-Memories/MEM-zeta.md",
                memory_file("Zeta", "2026-11-01", "zz", 0, "null"));
  sandbox.write("CLAUDE.local.md", k_working_base);
  sandbox.write("memory/registers/notes.md", "# Notes\n\n- a register note ^tr0000000010\n");
  gv::test::write_scored_vault(sandbox);
  REQUIRE(sandbox.git({"checkout", "-q", "-b", "feature"}).code == 0);

  // 1. Hand edits: a new memory, a keyword added, working memory changed.
  sandbox.write(".memory/10-Memories/MEM-new.md",
                memory_file("New", "2026-11-29", "fresh", 0, "null"));
  sandbox.write("CLAUDE.local.md",
                "# Working memory\n\n- keep this ^tr0000000001\n- edited text ^tr0000000002\n"
                "- a new entry ^tr0000000005\n");
  sandbox.write("memory/registers/notes.md",
                "# Notes\n\n- a register note ^tr0000000010\n- file this away ^tr0000000003\n");
  reindex(sandbox);
  sandbox.commit_all("notes: add MEM-new, working memory tidy-up");

  // 2. A real purge commit.
  const Result purge = sandbox.vault({"distill", "--purge", "--select", "MEM-delta"});
  INFO(purge.err);
  REQUIRE(purge.code == 0);

  // 3. A merge: MEM-alpha absorbs MEM-gamma.
  sandbox.write(".memory/10-Memories/MEM-alpha.md",
                memory_file("Alpha", "2026-11-20", "a, b, c, d, e, z", 0, "null", {}, 10) +
                    "\n## Merged From MEM-gamma\n\n**Original Title**: Gamma\n");
  sandbox.write(".memory/10-Memories/MEM-gamma.md",
                memory_file("Gamma", "2026-05-01", "z", 0, "null",
                            "status: tombstoned\ntombstoned_at: 2026-11-30\n"
                            "tombstone_reason: \"merged_into:MEM-alpha\"\n",
                            10, "python/x"));
  json log = json::parse(sandbox.read(".memory/distill-log.json"));
  log["operations"].push_back(
      json{{"id", "distill_merge_1"},
           {"timestamp", "2026-11-30T12:00:00Z"},
           {"type", "merge"},
           {"pre_metrics", {{"health_score", 61}}},
           {"post_metrics", {{"health_score", 66}}},
           {"affected_memories", {{{"primary", "MEM-alpha"}, {"secondary", "MEM-gamma"}}}},
           {"notes", "Merged 1 pair(s) across 1 cluster(s)"}});
  sandbox.write(".memory/distill-log.json", log.dump(2) + "\n");
  reindex(sandbox);
  commit_with(sandbox, "vault(merge): merge MEM-gamma into MEM-alpha",
              "Vault-Action: merge\nVault-Log-Id: distill_merge_1\n"
              "Vault-Memories: MEM-alpha, MEM-gamma");

  // 4. A compress: MEM-beta (910 tokens) keeps 8 words; the old body moves to History.
  const std::string beta = sandbox.read(".memory/10-Memories/MEM-beta.md");
  const std::size_t title = beta.find("# Beta\n\n");
  sandbox.write(".memory/10-Memories/MEM-beta.md",
                beta.substr(0, title) +
                    "# Beta\n\nkey points of beta in eight short words\n\n## History\n\n"
                    "### Pre-Compression (2026-11-30)\n\n" +
                    beta.substr(title + 8));
  reindex(sandbox);
  commit_with(sandbox, "vault(compress): compress MEM-beta",
              "Vault-Action: compress\nVault-Memories: MEM-beta");

  // 5. A gc of the memory tombstoned on main, and a retrieval recorded for MEM-zeta.
  REQUIRE(sandbox.git({"rm", "-q", ".memory/10-Memories/MEM-eps.md"}).code == 0);
  reindex(sandbox);
  commit_with(sandbox, "vault(gc): delete MEM-eps", "Vault-Action: gc\nVault-Memories: MEM-eps");
  sandbox.write(".memory/10-Memories/MEM-zeta.md",
                memory_file("Zeta", "2026-11-01", "zz", 1, "2026-11-29"));
  reindex(sandbox);
  sandbox.commit_all("search: record a retrieval");
}

json review_json(const Sandbox& sandbox, const std::vector<std::string>& args) {
  std::vector<std::string> argv{"--json", "review"};
  argv.insert(argv.end(), args.begin(), args.end());
  const Result result = sandbox.vault(argv);
  INFO(result.err);
  REQUIRE(result.code == 0);
  return json::parse(result.out);
}

}  // namespace

TEST_CASE("review of a branch lists every kind of vault change", "[review]") {
  Sandbox sandbox;
  build_feature_branch(sandbox);
  const json review = review_json(sandbox, {"main...feature"});
  const json& memories = review["memories"];

  REQUIRE(memories["added"].size() == 1);
  CHECK(memories["added"][0]["id"] == "MEM-new");
  CHECK(memories["added"][0]["category"] == "PATTERN");
  CHECK(memories["added"][0]["topic"] == "tests/e2e");
  CHECK(memories["added"][0]["token_count"] == 15);

  REQUIRE(memories["tombstoned"].size() == 1);
  CHECK(memories["tombstoned"][0]["id"] == "MEM-delta");
  CHECK(memories["tombstoned"][0]["reason"] == "purge");

  CHECK(memories["merged"] ==
        json::array({{{"primary", "MEM-alpha"}, {"secondary", "MEM-gamma"}}}));
  REQUIRE(memories["changed"].size() == 1);
  CHECK(memories["changed"][0]["id"] == "MEM-alpha");
  CHECK(memories["changed"][0]["fields"] == json::array({"keywords"}));
  CHECK(memories["changed"][0]["tokens_before"] == 15);
  // + `## Merged From MEM-gamma` (4 words) + `**Original Title**: Gamma` (3): 19 words.
  CHECK(memories["changed"][0]["tokens_after"] == 24);

  REQUIRE(memories["compressed"].size() == 1);
  CHECK(memories["compressed"][0]["id"] == "MEM-beta");
  CHECK(memories["compressed"][0]["tokens_before"] == 910);
  CHECK(memories["compressed"][0]["tokens_after"] == 13);  // `# Beta` + 8 words

  CHECK(memories["deleted"] ==
        json::array({{{"id", "MEM-eps"}, {"title", "Eps"}, {"was_tombstoned", true}}}));
  REQUIRE(memories["retrieval"].size() == 1);
  CHECK(memories["retrieval"][0]["id"] == "MEM-zeta");
  CHECK(memories["retrieval"][0]["count_before"] == 0);
  CHECK(memories["retrieval"][0]["count_after"] == 1);
  CHECK(memories["retrieval"][0]["last_retrieved_after"] == "2026-11-29");
  CHECK(memories["unchanged"] == 0);

  const json& working = review["working_memory"];
  REQUIRE(working["added"].size() == 1);
  CHECK(working["added"][0]["id"] == "tr0000000005");
  REQUIRE(working["removed"].size() == 1);
  CHECK(working["removed"][0]["id"] == "tr0000000004");
  REQUIRE(working["edited"].size() == 1);
  CHECK(working["edited"][0]["before"] == "edit this");
  CHECK(working["edited"][0]["after"] == "edited text");
  REQUIRE(working["moved"].size() == 1);
  CHECK(working["moved"][0]["from"]["tier"] == "working");
  CHECK(working["moved"][0]["to"]["tier"] == "register");

  CHECK(review["commits"] == 6);
  const json& maintenance = review["maintenance"];
  REQUIRE(maintenance.size() == 4);
  CHECK(maintenance[0]["action"] == "purge");
  REQUIRE(maintenance[0]["log"].is_object());
  CHECK(maintenance[0]["log"]["type"] == "purge");
  CHECK(maintenance[1]["action"] == "merge");
  CHECK(maintenance[1]["log_id"] == "distill_merge_1");
  CHECK(maintenance[1]["log"]["notes"] == "Merged 1 pair(s) across 1 cluster(s)");
  CHECK(maintenance[1]["log"]["health_before"] == 61);
  CHECK(maintenance[1]["memories"] == json::array({"MEM-alpha", "MEM-gamma"}));
  CHECK(maintenance[2]["action"] == "compress");
  CHECK(maintenance[2]["log"].is_null());
  CHECK(maintenance[3]["action"] == "gc");

  const json& before = review["health"]["before"];
  const json& after = review["health"]["after"];
  CHECK(before["active_memories"] == 5);  // alpha beta gamma delta zeta
  CHECK(after["active_memories"] == 4);   // alpha beta new zeta
  CHECK(before["tombstoned_memories"] == 1);
  CHECK(after["tombstoned_memories"] == 2);
  CHECK(review["summary"].get<std::string>().starts_with(
      "+1 memory, 1 changed, 1 tombstoned, 1 merged, 1 compressed, 1 deleted, "
      "1 retrieval count updated, 4 working-memory entries; health "));
  CHECK(review["gate"]["ok"] == true);
}

TEST_CASE("review Markdown is deterministic and names every section", "[review]") {
  Sandbox sandbox;
  build_feature_branch(sandbox);
  const Result first = sandbox.vault({"review", "main...feature"});
  INFO(first.err);
  REQUIRE(first.code == 0);
  CHECK(sandbox.vault({"review", "main...feature"}).out == first.out);
  for (const char* heading :
       {"### Health", "### Memories added (1)", "### Memories changed (1)",
        "### Memories tombstoned (1)", "### Memories merged (1)", "### Memories compressed (1)",
        "### Memories deleted (1)", "### Retrieval counters changed (1)",
        "### Working memory: entries moved (1)", "### Maintenance commits (4)",
        "### Gate at HEAD"}) {
    CHECK_THAT(first.out, Catch::Contains(heading));
  }
  CHECK_THAT(first.out, Catch::Contains("| `MEM-beta` | 910 → 13 |"));
  CHECK_THAT(first.out, Catch::Contains("| `MEM-eps` | Eps | gc (was tombstoned) |"));
}

TEST_CASE("review without a range compares with the merge base of the default branch", "[review]") {
  Sandbox sandbox;
  build_feature_branch(sandbox);
  // main moves on after the branch point; the review must not show main's own changes.
  REQUIRE(sandbox.git({"checkout", "-q", "main"}).code == 0);
  sandbox.write(".memory/10-Memories/MEM-mainline.md",
                memory_file("Mainline", "2026-11-30", "m", 0, "null"));
  reindex(sandbox);
  sandbox.commit_all("main: another memory");
  REQUIRE(sandbox.git({"checkout", "-q", "feature"}).code == 0);

  const json implicit = review_json(sandbox, {});
  CHECK(implicit == review_json(sandbox, {"main...HEAD"}));
  CHECK(implicit["memories"]["deleted"].size() == 1);  // only MEM-eps, not MEM-mainline
  CHECK(implicit["commits"] == 6);
  // Two dots compare with main's tip itself: MEM-mainline now looks deleted.
  CHECK(review_json(sandbox, {"main..feature"})["memories"]["deleted"].size() == 2);
}

TEST_CASE("review shows the gate's findings at HEAD on a branch that breaks it", "[review]") {
  Sandbox sandbox;
  build_feature_branch(sandbox);
  sandbox.write("CLAUDE.local.md", sandbox.read("CLAUDE.local.md") + "- an entry with no id\n");
  sandbox.commit_all("working memory: untagged entry");
  const json review = review_json(sandbox, {"main...feature"});
  CHECK(review["gate"]["ok"] == false);
  REQUIRE_FALSE(review["gate"]["findings"].empty());
  CHECK(review["gate"]["findings"][0]["check"] == "missing-id");
  CHECK(review["gate"]["findings"][0]["path"] == "CLAUDE.local.md");
  const Result markdown = sandbox.vault({"review", "main...feature"});
  CHECK(markdown.code == 0);  // the review informs; `check` is what blocks
  CHECK_THAT(markdown.out, Catch::Contains("gate fails (1 error)"));
  CHECK_THAT(markdown.out, Catch::Contains("**error** `CLAUDE.local.md:6`"));
}

TEST_CASE("review rejects a range naming no commit", "[review]") {
  Sandbox sandbox;
  gv::test::write_scored_vault(sandbox);
  const Result result = sandbox.vault({"review", "nosuch...HEAD"});
  CHECK(result.code == 129);
  CHECK_THAT(result.err, Catch::Contains("'nosuch' names no commit"));
}

TEST_CASE("review of a pushed branch without a range compares with main, not with its upstream",
          "[review]") {
  Sandbox sandbox;
  build_feature_branch(sandbox);
  // The remote's default branch is main; the clone works on feature, pushed and tracking
  // origin/feature.
  REQUIRE(sandbox.git({"checkout", "-q", "main"}).code == 0);
  REQUIRE(sandbox.git({"clone", "-q", sandbox.root().string(), "clone"}).code == 0);
  REQUIRE(sandbox.git({"checkout", "-q", "--track", "origin/feature"}, "clone").code == 0);
  REQUIRE(sandbox.git({"rev-parse", "--abbrev-ref", "@{upstream}"}, "clone").out ==
          "origin/feature\n");
  const Result implicit = sandbox.vault({"--json", "review"}, {}, "clone");
  INFO(implicit.err);
  REQUIRE(implicit.code == 0);
  const Result explicit_range =
      sandbox.vault({"--json", "review", "origin/main...HEAD"}, {}, "clone");
  REQUIRE(explicit_range.code == 0);
  CHECK(json::parse(implicit.out) == json::parse(explicit_range.out));
  CHECK(json::parse(implicit.out)["commits"] > 0);  // not the branch against its own copy
}

TEST_CASE("review lists the warnings in the files a branch changes and counts the rest",
          "[review]") {
  Sandbox sandbox;
  gv::test::write_scored_vault(sandbox);
  // A dangling link on main, in a memory the branch never touches.
  sandbox.write(
      ".memory/10-Memories/MEM-gamma.md",
      sandbox.read(".memory/10-Memories/MEM-gamma.md") + "\n## Connections\n- [[MEM-nowhere]]\n");
  reindex(sandbox);
  sandbox.commit_all("main: a dangling link");
  REQUIRE(sandbox.git({"checkout", "-q", "-b", "feature"}).code == 0);
  // The branch adds a memory with a dangling link of its own.
  sandbox.write(".memory/10-Memories/MEM-new.md",
                memory_file("New", "2026-11-29", "fresh", 0, "null") +
                    "\n## Connections\n- [[MEM-elsewhere]]\n");
  reindex(sandbox);
  sandbox.commit_all("feature: a memory");
  const Result markdown = sandbox.vault({"review", "main...feature"});
  INFO(markdown.out);
  REQUIRE(markdown.code == 0);
  CHECK_THAT(markdown.out, Catch::Contains("0 errors, 2 warnings."));
  CHECK_THAT(markdown.out, Catch::Contains("**warning** `.memory/10-Memories/MEM-new.md:"));
  CHECK_THAT(markdown.out, !Catch::Contains("MEM-gamma.md:"));
  CHECK_THAT(markdown.out, Catch::Contains("1 warning in files this branch does not change (by "
                                           "check: dangling-link 1)."));
  // A fix that names a command in backticks keeps its code span whole on GitHub.
  CHECK_THAT(markdown.out, Catch::Contains(" — fix: `` point [[MEM-elsewhere]] at "));
  // The JSON keeps every finding.
  CHECK(review_json(sandbox, {"main...feature"})["gate"]["findings"].size() == 2);
}

TEST_CASE("review names a memory moved with git mv as renamed, not deleted and added", "[review]") {
  Sandbox sandbox;
  gv::test::write_scored_vault(sandbox);  // committed
  REQUIRE(sandbox
              .git({"mv", ".memory/10-Memories/MEM-gamma.md",
                    ".memory/10-Memories/MEM-python-gamma.md"})
              .code == 0);
  // A deletion in the same range stays a deletion.
  REQUIRE(sandbox.git({"rm", "-q", ".memory/10-Memories/MEM-delta.md"}).code == 0);
  reindex(sandbox);
  commit_with(sandbox, "rename gamma, drop delta", "");

  const json review = review_json(sandbox, {"HEAD~1..HEAD"});
  const json& memories = review["memories"];
  CHECK(memories["renamed"] ==
        json::array({{{"from", "MEM-gamma"}, {"to", "MEM-python-gamma"}, {"title", "Gamma"}}}));
  CHECK(memories["added"].empty());
  REQUIRE(memories["deleted"].size() == 1);
  CHECK(memories["deleted"][0]["id"] == "MEM-delta");
  CHECK(review["summary"].get<std::string>().starts_with("1 deleted, 1 renamed; health "));

  const Result markdown = sandbox.vault({"review", "HEAD~1..HEAD"});
  INFO(markdown.err);
  REQUIRE(markdown.code == 0);
  CHECK_THAT(markdown.out, Catch::Contains("| `MEM-python-gamma` | `MEM-gamma` | Gamma |"));
}

TEST_CASE("review counts an unreadable memory file against health as the report does", "[review]") {
  Sandbox sandbox;
  gv::test::write_scored_vault(sandbox);  // healthy, 85/100
  sandbox.write(".memory/10-Memories/MEM-broken.md",
                "---\ntitle: [unclosed\ncreated: 2026-01-01\n---\nbody\n");
  commit_with(sandbox, "notes: a memory that does not parse", "");
  sandbox.write(".memory/10-Memories/MEM-broken.md",
                memory_file("Broken no more", "2026-11-20", "mended", 0, "null"));
  reindex(sandbox);
  commit_with(sandbox, "notes: mend it", "");

  const json broke = review_json(sandbox, {"HEAD~2..HEAD~1"});
  CHECK(broke["health"]["before"]["status"] == "healthy");
  CHECK(broke["health"]["after"]["status"] == "concerning");
  const json mended = review_json(sandbox, {"HEAD~1..HEAD"});
  CHECK(mended["health"]["before"]["status"] == "concerning");
  CHECK(mended["health"]["after"]["status"] == "healthy");

  // The same status distill gives the broken commit.
  REQUIRE(sandbox.git({"checkout", "-q", "HEAD~1"}).code == 0);
  const Result report = sandbox.vault({"distill", "--json"});
  INFO(report.err);
  CHECK(json::parse(report.out)["status"] == "concerning");
}

TEST_CASE("review of a changed memory shows each field's old and new value and what the body did",
          "[review]") {
  Sandbox sandbox;
  gv::test::write_scored_vault(sandbox);
  REQUIRE(sandbox.git({"checkout", "-q", "-b", "edit"}).code == 0);
  // A new summary, a keyword swapped, and one body word replaced by another: same token count.
  std::string alpha = sandbox.read(".memory/10-Memories/MEM-alpha.md");
  const auto replace = [&](const std::string& from, const std::string& to) {
    const std::size_t at = alpha.find(from);
    REQUIRE(at != std::string::npos);
    alpha.replace(at, from.size(), to);
  };
  replace("summary: \"Alpha summary\"", "summary: \"Alpha, said better\"");
  replace("keywords: [a, b, c, d, e]", "keywords: [a, b, c, d, f]");
  replace("w3 ", "x3 ");
  sandbox.write(".memory/10-Memories/MEM-alpha.md", alpha);
  reindex(sandbox);
  sandbox.commit_all("edit alpha");

  const Result markdown = sandbox.vault({"review", "main...edit"});
  INFO(markdown.out << markdown.err);
  REQUIRE(markdown.code == 0);
  CHECK_THAT(markdown.out,
             Catch::Contains("| `MEM-alpha` | Alpha | `keywords` +f −e; `summary`: \"Alpha "
                             "summary\" → \"Alpha, said better\" | +1 −1 lines, 15 tokens as "
                             "before |"));
  CHECK_THAT(markdown.out, !Catch::Contains("0 tokens (15 → 15)"));

  const json review = review_json(sandbox, {"main...edit"});
  const json& changed = review["memories"]["changed"][0];
  CHECK(changed["changes"][0] == json::parse(R"({"field": "keywords", "before": "a, b, c, d, e",
      "after": "a, b, c, d, f", "added": ["f"], "removed": ["e"]})"));
  CHECK(changed["changes"][1] == json::parse(R"({"field": "summary", "before": "Alpha summary",
      "after": "Alpha, said better"})"));
  CHECK(changed["body_lines_added"] == 1);
  CHECK(changed["body_lines_removed"] == 1);
}

TEST_CASE("review on the default branch without a range names the range to give, which works",
          "[review]") {
  Sandbox sandbox;
  gv::test::write_scored_vault(sandbox);
  sandbox.write(".memory/10-Memories/MEM-new.md", memory_file("New", "2026-11-30", "n", 0, "null"));
  reindex(sandbox);
  sandbox.commit_all("a new memory on main");
  const Result empty = sandbox.vault({"review"});
  INFO(empty.out << empty.err);
  CHECK(empty.code == 129);
  CHECK(empty.out.empty());
  CHECK_THAT(empty.err, Catch::Contains("nothing to review: HEAD is where main is"));
  const std::string printed = "git vault review HEAD~1..HEAD";
  CHECK_THAT(empty.err, Catch::Contains(printed));
  const Result run = sandbox.sh(printed);
  CHECK(run.code == 0);
  CHECK_THAT(run.out, Catch::Contains("`MEM-new`"));
}

}  // namespace review_test
