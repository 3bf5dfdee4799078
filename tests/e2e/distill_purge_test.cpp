#include <algorithm>
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "tests/e2e/sandbox.hpp"
#include "tests/e2e/vault_fixture.hpp"

namespace distill_purge_test {

using gv::test::memory_file;
using gv::test::Sandbox;
using nlohmann::json;

namespace {

std::string head_of(const Sandbox& sandbox) {
  return sandbox.git({"rev-parse", "HEAD"}).out.substr(0, 40);
}

// Today is 2026-11-30. Every memory has its own keywords (duplicate score 0) and none was ever
// retrieved, so composite = 0.3 * staleness + 0.25 * zero_retrieval:
//   MEM-cfg      CONFIG     created 2026-01-01: 333 days, TTL 180 -> past by 153, composite 0.55
//   MEM-tech     TECHNIQUE  created 2026-01-01: 333 days, TTL 270 -> past by 63,  composite 0.55
//   MEM-insight  INSIGHT    created 2025-06-01: no TTL,                            composite 0.55
//   MEM-young    INSIGHT    created 2026-10-01: 60 days, staleness 2/3,            composite 0.45
//   MEM-email    CONFIG     topic email/preferences/work, 2025-01-01: exempt, never a candidate
//   MEM-fresh    PATTERN    created 2026-11-20: 10 days, staleness 1/9, zero 0 -> not a candidate
void write_ttl_vault(Sandbox& sandbox) {
  sandbox.write(".memory/10-Memories/MEM-cfg.md",
                memory_file("Cfg", "2026-01-01", "k1", 0, "null", "category: CONFIG\n"));
  sandbox.write(".memory/10-Memories/MEM-tech.md",
                memory_file("Tech", "2026-01-01", "k2", 0, "null", "category: TECHNIQUE\n"));
  sandbox.write(".memory/10-Memories/MEM-insight.md",
                memory_file("Insight", "2025-06-01", "k3", 0, "null", "category: INSIGHT\n"));
  sandbox.write(".memory/10-Memories/MEM-young.md",
                memory_file("Young", "2026-10-01", "k4", 0, "null", "category: INSIGHT\n"));
  sandbox.write(".memory/10-Memories/MEM-email.md",
                memory_file("Email", "2025-01-01", "k5", 0, "null", "category: CONFIG\n", 10,
                            "email/preferences/work"));
  sandbox.write(".memory/10-Memories/MEM-fresh.md",
                memory_file("Fresh", "2026-11-20", "k6", 0, "null"));
  REQUIRE(sandbox.vault({"index"}).code == 0);
  sandbox.commit_all("ttl fixture");
}

// The shared five-memory vault with MEM-alpha linking to MEM-delta, and tombstoned MEM-eps
// linking to it too (ignored by the link scan: it is tombstoned itself).
void write_linked_vault(Sandbox& sandbox) {
  gv::test::write_scored_vault(sandbox);
  sandbox.write(".memory/10-Memories/MEM-alpha.md",
                memory_file("Alpha", "2026-11-20", "a, b, c, d, e", 0, "null") +
                    "\n## Connections\n- [[MEM-delta]]\n");
  sandbox.write(".memory/10-Memories/MEM-eps.md",
                memory_file("Eps", "2026-02-01", "q", 0, "null",
                            "status: tombstoned\ntombstoned_at: 2026-11-25\n"
                            "tombstone_reason: \"purge\"\n") +
                    "\n## Connections\n- [[MEM-delta]]\n");
  REQUIRE(sandbox.vault({"index"}).code == 0);
  sandbox.commit_all("links");
}

}  // namespace

TEST_CASE("purge --dry-run --json applies the OR rule, exempts email preferences and ranks by TTL",
          "[distill][purge]") {
  Sandbox sandbox;
  write_ttl_vault(sandbox);
  const std::string head = head_of(sandbox);
  const auto result = sandbox.vault({"distill", "--purge", "--dry-run", "--json"});
  INFO(result.err);
  REQUIRE(result.code == 0);
  const json out = json::parse(result.out);
  CHECK(out["schema"] == 1);
  CHECK(out["sub_mode"] == "purge");
  CHECK(out["dry_run"] == true);
  const json& candidates = out["candidates"];
  REQUIRE(candidates.size() == 4);
  const char* ids[] = {"MEM-cfg", "MEM-tech", "MEM-insight", "MEM-young"};
  const char* categories[] = {"CONFIG", "TECHNIQUE", "INSIGHT", "INSIGHT"};
  const bool past[] = {true, true, false, false};
  const int excess[] = {153, 63, 0, 0};
  const double composite[] = {0.55, 0.55, 0.55, 0.3 * 60 / 90 + 0.25};
  for (std::size_t i = 0; i < 4; ++i) {
    INFO(i);
    CHECK(candidates[i]["id"] == ids[i]);
    CHECK(candidates[i]["category"] == categories[i]);
    CHECK(candidates[i]["past_ttl"] == past[i]);
    CHECK(candidates[i]["ttl_excess_days"] == excess[i]);
    CHECK(candidates[i]["composite"].get<double>() == Approx(composite[i]));
    // Nothing here ever recorded a retrieval: "never retrieved" is flagged as no evidence.
    CHECK(candidates[i]["never_retrieved"] == true);
    CHECK(candidates[i]["retrieval_evidence"] == false);
    CHECK(candidates[i].size() == 7);
  }
  CHECK(sandbox.git({"status", "--porcelain"}).out.empty());
  CHECK(head_of(sandbox) == head);
}

TEST_CASE("purge --dry-run text shows the candidates with score and category", "[distill][purge]") {
  Sandbox sandbox;
  gv::test::write_scored_vault(sandbox);
  const auto result = sandbox.vault({"distill", "--purge", "--dry-run"});
  REQUIRE(result.code == 0);
  // MEM-gamma is only 0.55 (not a report purge candidate) but never retrieved: the OR rule.
  CHECK(result.out ==
        "[DRY RUN] Would tombstone 2 memories:\n"
        "  - MEM-delta (score: 0.80, category: PATTERN): never retrieved, staleness 1.00 > 0.80\n"
        "  - MEM-gamma (score: 0.55, category: PATTERN): never retrieved, staleness 1.00 > 0.80\n"
        "\nNo changes made.\n");
  CHECK(sandbox.git({"status", "--porcelain"}).out.empty());
}

TEST_CASE("purge inserts the tombstone fields right after summary and changes no other byte",
          "[distill][purge]") {
  Sandbox sandbox;
  gv::test::write_scored_vault(sandbox);
  const std::string before = sandbox.read(".memory/10-Memories/MEM-delta.md");
  const auto result = sandbox.vault({"distill", "--purge", "--select", "MEM-delta"});
  INFO(result.err);
  REQUIRE(result.code == 0);
  std::string expected = before;
  const std::string summary = "summary: \"Delta summary\"\n";
  expected.insert(expected.find(summary) + summary.size(),
                  "status: tombstoned\ntombstoned_at: 2026-11-30\ntombstone_reason: \"purge\"\n");
  CHECK(sandbox.read(".memory/10-Memories/MEM-delta.md") == expected);
  CHECK(sandbox.git({"log", "-1", "--format=%s"}).out == "vault(purge): tombstone MEM-delta\n");
  CHECK(result.out == "Link-scan: No stale references found.\n");
}

TEST_CASE("purge keeps token_count after the inserted fields", "[distill][purge]") {
  Sandbox sandbox;
  gv::test::write_scored_vault(sandbox);
  // `# Gamma` + 10 words = 12 words -> 15 tokens: already right, so D3 leaves it alone.
  std::string gamma = memory_file("Gamma", "2026-05-01", "z", 0, "null", {}, 10, "python/x");
  const std::string summary = "summary: \"Gamma summary\"\n";
  gamma.insert(gamma.find(summary) + summary.size(), "token_count: 15\n");
  sandbox.write(".memory/10-Memories/MEM-gamma.md", gamma);
  REQUIRE(sandbox.vault({"index"}).code == 0);
  sandbox.commit_all("token_count");
  REQUIRE(sandbox.vault({"distill", "--purge", "--select", "MEM-gamma"}).code == 0);
  std::string expected = gamma;
  expected.insert(expected.find(summary) + summary.size(),
                  "status: tombstoned\ntombstoned_at: 2026-11-30\ntombstone_reason: \"purge\"\n");
  CHECK(sandbox.read(".memory/10-Memories/MEM-gamma.md") == expected);
}

TEST_CASE("purge prints link-scan warnings for active memories and logs them", "[distill][purge]") {
  Sandbox sandbox;
  write_linked_vault(sandbox);
  const auto result = sandbox.vault({"distill", "--purge", "--select", "MEM-delta"});
  INFO(result.err);
  REQUIRE(result.code == 0);
  CHECK(result.out ==
        "## Link-Scan Warnings\n\n"
        "The following active memories reference tombstoned memories:\n"
        "- .memory/10-Memories/MEM-alpha.md -> [[MEM-delta]] (tombstoned)\n"
        "\nThese references will become stale. Consider manually updating the Connections "
        "section\nin the above files to remove or replace the references.\n");
  const json log = json::parse(sandbox.read(".memory/distill-log.json"));
  REQUIRE(log["operations"].size() == 1);
  CHECK(log["operations"][0]["notes"] ==
        "Tombstoned 1 memory. Link-scan warnings: MEM-alpha.md->MEM-delta");
  CHECK(log["operations"][0]["affected_memories"] == json::array({"MEM-delta"}));
  CHECK(log["summary"]["total_purged"] == 1);
  // The referencing file is reported, never edited.
  CHECK(
      sandbox.git({"show", "--name-only", "--format=", "HEAD", "--", ".memory/10-Memories/"}).out ==
      ".memory/10-Memories/MEM-delta.md\n.memory/10-Memories/README.md\n");
}

TEST_CASE("purge's link-scan list is cut at --limit, and the log names every reference",
          "[distill][purge]") {
  Sandbox sandbox;
  write_linked_vault(sandbox);
  // A second active memory linking to another purge candidate.
  sandbox.write(".memory/10-Memories/MEM-zeta.md",
                memory_file("Zeta", "2026-11-20", "z1, z2", 0, "null") +
                    "\n## Connections\n- [[MEM-gamma]]\n");
  REQUIRE(sandbox.vault({"index"}).code == 0);
  sandbox.commit_all("another link");
  const auto result =
      sandbox.vault({"--limit", "1", "distill", "--purge", "--select", "MEM-delta,MEM-gamma"});
  INFO(result.err);
  REQUIRE(result.code == 0);
  CHECK(result.out ==
        "## Link-Scan Warnings\n\n"
        "The following active memories reference tombstoned memories:\n"
        "- .memory/10-Memories/MEM-alpha.md -> [[MEM-delta]] (tombstoned)\n"
        "... and 1 more (`--limit 0` lists them all; the log entry's notes name every one)\n"
        "\nThese references will become stale. Consider manually updating the Connections "
        "section\nin the above files to remove or replace the references.\n");
  const json log = json::parse(sandbox.read(".memory/distill-log.json"));
  CHECK(log["operations"][0]["notes"] ==
        "Tombstoned 2 memories. Link-scan warnings: MEM-alpha.md->MEM-delta, "
        "MEM-zeta.md->MEM-gamma");
}

TEST_CASE("a tombstoned memory is not scored by later runs", "[distill][purge]") {
  Sandbox sandbox;
  gv::test::write_scored_vault(sandbox);
  REQUIRE(sandbox.vault({"distill", "--purge", "--select", "MEM-delta"}).code == 0);
  const json report = json::parse(sandbox.vault({"distill", "--json"}).out);
  for (const json& memory : report["memories"]) {
    CHECK(memory["id"] != "MEM-delta");
  }
  CHECK(report["memories"].size() == 3);
  REQUIRE(report["tombstoned"].size() == 2);
  CHECK(report["tombstoned"][0]["id"] == "MEM-delta");
  CHECK(report["tombstoned"][0]["tombstoned_at"] == "2026-11-30");
  CHECK(report["tombstoned"][0]["days_until_gc"] == 7);
  CHECK(report["candidates"]["purge"].empty());
  // A second purge no longer offers it.
  const json again = json::parse(sandbox.vault({"distill", "--purge", "--dry-run", "--json"}).out);
  REQUIRE(again["candidates"].size() == 1);
  CHECK(again["candidates"][0]["id"] == "MEM-gamma");
}

TEST_CASE("purge commit holds the edits, indexes, log and state, with the trailers",
          "[distill][purge]") {
  Sandbox sandbox;
  gv::test::write_scored_vault(sandbox);
  const std::string parent = head_of(sandbox);
  const auto pre_report = json::parse(sandbox.vault({"distill", "--json"}).out);
  REQUIRE(sandbox.vault({"distill", "--purge", "--all"}).code == 0);
  CHECK(sandbox.git({"show", "--name-only", "--format=", "HEAD"}).out ==
        ".memory/10-Memories/MEM-delta.md\n.memory/10-Memories/MEM-gamma.md\n"
        ".memory/10-Memories/README.md\n.memory/20-Indices/index.md\n"
        ".memory/distill-log.json\n.memory/memory-index.json\nspecs/state.json\n");
  CHECK(sandbox.git({"log", "-1", "--format=%B"}).out ==
        "vault(purge): tombstone 2 memories\n\nVault-Action: purge\n"
        "Vault-Log-Id: distill_1796040000\nVault-Memories: MEM-delta, MEM-gamma\n\n");
  const json entry = json::parse(sandbox.read(".memory/distill-log.json"))["operations"][0];
  CHECK(entry["parent_commit"] == parent);
  CHECK(entry["pre_metrics"]["health_score"] == pre_report["health_score"]);
  CHECK(entry["pre_metrics"]["purge_candidates"] == pre_report["candidates"]["purge"].size());
  const auto post_report = json::parse(sandbox.vault({"distill", "--json"}).out);
  CHECK(entry["post_metrics"]["health_score"] == post_report["health_score"]);
  CHECK(entry["post_metrics"]["purge_candidates"] == post_report["candidates"]["purge"].size());
  CHECK(entry["post_metrics"]["merge_candidates"] == post_report["candidates"]["merge"].size());
  CHECK(entry["post_metrics"]["total_memories"] == 5);  // files stay on disk
  CHECK(entry["pre_metrics"]["total_tokens"] == entry["post_metrics"]["total_tokens"]);
  CHECK(sandbox.vault({"index", "--check"}).code == 0);
  CHECK(sandbox.git({"status", "--porcelain"}).out.empty());
}

TEST_CASE("purge without a selection and without a terminal changes nothing", "[distill][purge]") {
  Sandbox sandbox;
  gv::test::write_scored_vault(sandbox);
  const std::string head = head_of(sandbox);
  const auto result = sandbox.vault({"distill", "--purge"});
  CHECK(result.code == 1);
  CHECK_THAT(result.err, Catch::Contains("nothing was changed"));
  CHECK_THAT(result.err, Catch::Contains("--select"));
  CHECK(head_of(sandbox) == head);
  CHECK(sandbox.git({"status", "--porcelain"}).out.empty());
}

TEST_CASE("purge --select by number picks the candidate at that place", "[distill][purge]") {
  Sandbox sandbox;
  gv::test::write_scored_vault(sandbox);
  REQUIRE(sandbox.vault({"distill", "--purge", "--select", "2"}).code == 0);  // MEM-gamma
  CHECK(sandbox.git({"log", "-1", "--format=%s"}).out == "vault(purge): tombstone MEM-gamma\n");
  CHECK_THAT(sandbox.read(".memory/10-Memories/MEM-gamma.md"),
             Catch::Contains("status: tombstoned\n"));
  CHECK_THAT(sandbox.read(".memory/10-Memories/MEM-delta.md"), !Catch::Contains("status:"));
}

TEST_CASE("purge --select names outside the candidates are a usage error", "[distill][purge]") {
  Sandbox sandbox;
  gv::test::write_scored_vault(sandbox);
  const std::string head = head_of(sandbox);
  for (const char* select : {"MEM-alpha", "MEM-nope", "3", "MEM-delta,,x"}) {
    INFO(select);
    const auto result = sandbox.vault({"distill", "--purge", "--select", select});
    CHECK(result.code == 129);
    CHECK(head_of(sandbox) == head);
    CHECK(sandbox.git({"status", "--porcelain"}).out.empty());
  }
}

TEST_CASE("purge with no candidates says so and changes nothing", "[distill][purge]") {
  Sandbox sandbox;
  sandbox.write(".memory/10-Memories/MEM-fresh.md",
                memory_file("Fresh", "2026-11-20", "k", 0, "null"));
  REQUIRE(sandbox.vault({"index"}).code == 0);
  sandbox.commit_all("fresh");
  const std::string head = head_of(sandbox);
  const auto result = sandbox.vault({"distill", "--purge", "--all"});
  CHECK(result.code == 0);
  CHECK(result.out ==
        "No purge candidates found. All memories are healthy or already tombstoned.\n");
  CHECK(head_of(sandbox) == head);

  // Naming a memory or a number to purge when there is nothing to purge fails, as it does when
  // there are candidates but not that one; `a` still selects the (empty) whole.
  for (const std::vector<std::string>& select : {std::vector<std::string>{"--select", "MEM-fresh"},
                                                 {"--select", "1"},
                                                 {"--dry-run", "--select", "MEM-fresh"}}) {
    std::vector<std::string> args{"distill", "--purge"};
    args.insert(args.end(), select.begin(), select.end());
    const auto named = sandbox.vault(args);
    INFO(select.back());
    CHECK(named.code == 129);
    CHECK(named.err ==
          "No purge candidates found. All memories are healthy or already "
          "tombstoned.\ngit-vault: error: --select: `" +
              select.back() + "` is not a candidate: there are none\n");
    CHECK(head_of(sandbox) == head);
  }
  CHECK(sandbox.vault({"distill", "--purge", "--select", "a"}).code == 0);
}

TEST_CASE("purge --dry-run with --select shows only the selected candidates",
          "[distill][purge][conventions]") {
  Sandbox sandbox;
  gv::test::write_scored_vault(sandbox);
  const auto dry = sandbox.vault({"distill", "--purge", "--dry-run", "--select", "MEM-gamma"});
  INFO(dry.err);
  REQUIRE(dry.code == 0);
  CHECK_THAT(dry.out, Catch::StartsWith("[DRY RUN] --purge with this --select would act on 1 of 2 "
                                        "candidates:\n  - MEM-gamma: Score: 0.55"));
  CHECK_THAT(dry.out, !Catch::Contains("MEM-delta"));
  const auto document = nlohmann::json::parse(
      sandbox.vault({"--json", "distill", "--purge", "--dry-run", "--select", "MEM-gamma"}).out);
  REQUIRE(document["candidates"].size() == 1);
  CHECK(document["candidates"][0]["id"] == "MEM-gamma");
  CHECK(sandbox.git({"status", "--porcelain"}).out.empty());
}

TEST_CASE("purge --allow-dirty commits an index of what it commits", "[distill][purge]") {
  Sandbox sandbox;
  write_ttl_vault(sandbox);
  const std::string edited = ".memory/10-Memories/MEM-fresh.md";
  REQUIRE(sandbox.exists(edited));
  const std::string edit = sandbox.read(edited) + "\nA line the user is still writing.\n";
  sandbox.write(edited, edit);
  const auto purge = sandbox.vault({"distill", "--purge", "--all", "--allow-dirty"});
  INFO(purge.err);
  REQUIRE(purge.code == 0);
  CHECK_THAT(purge.err,
             Catch::Contains("uncommitted changes stay out of the commit, as they are: " + edited));
  const auto range = sandbox.vault({"check", "--range", "HEAD~1..HEAD"});
  INFO(range.out + range.err);
  CHECK(range.code == 0);
  CHECK(sandbox.read(edited) == edit);
  CHECK(sandbox.git({"status", "--porcelain"}).out == " M " + edited + "\n");
}

TEST_CASE("a purge of many memories folds its Vault-Memories trailer, and review reads it whole",
          "[distill][purge][review]") {
  Sandbox sandbox;
  std::vector<std::string> ids;
  for (int i = 0; i < 12; ++i) {
    const std::string id = "MEM-config-stale-setting-number-" + std::to_string(i);
    ids.push_back(id);
    sandbox.write(".memory/10-Memories/" + id + ".md",
                  memory_file("Stale " + std::to_string(i), "2026-01-01", "k" + std::to_string(i),
                              0, "null", "category: CONFIG\n"));
  }
  REQUIRE(sandbox.vault({"index"}).code == 0);
  sandbox.commit_all("stale settings");
  const auto purge = sandbox.vault({"distill", "--purge", "--all"});
  INFO(purge.err);
  REQUIRE(purge.code == 0);

  // Every line of the message fits 72 columns: the ids continue on lines that begin with a space.
  const std::string message = sandbox.git({"log", "-1", "--format=%B"}).out;
  std::size_t start = 0;
  int continued = 0;
  for (std::size_t end = message.find('\n'); end != std::string::npos;
       start = end + 1, end = message.find('\n', start)) {
    CHECK(end - start <= 72);
    continued += message[start] == ' ' ? 1 : 0;
  }
  CHECK(continued >= 5);
  std::sort(ids.begin(), ids.end());
  const json review = json::parse(sandbox.vault({"--json", "review", "HEAD~1..HEAD"}).out);
  REQUIRE(review["maintenance"].size() == 1);
  std::vector<std::string> listed = review["maintenance"][0]["memories"];
  std::sort(listed.begin(), listed.end());
  CHECK(listed == ids);
}

}  // namespace distill_purge_test
