#include <fmt/format.h>

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "tests/e2e/sandbox.hpp"
#include "tests/e2e/vault_fixture.hpp"

namespace distill_compress_test {

using gv::test::Sandbox;
using nlohmann::json;

namespace {

// The main content of MEM-big: one sentence naming both keywords, then 140 five-word filler
// sentences in lines of ten. With `# Big cache` (3) and Connections (4) the body has 712 words:
// token_count 925.
std::string big_main() {
  std::string text = "Use redis as the cache.\n";
  for (int i = 0; i < 140; ++i) {
    text += fmt::format("Filler sentence number {} here.{}", i, i % 10 == 9 ? "\n" : " ");
  }
  return text;
}

std::string big_memory() {
  return "---\n"
         "title: \"Big cache\"\n"
         "created: 2026-09-01\n"
         "topic: \"perf/cache\"\n"
         "modified: 2026-09-01\n"
         "keywords: [cache, redis]\n"
         "summary: \"How we cache\"\n"
         "retrieval_count: 2\n"
         "last_retrieved: 2026-11-01\n"
         "token_count: 925\n"
         "---\n"
         "\n"
         "# Big cache\n"
         "\n" +
         big_main() +
         "\n"
         "## Connections\n"
         "- [[MEM-small]]\n";
}

const std::string k_small =
    "---\ntitle: \"Small\"\ncreated: 2026-10-01\ntopic: \"perf\"\nkeywords: [small]\n"
    "summary: \"s\"\nretrieval_count: 1\nlast_retrieved: 2026-11-20\n---\n\n# Small\n\nTiny.\n";

void write_compress_vault(Sandbox& sandbox) {
  sandbox.write(".memory/10-Memories/MEM-big.md", big_memory());
  sandbox.write(".memory/10-Memories/MEM-small.md", k_small);
  // A repository that keeps specs/state.json: the action refreshes it (D8).
  sandbox.write("specs/state.json", "{}\n");
  const auto index = sandbox.vault({"index"});
  INFO(index.err);
  REQUIRE(index.code == 0);
  sandbox.commit_all("compress fixture");
}

json report(const Sandbox& sandbox) {
  const auto result = sandbox.vault({"distill", "--json"});
  INFO(result.err);
  REQUIRE(result.code == 0);
  return json::parse(result.out);
}

json memory_of(const json& report, const std::string& id) {
  for (const json& memory : report["memories"]) {
    if (memory["id"] == id) {
      return memory;
    }
  }
  FAIL("no memory " << id);
  return {};
}

void check_metrics(const json& metrics, const json& fresh) {
  CHECK(metrics["total_memories"] == fresh["memories"].size() + fresh["tombstoned"].size());
  CHECK(metrics["health_score"] == fresh["health_score"]);
  CHECK(metrics["purge_candidates"] == fresh["candidates"]["purge"].size());
  CHECK(metrics["merge_candidates"] == fresh["candidates"]["merge"].size());
  CHECK(metrics["compress_candidates"] == fresh["candidates"]["compress"].size());
  std::int64_t tokens = 0;
  for (const json& memory : fresh["memories"]) {
    tokens += memory["token_count"].get<std::int64_t>();
  }
  CHECK(metrics["total_tokens"] == tokens);  // these vaults have no tombstoned memories
}

}  // namespace

TEST_CASE("compress --dry-run --json lists oversized memories and writes nothing",
          "[distill][compress]") {
  Sandbox sandbox;
  gv::test::write_scored_vault(sandbox);
  const auto head = sandbox.git({"rev-parse", "HEAD"}).out;
  const auto result = sandbox.vault({"distill", "--compress", "--dry-run", "--json"});
  INFO(result.err);
  REQUIRE(result.code == 0);
  const json out = json::parse(result.out);
  CHECK(out["schema"] == 1);
  CHECK(out["sub_mode"] == "compress");
  CHECK(out["dry_run"] == true);
  REQUIRE(out["candidates"].size() == 1);
  const json& candidate = out["candidates"][0];
  CHECK(candidate.size() == 3);
  CHECK(candidate["id"] == "MEM-beta");
  CHECK(candidate["token_count"] == 910);
  CHECK(candidate["size_penalty"].get<double>() == Approx(310.0 / 600));

  const auto text = sandbox.vault({"distill", "--compress", "--dry-run"});
  CHECK(text.out ==
        "## Compress Candidates (Dry Run)\n\n"
        "| Memory | Tokens | Size Penalty | Topic | Est. Compressed |\n"
        "|--------|--------|-------------|-------|-----------------|\n"
        "| MEM-beta | 910 | 0.52 | tests/e2e | ~364 |\n\n"
        "1 compress candidate found.\n"
        "To carry it out: git vault distill --compress (on a terminal it asks which), or name "
        "them: git vault distill --compress --select MEM-beta (--all takes every one).\n");
  CHECK(sandbox.git({"status", "--porcelain"}).out.empty());
  CHECK(sandbox.git({"rev-parse", "HEAD"}).out == head);

  // The printed command works as printed, off a terminal.
  const auto run = sandbox.sh("git vault distill --compress --select MEM-beta");
  INFO(run.out << run.err);
  CHECK(run.code == 0);
  CHECK(sandbox.git({"log", "-1", "--format=%s"}).out == "vault(compress): compress MEM-beta\n");
}

TEST_CASE("compress with an external summariser writes the compressed template as one commit",
          "[distill][compress]") {
  Sandbox sandbox;
  write_compress_vault(sandbox);
  REQUIRE(sandbox
              .git({"config", "vault.summarizer",
                    "test \"$GIT_VAULT_MEMORY_ID\" = MEM-big && grep -q 'Filler sentence "
                    "number 139' && printf '%s\\n' '- Use a cache.'"})
              .code == 0);
  sandbox.write("notes.txt", "mine\n");
  REQUIRE(sandbox.git({"add", "notes.txt"}).code == 0);
  const auto parent = sandbox.git({"rev-parse", "HEAD"}).out.substr(0, 40);
  const json before = report(sandbox);

  const auto result = sandbox.vault({"distill", "--compress", "--select", "MEM-big"});
  INFO(result.err);
  REQUIRE(result.code == 0);
  CHECK_THAT(result.out, Catch::Contains("Total tokens saved: 909 (main content; each file keeps "
                                         "its previous text under `## History`"));

  // After: `# Big cache` 3 + `- Use a cache.` 4 + the keyword line 2 + Connections 4 = 13
  // words, token_count 16; the History section does not count (D3).
  std::string main = big_main();
  main.pop_back();  // the entry ends where the old main content's text did
  CHECK(sandbox.read(".memory/10-Memories/MEM-big.md") ==
        "---\n"
        "title: \"Big cache\"\n"
        "created: 2026-09-01\n"
        "topic: \"perf/cache\"\n"
        "modified: 2026-11-30\n"
        "keywords: [cache, redis]\n"
        "summary: \"How we cache\"\n"
        "retrieval_count: 2\n"
        "last_retrieved: 2026-11-01\n"
        "token_count: 16\n"
        "---\n"
        "\n"
        "# Big cache\n"
        "\n"
        "- Use a cache.\n"
        "\n"
        "**Keywords**: redis\n"
        "\n"
        "## History\n"
        "\n"
        "### Pre-Compression (2026-11-30)\n"
        "\n" +
            main +
            "\n"
            "\n"
            "## Connections\n"
            "- [[MEM-small]]\n");
  CHECK(sandbox.read(".memory/10-Memories/MEM-small.md") == k_small);

  const auto message = sandbox.git({"log", "-1", "--format=%B"}).out;
  CHECK_THAT(message, Catch::StartsWith("vault(compress): compress MEM-big\n"));
  CHECK_THAT(message, Catch::Contains("Vault-Action: compress\nVault-Log-Id: distill_"));
  CHECK_THAT(message, Catch::Contains("\nVault-Memories: MEM-big\n"));
  const auto files = sandbox.git({"show", "--name-only", "--format=", "HEAD"}).out;
  CHECK_THAT(files, Catch::StartsWith(".memory/10-Memories/MEM-big.md\n"));
  CHECK_THAT(files, Catch::Contains(".memory/distill-log.json\n.memory/memory-index.json\n"));
  CHECK_THAT(files, Catch::EndsWith("specs/state.json\n"));
  CHECK(files.find("MEM-small") == std::string::npos);
  CHECK(sandbox.git({"status", "--porcelain"}).out == "A  notes.txt\n");

  const json log = json::parse(sandbox.read(".memory/distill-log.json"));
  const json& entry = log["operations"][0];
  CHECK(entry["type"] == "compress");
  CHECK(entry["parent_commit"] == parent);
  CHECK(entry["summarizer"] == "external");
  REQUIRE(entry["affected_memories"].size() == 1);
  const json& item = entry["affected_memories"][0];
  CHECK(item["id"] == "MEM-big");
  CHECK(item["tokens_before"] == 925);
  CHECK(item["tokens_after"] == 16);
  CHECK(item["compression_ratio"].get<double>() == Approx(16.0 / 925));
  CHECK(item["keywords_preserved"] == false);
  CHECK(item["keywords_added"] == json::array({"redis"}));
  CHECK(item["action"] == "compressed");
  CHECK(entry["notes"] ==
        "Compressed 1 memory. Total tokens saved: 909. Keyword preservation: added missing "
        "keywords to compressed content: MEM-big (redis)");
  CHECK(log["summary"]["total_compressed"] == 1);
  check_metrics(entry["pre_metrics"], before);
  const json after = report(sandbox);
  check_metrics(entry["post_metrics"], after);
  CHECK(memory_of(after, "MEM-big")["token_count"] == 16);
  CHECK(after["candidates"]["compress"].empty());
  CHECK(sandbox.vault({"index", "--check"}).code == 0);
  CHECK(sandbox.vault({"check"}).code == 0);
}

TEST_CASE("compress with the built-in summariser keeps keyword sentences and shrinks the count",
          "[distill][compress]") {
  Sandbox sandbox;
  write_compress_vault(sandbox);
  const auto result = sandbox.vault({"distill", "--compress", "--all"});
  INFO(result.err);
  REQUIRE(result.code == 0);
  const std::string file = sandbox.read(".memory/10-Memories/MEM-big.md");
  // The lead carries both keywords; the filler carries none, so it is all dropped.
  CHECK_THAT(file, Catch::Contains("\n# Big cache\n\n- Use redis as the cache.\n\n## History\n\n"
                                   "### Pre-Compression (2026-11-30)\n\nUse redis as the cache.\n"
                                   "Filler sentence number 0 here."));
  // 3 + 6 + 4 = 13 words.
  CHECK_THAT(file, Catch::Contains("\ntoken_count: 16\n"));
  const json log = json::parse(sandbox.read(".memory/distill-log.json"));
  const json& item = log["operations"][0]["affected_memories"][0];
  CHECK(item["keywords_preserved"] == true);
  CHECK_FALSE(item.contains("keywords_added"));
  CHECK(log["operations"][0]["summarizer"] == "built-in");
  CHECK(memory_of(report(sandbox), "MEM-big")["token_count"] == 16);
}

TEST_CASE("a failing summariser stops compress before anything is written", "[distill][compress]") {
  Sandbox sandbox;
  write_compress_vault(sandbox);
  const auto head = sandbox.git({"rev-parse", "HEAD"}).out;
  SECTION("non-zero exit") {
    REQUIRE(sandbox.git({"config", "vault.summarizer", "echo oops >&2; exit 3"}).code == 0);
    const auto result = sandbox.vault({"distill", "--compress", "--all"});
    CHECK(result.code == 128);
    CHECK_THAT(result.err, Catch::Contains("summarizer `echo oops >&2; exit 3` exited with "
                                           "status 3: oops; nothing was written"));
  }
  SECTION("empty output") {
    REQUIRE(sandbox.git({"config", "vault.summarizer", "cat >/dev/null"}).code == 0);
    const auto result = sandbox.vault({"distill", "--compress", "--all"});
    CHECK(result.code == 128);
    CHECK_THAT(result.err,
               Catch::Contains("summarizer `cat >/dev/null` printed nothing; nothing was written"));
  }
  CHECK(sandbox.git({"status", "--porcelain"}).out.empty());
  CHECK(sandbox.git({"rev-parse", "HEAD"}).out == head);
}

TEST_CASE("compress edge cases print their messages and change nothing", "[distill][compress]") {
  Sandbox sandbox;
  SECTION("no active memories") {
    sandbox.write(".memory/10-Memories/MEM-t.md",
                  gv::test::memory_file("T", "2026-01-01", "t", 0, "null",
                                        "status: tombstoned\ntombstoned_at: 2026-11-01\n"));
    sandbox.commit_all();
    const auto result = sandbox.vault({"distill", "--compress", "--all"});
    CHECK(result.code == 0);
    CHECK(result.out == "No memories in vault to compress.\n");
  }
  SECTION("nothing oversized") {
    sandbox.write(".memory/10-Memories/MEM-small.md", k_small);
    sandbox.commit_all();
    const auto result = sandbox.vault({"distill", "--compress", "--all"});
    CHECK(result.code == 0);
    CHECK(result.out ==
          "No compress candidates found. All memories are within size limits (token_count <= "
          "900).\n");
  }
  SECTION("an empty selection") {
    write_compress_vault(sandbox);
    const auto result = sandbox.vault({"distill", "--compress", "--select", ","});
    CHECK(result.code == 0);
    CHECK(result.out == "No memories selected for compression. Operation cancelled.\n");
  }
  const auto head = sandbox.git({"rev-parse", "HEAD"}).out;
  CHECK(sandbox.git({"status", "--porcelain"}).out.empty());
  CHECK(sandbox.git({"rev-parse", "HEAD"}).out == head);
  CHECK_FALSE(sandbox.exists(".memory/distill-log.json"));
}

TEST_CASE("compress refuses a vault with uncommitted changes", "[distill][compress]") {
  Sandbox sandbox;
  write_compress_vault(sandbox);
  sandbox.write(".memory/10-Memories/MEM-small.md", k_small + "edited\n");
  const auto head = sandbox.git({"rev-parse", "HEAD"}).out;
  const auto result = sandbox.vault({"distill", "--compress", "--all"});
  CHECK(result.code == 128);
  CHECK(sandbox.git({"rev-parse", "HEAD"}).out == head);
  CHECK(sandbox.read(".memory/10-Memories/MEM-big.md") == big_memory());
}

TEST_CASE("merge then compress on one vault: two commits, a smaller token count",
          "[distill][merge][compress]") {
  Sandbox sandbox;
  gv::test::write_scored_vault(sandbox);
  const auto merged = sandbox.vault({"distill", "--merge", "--select", "MEM-beta+MEM-alpha"});
  INFO(merged.err);
  REQUIRE(merged.code == 0);
  const auto merge_commit = sandbox.git({"rev-parse", "HEAD"}).out.substr(0, 40);
  const json middle = report(sandbox);
  const std::int64_t merged_tokens = memory_of(middle, "MEM-beta")["token_count"];
  CHECK(merged_tokens > 910);  // alpha's content was added

  const auto compressed = sandbox.vault({"distill", "--compress", "--select", "MEM-beta"});
  INFO(compressed.err);
  REQUIRE(compressed.code == 0);
  const json after = report(sandbox);
  const std::int64_t tokens = memory_of(after, "MEM-beta")["token_count"];
  CHECK(tokens < merged_tokens * 45 / 100);
  CHECK(after["candidates"]["compress"].empty());

  const std::string beta = sandbox.read(".memory/10-Memories/MEM-beta.md");
  // One History section: the merged content is its first entry, its `## Merged From` heading
  // demoted so it cannot end the History section (and count again as tokens, D3).
  CHECK(beta.find("## History") == beta.rfind("## History"));
  CHECK(beta.find("\n## Merged From MEM-alpha\n") < beta.find("\n## History\n"));
  CHECK(beta.find("\n#### Merged From MEM-alpha\n") > beta.find("\n## History\n"));

  const json log = json::parse(sandbox.read(".memory/distill-log.json"));
  REQUIRE(log["operations"].size() == 2);
  CHECK(log["operations"][0]["commit"] == merge_commit);
  CHECK(log["operations"][1]["parent_commit"] == merge_commit);
  CHECK(log["operations"][1]["affected_memories"][0]["tokens_before"] == merged_tokens);
  CHECK(log["operations"][1]["affected_memories"][0]["tokens_after"] == tokens);
  CHECK(sandbox.git({"rev-list", "--count", "HEAD"}).out == "3\n");
  CHECK(sandbox.vault({"index", "--check"}).code == 0);
  CHECK(sandbox.vault({"check"}).code == 0);
}

}  // namespace distill_compress_test
