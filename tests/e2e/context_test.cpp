#include <fmt/format.h>

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "tests/e2e/sandbox.hpp"
#include "tests/e2e/vault_fixture.hpp"

namespace context_test {

using gv::test::Sandbox;
using nlohmann::json;

TEST_CASE("context --original prints the block of the memories whose keywords the task names",
          "[context]") {
  Sandbox sandbox;
  sandbox.write(".memory/10-Memories/MEM-tele.md",
                gv::test::memory_file("Telescope pickers", "2026-11-01", "telescope, pickers", 0,
                                      "null", {}, 5, "neovim"));
  sandbox.write(".memory/10-Memories/MEM-lsp.md",
                gv::test::memory_file("LSP setup", "2026-11-01", "lsp, neovim", 0, "null"));
  sandbox.write(".memory/10-Memories/MEM-other.md",
                gv::test::memory_file("Other", "2026-11-01", "python", 0, "null"));
  REQUIRE(sandbox.vault({"index"}).code == 0);
  sandbox.commit_all();

  const auto result = sandbox.vault(
      {"context", "--original", "Add a telescope picker for buffers", "--type", "neovim"});
  INFO(result.err);
  REQUIRE(result.code == 0);
  CHECK(result.out ==
        "<memory-context>\nThe following memories from previous sessions may be relevant to "
        "this task.\n\n### Telescope pickers (relevance: 3)\n" +
            sandbox.read(".memory/10-Memories/MEM-tele.md")
                .substr(0, sandbox.read(".memory/10-Memories/MEM-tele.md").size() - 1) +
            "\n\n</memory-context>\n");

  const auto json_result = sandbox.vault({"context", "--original", "neovim telescope", "--json"});
  REQUIRE(json_result.code == 0);
  const json document = json::parse(json_result.out);
  CHECK(document["schema"] == 1);
  REQUIRE(document["memories"].size() == 2);
  CHECK(document["memories"][0]["id"] == "MEM-lsp");  // ties in id order
  CHECK(document["memories"][1]["id"] == "MEM-tele");
  CHECK(document["tokens"] == document["memories"][0]["tokens"].get<int>() +
                                  document["memories"][1]["tokens"].get<int>());
  CHECK(sandbox.git({"status", "--porcelain"}).out.empty());
}

TEST_CASE("context stays within its budget after a memory has been updated many times",
          "[context][learn]") {
  Sandbox sandbox;
  REQUIRE(sandbox.vault({"init", "--no-hooks"}).code == 0);
  sandbox.commit_all("vault");
  std::string long_text;
  for (int i = 0; i < 400; ++i) {
    long_text += "kafka consumer lag partition rebalance ";
  }
  sandbox.write("notes.md", long_text + "\n");
  const auto created = sandbox.vault(
      {"learn", "--title", "Kafka consumer lag", "--keywords", "kafka,consumer,lag", "notes.md"});
  INFO(created.err);
  REQUIRE(created.code == 0);
  // Three long versions pushed into History, then a short one as the current content.
  for (int i = 0; i < 3; ++i) {
    REQUIRE(sandbox
                .vault({"learn", "--title", "Kafka consumer lag", "--as",
                        "update:MEM-kafka-consumer-lag", "notes.md"})
                .code == 0);
  }
  sandbox.write("notes.md", "Short current advice.\n");
  REQUIRE(sandbox
              .vault({"learn", "--title", "Kafka consumer lag", "--as",
                      "update:MEM-kafka-consumer-lag", "notes.md"})
              .code == 0);
  REQUIRE_THAT(sandbox.read(".memory/10-Memories/MEM-kafka-consumer-lag.md"),
               Catch::Contains("## History"));

  const auto result = sandbox.vault({"context", "kafka consumer lag", "--json"});
  INFO(result.err);
  REQUIRE(result.code == 0);
  const json document = json::parse(result.out);
  const std::string block = document["context"];
  CHECK_THAT(block, Catch::Contains("Short current advice.") && !Catch::Contains("## History"));
  CHECK(document["tokens"].get<int>() <= 2000);
  CHECK(block.size() < 2000);
}

TEST_CASE("context with no match prints nothing and exits 1", "[context]") {
  Sandbox sandbox;
  gv::test::write_scored_vault(sandbox);
  const auto result = sandbox.vault({"context", "completely unrelated words"});
  CHECK(result.code == 1);
  CHECK(result.out.empty());
  CHECK_THAT(result.err, Catch::Contains("no memory or working-memory entry is relevant enough"));
  const auto original = sandbox.vault({"context", "--original", "completely unrelated words"});
  CHECK(original.code == 1);
  CHECK(original.out.empty());
  CHECK_THAT(original.err, Catch::Contains("no memory matches this task"));
  CHECK(sandbox.vault({"context"}).code == 129);
}

TEST_CASE("context --record journals what the block held", "[context]") {
  Sandbox sandbox;
  gv::test::write_scored_vault(sandbox);
  // Keywords must be longer than three letters to count, so match on the topic instead.
  REQUIRE(
      sandbox.vault({"context", "--original", "anything", "--type", "python/x", "--record"}).code ==
      0);
  CHECK(sandbox.read(".git/git-vault/retrievals.jsonl") ==
        "{\"id\":\"MEM-gamma\",\"date\":\"2026-11-30\",\"via\":\"context\"}\n");
}

TEST_CASE("context --session prints a briefing of open loops and memories in budget", "[context]") {
  Sandbox sandbox;
  gv::test::write_scored_vault(sandbox);
  sandbox.write("CLAUDE.local.md",
                "# Working Memory\n\n## Active Context\n\n**Current Focus**: the release\n\n"
                "## Open Loops\n\n- [None yet]\n- write the changelog\n");
  const auto result = sandbox.vault({"context", "--session"});
  INFO(result.err);
  REQUIRE(result.code == 0);
  CHECK_THAT(result.out, Catch::StartsWith("<memory-briefing date=\"2026-11-30\">\n"));
  CHECK_THAT(result.out, Catch::Contains("**Current Focus**: the release"));
  CHECK_THAT(result.out, Catch::Contains("- write the changelog (CLAUDE.local.md)"));
  CHECK_THAT(result.out, Catch::Contains("- MEM-beta: Beta (PATTERN, created 121 days ago, "
                                         "retrieved 2 times, last 30 days ago)"));
  CHECK_THAT(result.out, !Catch::Contains("MEM-eps"));
  const auto small = sandbox.vault({"context", "--session", "--budget", "50", "--json"});
  REQUIRE(small.code == 0);
  CHECK(json::parse(small.out)["tokens"].get<int>() <= 50);
}

TEST_CASE("context says which memory file it could not read and left out", "[context]") {
  Sandbox sandbox;
  sandbox.write(
      ".memory/10-Memories/MEM-tele.md",
      gv::test::memory_file("Telescope pickers", "2026-11-01", "telescope, pickers", 0, "null"));
  REQUIRE(sandbox.vault({"index"}).code == 0);
  sandbox.commit_all();
  sandbox.write(".memory/10-Memories/MEM-broken.md",
                "---\ntitle: [unclosed\ncreated: 2026-01-01\n---\ntelescope body\n");
  const auto result = sandbox.vault({"context", "telescope pickers"});
  REQUIRE(result.code == 0);
  CHECK_THAT(result.err,
             Catch::Contains("warning: .memory/10-Memories/MEM-broken.md cannot be read and is "
                             "left out; `git vault check --worktree` says what is wrong"));
  CHECK_THAT(result.out, Catch::Contains("Telescope pickers"));
}

namespace {

// A memory with the fields the ranking reads.
std::string ranked_memory(std::string_view title, std::string_view keywords,
                          std::string_view summary, std::string_view body,
                          std::string_view extra = {}) {
  return fmt::format(
      "---\ntitle: \"{}\"\ncreated: 2026-10-01\ntags: [INSIGHT]\ntopic: \"editors\"\n"
      "keywords: [{}]\nsummary: \"{}\"\n{}---\n\n# {}\n\n{}\n",
      title, keywords, summary, extra, title, body);
}

json context_json(Sandbox& sandbox, const std::string& task) {
  const auto result = sandbox.vault({"context", task, "--json"});
  INFO(task << "\n" << result.err);
  REQUIRE((result.code == 0 || result.code == 1));
  return json::parse(result.out);
}

std::vector<std::string> memory_ids(const json& document) {
  std::vector<std::string> ids;
  for (const json& memory : document["memories"]) {
    ids.push_back(memory["id"]);
  }
  return ids;
}

}  // namespace

TEST_CASE("context ranks with the search engine: short words, identifiers and word forms match",
          "[context]") {
  Sandbox sandbox;
  sandbox.write(".memory/10-Memories/MEM-001.md",
                ranked_memory("No vim mode in Zed", "zed, editor", "Zed has no vim mode setting",
                              "Zed ships vim emulation off; turn it on in settings.json."));
  sandbox.write(".memory/10-Memories/MEM-solver-timeouts.md",
                ranked_memory("Solver timeouts", "solver", "How long the solver may run",
                              "Pass `max_time` to the z3 solver; unknown means it gave up."));
  sandbox.write(".memory/10-Memories/MEM-zed-keybindings-scheme.md",
                ranked_memory("Keybindings scheme", "keymap", "Where key maps live",
                              "Keybindings for panels live in keymap.json, grouped by context."));
  sandbox.write(".memory/10-Memories/MEM-unrelated.md",
                ranked_memory("Postgres vacuum", "postgres", "Autovacuum settings",
                              "Tune autovacuum thresholds for the ledger tables."));
  sandbox.commit_all();

  CHECK(memory_ids(context_json(sandbox, "enable vim mode in zed")).front() == "MEM-001");
  CHECK(memory_ids(context_json(sandbox, "z3 max_time")).front() == "MEM-solver-timeouts");
  CHECK(memory_ids(context_json(sandbox, "add a keybinding to toggle the agent panel")).front() ==
        "MEM-zed-keybindings-scheme");
  // The original algorithm, kept as it was, finds none of them.
  for (const char* task : {"enable vim mode in zed", "z3 max_time"}) {
    CHECK(sandbox.vault({"context", "--original", task}).code == 1);
  }
  const auto block = sandbox.vault({"context", "enable vim mode in zed"});
  REQUIRE(block.code == 0);
  CHECK_THAT(block.out, Catch::StartsWith("<memory-context>\nThe following memories from previous "
                                          "sessions may be relevant to this task.\n\n### No vim "
                                          "mode in Zed (relevance: "));
  CHECK_THAT(block.out, Catch::EndsWith("</memory-context>\n"));
}

TEST_CASE("context ignores links and the Connections list, and never offers a tombstone",
          "[context]") {
  Sandbox sandbox;
  sandbox.write(".memory/10-Memories/MEM-cache-stampede.md",
                ranked_memory("Cache stampede", "cache, stampede", "Many misses at once",
                              "Use request coalescing so one miss fills the cache."));
  sandbox.write(".memory/10-Memories/MEM-linker.md",
                ranked_memory("Retry budget", "retry", "Retries share one budget",
                              "Keep retries within one budget per request.\n\n## Connections\n"
                              "- [[MEM-cache-stampede]]"));
  sandbox.write(".memory/10-Memories/MEM-old.md",
                ranked_memory("Database connection pool", "connection, pool", "The old pool advice",
                              "Use one connection per request.",
                              "status: tombstoned\ntombstoned_at: 2026-11-20\n"
                              "tombstone_reason: \"purge\"\n"));
  sandbox.commit_all();

  CHECK(memory_ids(context_json(sandbox, "cache stampede")) ==
        std::vector<std::string>{"MEM-cache-stampede"});
  const json connection = context_json(sandbox, "database connection settings");
  CHECK(memory_ids(connection).empty());
  const auto unrelated = sandbox.vault({"context", "database connection settings"});
  CHECK(unrelated.code == 1);
  CHECK(unrelated.out.empty());
}

TEST_CASE("context adds the working-memory entries that match the task in their own section",
          "[context]") {
  Sandbox sandbox;
  sandbox.write(".memory/10-Memories/MEM-types.md",
                ranked_memory("TypeScript strictness", "typescript, strict", "Strict mode is on",
                              "The extension builds with strict TypeScript."));
  sandbox.write("memory/registers/decisions.md",
                "# Decisions\n\n- Do NOT add `readonly` to the store's fields: the migration "
                "mutates them in place ^tr0123456789\n- Use pnpm for installs ^tr1111111111\n");
  sandbox.commit_all();

  const auto result = sandbox.vault({"context", "add readonly to the store fields", "--json"});
  INFO(result.err);
  REQUIRE(result.code == 0);
  const json document = json::parse(result.out);
  REQUIRE(document["entries"].size() == 1);
  CHECK(document["entries"][0]["id"] == "tr0123456789");
  CHECK(document["entries"][0]["path"] == "memory/registers/decisions.md");
  CHECK(document["entries"][0]["line"] == 3);
  CHECK(document["entries"][0]["tier"] == "register");
  const std::string block = document["context"];
  CHECK_THAT(block, Catch::Contains("### Working memory\n- Do NOT add `readonly` to the store's "
                                    "fields: the migration mutates them in place "
                                    "(memory/registers/decisions.md:3, register)\n"));
}

}  // namespace context_test
