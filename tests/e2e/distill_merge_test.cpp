#include <fmt/format.h>

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "tests/e2e/sandbox.hpp"
#include "tests/e2e/vault_fixture.hpp"

namespace distill_merge_test {

using gv::test::Sandbox;
using nlohmann::json;

namespace {

const std::string k_primary =
    "---\n"
    "title: \"Retry policy\"\n"
    "created: 2026-03-01\n"
    "tags: [PATTERN]\n"
    "topic: \"net/retry\"\n"
    "modified: 2026-03-01\n"
    "keywords: [retry, backoff, jitter]\n"
    "summary: \"How to retry\"\n"
    "retrieval_count: 3\n"
    "last_retrieved: 2026-10-01\n"
    "token_count: 14\n"
    "---\n"
    "\n"
    "# Retry policy\n"
    "\n"
    "Retry with exponential backoff.\n"
    "\n"
    "## Connections\n"
    "- [[MEM-s]]\n";

const std::string k_secondary =
    "---\n"
    "title: \"Backoff\"\n"
    "created: 2026-01-15\n"
    "tags: [TECHNIQUE]\n"
    "topic: \"net/backoff\"\n"
    "modified: 2026-01-15\n"
    "keywords: [backoff, jitter, timeout]\n"
    "summary: \"Backoff basics\"\n"
    "retrieval_count: 1\n"
    "last_retrieved: 2026-11-01\n"
    "token_count: 13\n"
    "---\n"
    "\n"
    "# Backoff\n"
    "\n"
    "Add jitter to backoff.\n"
    "\n"
    "## Connections\n"
    "- [[MEM-r]]\n";

const std::string k_referrer =
    "---\n"
    "title: \"Rate limits\"\n"
    "created: 2026-06-01\n"
    "topic: \"api\"\n"
    "keywords: [quota]\n"
    "summary: \"r\"\n"
    "retrieval_count: 1\n"
    "last_retrieved: 2026-11-20\n"
    "---\n"
    "\n"
    "# Rate limits\n"
    "\n"
    "See [[MEM-s]] when a quota is hit.\n";

const std::string k_tombstoned =
    "---\n"
    "title: \"Old\"\n"
    "created: 2026-01-01\n"
    "topic: \"api\"\n"
    "keywords: [old]\n"
    "summary: \"t\"\n"
    "status: tombstoned\n"
    "tombstoned_at: 2026-11-28\n"
    "tombstone_reason: \"purge\"\n"
    "---\n"
    "\n"
    "# Old\n"
    "\n"
    "Was [[MEM-s]].\n";

// MEM-p and MEM-s share backoff and jitter (2 of 3 keywords each: 67%); MEM-p has more
// retrievals, so it is the primary. MEM-r links to MEM-s; MEM-t does too but is tombstoned.
void write_merge_vault(Sandbox& sandbox) {
  sandbox.write(".memory/10-Memories/MEM-p.md", k_primary);
  sandbox.write(".memory/10-Memories/MEM-s.md", k_secondary);
  sandbox.write(".memory/10-Memories/MEM-r.md", k_referrer);
  sandbox.write(".memory/10-Memories/MEM-t.md", k_tombstoned);
  // A repository that keeps specs/state.json: the action refreshes it (D8).
  sandbox.write("specs/state.json", "{}\n");
  const auto index = sandbox.vault({"index"});
  INFO(index.err);
  REQUIRE(index.code == 0);
  sandbox.commit_all("merge fixture");
}

json report(const Sandbox& sandbox) {
  const auto result = sandbox.vault({"distill", "--json"});
  INFO(result.err);
  REQUIRE(result.code == 0);
  return json::parse(result.out);
}

// The log metrics a report shows (total_tokens also counts tombstoned files, which the report
// does not list, so callers check it by hand).
void check_metrics(const json& metrics, const json& fresh) {
  CHECK(metrics["total_memories"] == fresh["memories"].size() + fresh["tombstoned"].size());
  CHECK(metrics["health_score"] == fresh["health_score"]);
  CHECK(metrics["purge_candidates"] == fresh["candidates"]["purge"].size());
  CHECK(metrics["merge_candidates"] == fresh["candidates"]["merge"].size());
  CHECK(metrics["compress_candidates"] == fresh["candidates"]["compress"].size());
}

}  // namespace

TEST_CASE("merge --dry-run --json lists pairs with primaries determined and writes nothing",
          "[distill][merge]") {
  Sandbox sandbox;
  gv::test::write_scored_vault(sandbox);
  const auto head = sandbox.git({"rev-parse", "HEAD"}).out;
  const auto result = sandbox.vault({"distill", "--merge", "--dry-run", "--json"});
  INFO(result.err);
  REQUIRE(result.code == 0);
  // tests cluster: alpha {a..e}, beta {a,b,c,x} (2 retrievals), delta {a,b} (oldest).
  const json expected = json::parse(R"({"schema": 1, "sub_mode": "merge", "dry_run": true,
    "pairs": [
      {"cluster": "tests", "primary": "MEM-beta", "secondary": "MEM-delta", "overlap": 1.0,
       "shared_keywords": ["a", "b"]},
      {"cluster": "tests", "primary": "MEM-delta", "secondary": "MEM-alpha", "overlap": 1.0,
       "shared_keywords": ["a", "b"]},
      {"cluster": "tests", "primary": "MEM-beta", "secondary": "MEM-alpha", "overlap": 0.75,
       "shared_keywords": ["a", "b", "c"]}]})");
  CHECK(json::parse(result.out) == expected);
  CHECK(sandbox.git({"status", "--porcelain"}).out.empty());
  CHECK(sandbox.git({"rev-parse", "HEAD"}).out == head);

  const auto text = sandbox.vault({"distill", "--merge", "--dry-run"});
  REQUIRE(text.code == 0);
  CHECK(text.out ==
        "## Merge Candidates (Dry Run)\n\n### Cluster: tests\n\n"
        "| Primary | Secondary | Overlap | Shared Keywords |\n"
        "|---------|-----------|---------|-----------------|\n"
        "| MEM-beta | MEM-delta | 100% | a, b |\n"
        "| MEM-delta | MEM-alpha | 100% | a, b |\n"
        "| MEM-beta | MEM-alpha | 75% | a, b, c |\n\n"
        "3 merge candidate pairs found across 1 cluster.\n"
        "To carry it out: git vault distill --merge (on a terminal it asks which), or name them: "
        "git vault distill --merge --select MEM-beta+MEM-delta (--all takes every one).\n");
  CHECK(sandbox.git({"status", "--porcelain"}).out.empty());

  // The printed command works as printed, off a terminal.
  const auto run = sandbox.sh("git vault distill --merge --select MEM-beta+MEM-delta");
  INFO(run.out << run.err);
  CHECK(run.code == 0);
  CHECK(sandbox.git({"log", "-1", "--format=%s"}).out.starts_with("vault(merge):"));
}

// Each pair's line and details are written when shown, from the pairs kept once
// (core/distill/merge.cpp): what `--dry-run --select` prints of them.
TEST_CASE("merge --dry-run --select describes the selected pairs", "[distill][merge]") {
  Sandbox sandbox;
  gv::test::write_scored_vault(sandbox);
  const auto selected =
      sandbox.vault({"distill", "--merge", "--dry-run", "--select", "MEM-beta+MEM-alpha,1"});
  INFO(selected.err);
  REQUIRE(selected.code == 0);
  CHECK_THAT(selected.out,
             Catch::StartsWith("[DRY RUN] --merge with this --select would act on 2 of 3 "
                               "candidates:\n"));
  CHECK_THAT(selected.out,
             Catch::Contains("  - MEM-beta + MEM-delta (100% overlap, cluster tests): "
                             "\"Beta\" + \"Delta\" | Shared: a, b | Retrievals: 2, "));
  CHECK_THAT(selected.out,
             Catch::Contains("  - MEM-beta + MEM-alpha (75% overlap, cluster tests): "
                             "\"Beta\" + \"Alpha\" | Shared: a, b, c | Retrievals: 2, "));
  CHECK_THAT(selected.out, !Catch::Contains("MEM-delta + MEM-alpha"));
  CHECK_THAT(selected.out, Catch::EndsWith("\nNo changes made.\n"));
}

TEST_CASE("merge --select merges the pair as one commit with minimal edits", "[distill][merge]") {
  Sandbox sandbox;
  write_merge_vault(sandbox);
  sandbox.write("notes.txt", "mine\n");
  REQUIRE(sandbox.git({"add", "notes.txt"}).code == 0);  // the user's own staged change
  const auto parent = sandbox.git({"rev-parse", "HEAD"}).out.substr(0, 40);
  const json before = report(sandbox);

  const auto result = sandbox.vault({"distill", "--merge", "--select", "MEM-p+MEM-s"});
  INFO(result.err);
  REQUIRE(result.code == 0);
  CHECK_THAT(result.out, Catch::Contains("| MEM-p | MEM-s | 67% | 3 + 3 -> 4 |"));
  CHECK_THAT(result.out,
             Catch::Contains(".memory/10-Memories/MEM-r.md: replaced [[MEM-s]] -> [[MEM-p]]"));

  // 27 body words after the merge: token_count 35, refreshed because the file was rewritten.
  CHECK(sandbox.read(".memory/10-Memories/MEM-p.md") ==
        "---\n"
        "title: \"Retry policy\"\n"
        "created: 2026-01-15\n"
        "tags: [PATTERN, TECHNIQUE]\n"
        "topic: \"net/retry\"\n"
        "modified: 2026-11-30\n"
        "keywords: [backoff, jitter, retry, timeout]\n"
        "summary: \"How to retry\"\n"
        "retrieval_count: 4\n"
        "last_retrieved: 2026-11-01\n"
        "token_count: 35\n"
        "---\n"
        "\n"
        "# Retry policy\n"
        "\n"
        "Retry with exponential backoff.\n"
        "\n"
        "## Merged From MEM-s\n"
        "\n"
        "**Original Title**: Backoff\n"
        "**Merged**: 2026-11-30\n"
        "**Overlap Score**: 67%\n"
        "\n"
        "Add jitter to backoff.\n"
        "\n"
        "## Connections\n"
        "- [[MEM-r]]\n");
  std::string tombstoned = k_secondary;
  tombstoned.replace(tombstoned.find("retrieval_count"), 0,
                     "status: tombstoned\ntombstoned_at: 2026-11-30\n"
                     "tombstone_reason: \"merged_into:MEM-p\"\n");
  CHECK(sandbox.read(".memory/10-Memories/MEM-s.md") == tombstoned);
  std::string referrer = k_referrer;
  referrer.replace(referrer.find("[[MEM-s]]"), 9, "[[MEM-p]]");
  CHECK(sandbox.read(".memory/10-Memories/MEM-r.md") == referrer);
  CHECK(sandbox.read(".memory/10-Memories/MEM-t.md") == k_tombstoned);

  const auto message = sandbox.git({"log", "-1", "--format=%B"}).out;
  CHECK_THAT(message, Catch::StartsWith("vault(merge): merge MEM-s into MEM-p\n"));
  CHECK_THAT(message, Catch::Contains("Vault-Action: merge\nVault-Log-Id: distill_"));
  CHECK_THAT(message, Catch::Contains("\nVault-Memories: MEM-p, MEM-r, MEM-s\n"));
  CHECK(sandbox.git({"show", "--name-only", "--format=", "HEAD"}).out ==
        ".memory/10-Memories/MEM-p.md\n.memory/10-Memories/MEM-r.md\n"
        ".memory/10-Memories/MEM-s.md\n.memory/10-Memories/README.md\n"
        ".memory/20-Indices/index.md\n.memory/distill-log.json\n.memory/memory-index.json\n"
        "specs/state.json\n");
  CHECK(sandbox.git({"diff", "--cached", "--name-only"}).out == "notes.txt\n");
  CHECK(sandbox.git({"status", "--porcelain"}).out == "A  notes.txt\n");

  const json log = json::parse(sandbox.read(".memory/distill-log.json"));
  REQUIRE(log["operations"].size() == 1);
  const json& entry = log["operations"][0];
  CHECK(entry["type"] == "merge");
  CHECK(entry["parent_commit"] == parent);
  REQUIRE(entry["affected_memories"].size() == 1);
  const json& item = entry["affected_memories"][0];
  CHECK(item["primary"] == "MEM-p");
  CHECK(item["secondary"] == "MEM-s");
  CHECK(item["overlap_score"].get<double>() == Approx(2.0 / 3));
  CHECK(item["keywords_before"] == json::array({3, 3}));
  CHECK(item["keywords_after"] == 4);
  CHECK(item["keyword_superset_verified"] == true);
  CHECK(item["action"] == "merged");
  CHECK(entry["notes"] ==
        "Merged 1 pair(s) across 1 cluster(s). .memory/10-Memories/MEM-r.md: replaced [[MEM-s]] "
        "-> [[MEM-p]]");
  CHECK(log["summary"]["total_merged"] == 1);
  check_metrics(entry["pre_metrics"], before);
  check_metrics(entry["post_metrics"], report(sandbox));
  // Computed counts (D3), never the frontmatter's: p 11 words (14), s 10 (13), r 10 (13),
  // t 4 (5) before; the merged p has 27 words (35).
  CHECK(entry["pre_metrics"]["total_tokens"] == 14 + 13 + 13 + 5);
  CHECK(entry["post_metrics"]["total_tokens"] == 35 + 13 + 13 + 5);
  CHECK(entry["post_metrics"]["merge_candidates"] == 0);

  const auto check = sandbox.vault({"index", "--check"});
  INFO(check.out << check.err);
  CHECK(check.code == 0);
  CHECK(sandbox.vault({"check"}).code == 0);
  const json index = json::parse(sandbox.read(".memory/memory-index.json"));
  bool found = false;
  for (const json& memory : index["entries"]) {
    if (memory["id"] == "MEM-s") {
      found = true;
      CHECK(memory["status"] == "tombstoned");
    }
  }
  CHECK(found);
}

TEST_CASE("merge --all skips a pair whose member was absorbed earlier in the run",
          "[distill][merge]") {
  Sandbox sandbox;
  gv::test::write_scored_vault(sandbox);
  const auto result = sandbox.vault({"distill", "--merge", "--all"});
  INFO(result.err);
  REQUIRE(result.code == 0);
  CHECK_THAT(result.out,
             Catch::Contains("MEM-delta+MEM-alpha: skipped, MEM-delta was merged into MEM-beta "
                             "earlier in this run"));
  const json log = json::parse(sandbox.read(".memory/distill-log.json"));
  const json& entry = log["operations"].back();
  REQUIRE(entry["affected_memories"].size() == 2);
  CHECK(entry["affected_memories"][0]["secondary"] == "MEM-delta");
  CHECK(entry["affected_memories"][1]["secondary"] == "MEM-alpha");
  CHECK(entry["affected_memories"][1]["primary"] == "MEM-beta");
  // beta {a,b,c,x} + delta {a,b} = 4, then + alpha {a..e} = 6.
  CHECK(entry["affected_memories"][1]["keywords_before"] == json::array({4, 5}));
  CHECK(entry["affected_memories"][1]["keywords_after"] == 6);
  REQUIRE(entry["skipped_pairs"].size() == 1);
  CHECK(entry["skipped_pairs"][0]["primary"] == "MEM-delta");
  CHECK(entry["skipped_pairs"][0]["action"] == "skipped");
  CHECK(log["summary"]["total_merged"] == 2);

  const std::string beta = sandbox.read(".memory/10-Memories/MEM-beta.md");
  CHECK_THAT(beta, Catch::Contains("keywords: [a, b, c, d, e, x]\n"));
  CHECK_THAT(beta, Catch::Contains("\n## Merged From MEM-delta\n"));
  CHECK_THAT(beta, Catch::Contains("\n## Merged From MEM-alpha\n"));
  CHECK(beta.find("## Merged From MEM-delta") < beta.find("## Merged From MEM-alpha"));
  CHECK_THAT(sandbox.read(".memory/10-Memories/MEM-alpha.md"),
             Catch::Contains("tombstone_reason: \"merged_into:MEM-beta\"\n"));
  CHECK_THAT(sandbox.read(".memory/10-Memories/MEM-delta.md"),
             Catch::Contains("tombstone_reason: \"merged_into:MEM-beta\"\n"));
  const json after = report(sandbox);
  CHECK(after["memories"].size() == 2);  // beta and gamma
  CHECK(after["candidates"]["merge"].empty());
  CHECK(sandbox.vault({"index", "--check"}).code == 0);
  CHECK(sandbox.vault({"check"}).code == 0);
}

TEST_CASE("merge edge cases print their messages and change nothing", "[distill][merge]") {
  Sandbox sandbox;
  SECTION("fewer than two active memories") {
    sandbox.write(".memory/10-Memories/MEM-p.md", k_primary);
    sandbox.write(".memory/10-Memories/MEM-t.md", k_tombstoned);
    sandbox.commit_all();
    const auto result = sandbox.vault({"distill", "--merge", "--all"});
    CHECK(result.code == 0);
    CHECK(result.out == "Merge requires at least 2 active memories. Vault has 1.\n");
  }
  SECTION("no pair overlaps enough") {
    sandbox.write(".memory/10-Memories/MEM-p.md", k_primary);
    sandbox.write(".memory/10-Memories/MEM-r.md", k_referrer);
    sandbox.commit_all();
    const auto result = sandbox.vault({"distill", "--merge", "--all"});
    CHECK(result.code == 0);
    CHECK(result.out == "No merge candidates found (no pairs with >= 60% keyword overlap).\n");
    const auto dry = sandbox.vault({"distill", "--merge", "--dry-run"});
    CHECK(dry.out == "No merge candidates found (no pairs with >= 60% keyword overlap).\n");
  }
  SECTION("an empty selection") {
    write_merge_vault(sandbox);
    const auto result = sandbox.vault({"distill", "--merge", "--select", " "});
    CHECK(result.code == 0);
    CHECK(result.out == "No pairs selected. No merges performed.\n");
  }
  SECTION("no selection without a terminal") {
    write_merge_vault(sandbox);
    const auto result = sandbox.vault({"distill", "--merge"});
    CHECK(result.code == 1);
    CHECK_THAT(result.err, Catch::Contains("--merge needs a selection"));
    // It names each candidate's key, since the dry run's table does not, and --select takes it.
    CHECK_THAT(result.err, Catch::Contains("The 1 candidate, with the keys --select takes:\n"
                                           "   1. MEM-p+MEM-s\n"));
    const auto chosen =
        sandbox.vault({"distill", "--merge", "--dry-run", "--select", "MEM-p+MEM-s"});
    CHECK(chosen.code == 0);
    CHECK_THAT(chosen.out, Catch::Contains("MEM-p + MEM-s"));
  }
  const auto head = sandbox.git({"rev-parse", "HEAD"}).out;
  CHECK(sandbox.git({"status", "--porcelain"}).out.empty());
  CHECK(sandbox.git({"rev-parse", "HEAD"}).out == head);
  CHECK_FALSE(sandbox.exists(".memory/distill-log.json"));
}

TEST_CASE("merge refuses a vault with uncommitted changes", "[distill][merge]") {
  Sandbox sandbox;
  write_merge_vault(sandbox);
  sandbox.write(".memory/10-Memories/MEM-r.md", k_referrer + "\nedited\n");
  const auto head = sandbox.git({"rev-parse", "HEAD"}).out;
  const auto result = sandbox.vault({"distill", "--merge", "--all"});
  CHECK(result.code == 128);
  CHECK_THAT(result.err, Catch::Contains("MEM-r.md"));
  CHECK(sandbox.git({"rev-parse", "HEAD"}).out == head);
  CHECK(sandbox.read(".memory/10-Memories/MEM-p.md") == k_primary);
  CHECK(sandbox.read(".memory/10-Memories/MEM-s.md") == k_secondary);
  CHECK(sandbox.git({"status", "--porcelain"}).out == " M .memory/10-Memories/MEM-r.md\n");
}

TEST_CASE("a merge dry run lists --limit pairs and counts the rest; --json keeps every pair",
          "[distill][merge]") {
  Sandbox sandbox;
  gv::test::write_scored_vault(sandbox);
  const auto cut = sandbox.vault({"--limit", "1", "distill", "--merge", "--dry-run"});
  REQUIRE(cut.code == 0);
  CHECK_THAT(cut.out, Catch::Contains("| MEM-beta | MEM-delta | 100% | a, b |"));
  CHECK_THAT(cut.out, !Catch::Contains("| MEM-delta | MEM-alpha |"));
  CHECK_THAT(cut.out, Catch::Contains("... and 2 more (`--limit 0` lists them all"));
  CHECK_THAT(cut.out, Catch::Contains("3 merge candidate pairs found across 1 cluster."));

  const auto all = sandbox.vault({"--limit", "0", "distill", "--merge", "--dry-run"});
  CHECK_THAT(all.out, Catch::Contains("| MEM-delta | MEM-alpha |"));
  CHECK_THAT(all.out, !Catch::Contains("... and"));
  const auto document =
      json::parse(sandbox.vault({"--limit", "1", "distill", "--merge", "--dry-run", "--json"}).out);
  CHECK(document["pairs"].size() == 3);
}

// A vault whose keywords are all alike pairs every memory with every other: 1,001 memories with
// one keyword set make 500,500 pairs, more than a run lists (k_most_merge_pairs, 500,000).
TEST_CASE("merge refuses a vault with more pairs than it lists, and changes nothing",
          "[distill][merge]") {
  Sandbox sandbox;
  for (int i = 0; i < 1001; ++i) {
    sandbox.write(fmt::format(".memory/10-Memories/MEM-n{:04}.md", i),
                  fmt::format("---\ntitle: \"Note {}\"\ncreated: 2026-03-01\ntopic: \"net/x\"\n"
                              "keywords: [retry, backoff]\nsummary: \"s\"\n---\n\n# Note {}\n",
                              i, i));
  }
  REQUIRE(sandbox.vault({"index"}).code == 0);
  sandbox.commit_all("alike");
  const auto head = sandbox.git({"rev-parse", "HEAD"}).out;
  for (const std::vector<std::string>& args :
       {std::vector<std::string>{"distill", "--merge", "--dry-run"},
        std::vector<std::string>{"distill", "--merge", "--all"}}) {
    const auto result = sandbox.vault(args);
    CHECK(result.code != 0);
    CHECK_THAT(result.err, Catch::Contains("merge: more than 500000 pairs of memories share at "
                                           "least 60% of their keywords (500001 of them among "
                                           "the 1001 memories of cluster `net`)"));
    CHECK_THAT(result.err, Catch::Contains("Give the memories more specific keywords"));
    CHECK(sandbox.git({"status", "--porcelain"}).out.empty());
    CHECK(sandbox.git({"rev-parse", "HEAD"}).out == head);
  }
}

}  // namespace distill_merge_test
