#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>
#include <set>
#include <string>

#include "tests/e2e/sandbox.hpp"
#include "tests/e2e/vault_fixture.hpp"

namespace search_test {

using gv::test::Sandbox;
using nlohmann::json;

namespace {

std::vector<std::string> ids(const json& results) {
  std::vector<std::string> out;
  for (const json& result : results) {
    out.push_back(result["id"].is_null() ? "" : result["id"].get<std::string>());
  }
  return out;
}

void write_search_vault(Sandbox& sandbox) {
  gv::test::write_scored_vault(sandbox);
  // A memory that says "retry" only in its body, one that has it as a keyword.
  sandbox.write(".memory/10-Memories/MEM-body.md",
                gv::test::memory_file("Network notes", "2026-10-01", "net", 0, "null", {}, 0) +
                    "When the server drops, retry with exponential backoff.\n");
  sandbox.write(
      ".memory/10-Memories/MEM-kw.md",
      gv::test::memory_file("Client settings", "2026-10-01", "retry, backoff", 0, "null"));
  sandbox.write("CLAUDE.local.md",
                "# Working Memory\n\n## Open Loops\n\n- retry the flaky deploy tomorrow\n");
  sandbox.write("memory/archive/ARCHIVE.md", "# Archive\n\n- retry retry retry backoff\n");
  REQUIRE(sandbox.vault({"index"}).code == 0);
  sandbox.commit_all("search fixture");
}

}  // namespace

TEST_CASE("search ranks field matches above body-only ones and never returns tombstoned ones",
          "[search]") {
  Sandbox sandbox;
  gv::test::write_scored_vault(sandbox);
  const auto result = sandbox.vault({"search", "x", "q", "--json"});
  INFO(result.err);
  REQUIRE(result.code == 0);
  const json document = json::parse(result.out);
  CHECK(document["schema"] == 1);
  CHECK(document["query"] == "x q");
  // MEM-eps has keyword q but is tombstoned; MEM-beta has keyword x, MEM-gamma topic python/x.
  CHECK(ids(document["results"]) == std::vector<std::string>{"MEM-beta", "MEM-gamma"});
  const json& first = document["results"][0];
  CHECK(first["kind"] == "memory");
  CHECK(first["path"] == ".memory/10-Memories/MEM-beta.md");
  CHECK(first["title"] == "Beta");
  CHECK(first["score"].get<double>() > document["results"][1]["score"].get<double>());
  CHECK(first["line"] == 8);  // the keywords line
  CHECK(first["snippet"] == "a, b, c, x");
}

TEST_CASE("search finds body text and working memory, the two interleaved by rank", "[search]") {
  Sandbox sandbox;
  write_search_vault(sandbox);
  const auto result = sandbox.vault({"search", "retry", "backoff", "--json"});
  INFO(result.err);
  REQUIRE(result.code == 0);
  const json results = json::parse(result.out)["results"];
  REQUIRE(results.size() == 4);
  // Each list keeps its order and they alternate, a memory first: the best memory, the best
  // entry, the second memory, the second entry (doc/search.md, "Order of the results").
  CHECK(results[0]["id"] == "MEM-kw");
  CHECK(results[1]["kind"] == "entry");
  CHECK(results[2]["id"] == "MEM-body");
  CHECK(results[2]["snippet"] == "When the server drops, retry with exponential backoff.");
  CHECK(results[2]["line"] == 17);
  CHECK(results[3]["kind"] == "entry");
  std::set<std::string> entry_places;
  for (const std::size_t i : {1, 3}) {
    entry_places.insert(results[i]["path"].get<std::string>() + ":" +
                        std::to_string(results[i]["line"].get<int>()));
  }
  CHECK(entry_places.contains("CLAUDE.local.md:5"));
  CHECK((results[1]["tier"] == "archive" || results[3]["tier"] == "archive"));

  const auto memories = sandbox.vault({"search", "retry", "--scope", "memories", "--json"});
  CHECK(ids(json::parse(memories.out)["results"]) ==
        std::vector<std::string>{"MEM-kw", "MEM-body"});
  const auto working = sandbox.vault({"search", "retry", "--scope", "working", "--json"});
  CHECK(json::parse(working.out)["results"].size() == 2);
  const auto limited = sandbox.vault({"search", "retry", "--limit", "1", "--json"});
  CHECK(ids(json::parse(limited.out)["results"]) == std::vector<std::string>{"MEM-kw"});

  const auto text = sandbox.vault({"search", "exponential"});
  CHECK(text.code == 0);
  CHECK_THAT(text.out, Catch::StartsWith(".memory/10-Memories/MEM-body.md:17: MEM-body Network "
                                         "notes ("));
  CHECK_THAT(text.out, Catch::Contains("\n    When the server drops"));
}

TEST_CASE("search finds a claim block by any of its lines and shows the line with its id",
          "[search]") {
  Sandbox sandbox;
  sandbox.write("memory/registers/decisions.md",
                "# Decisions\n\n## Database\n"
                "- **Decision**: one shared pool ^tr00000000d1\n"
                "- **Alternatives considered**: pgbouncer in transaction mode\n"
                "- **Current state** (2026-03-08): done\n");
  sandbox.commit_all("decisions");
  const auto result = sandbox.vault({"search", "pgbouncer", "--json"});
  INFO(result.err);
  REQUIRE(result.code == 0);
  const json results = json::parse(result.out)["results"];
  REQUIRE(results.size() == 1);
  CHECK(results[0]["kind"] == "entry");
  CHECK(results[0]["id"] == "tr00000000d1");
  CHECK(results[0]["line"] == 4);
  // Alone under its heading, the block is shown by the heading, then its first line.
  CHECK(results[0]["snippet"] == "Database: **Decision**: one shared pool");
}

TEST_CASE("search with no hits says so on stderr and exits 1", "[search]") {
  Sandbox sandbox;
  gv::test::write_scored_vault(sandbox);
  const auto result = sandbox.vault({"search", "nothing-matches"});
  CHECK(result.code == 1);
  CHECK(result.out.empty());
  CHECK_THAT(result.err, Catch::Contains("no memory or working-memory entry matches"));
  const auto json_result = sandbox.vault({"search", "nothing", "--json"});
  CHECK(json_result.code == 1);
  CHECK(json::parse(json_result.out)["results"].empty());
  CHECK(sandbox.vault({"search", "x", "--scope", "everything"}).code == 129);
}

TEST_CASE("search --record counts in the journal and leaves the work tree clean", "[search]") {
  Sandbox sandbox;
  gv::test::write_scored_vault(sandbox);
  const auto before = json::parse(sandbox.vault({"distill", "--json"}).out);
  for (const json& memory : before["memories"]) {
    if (memory["id"] == "MEM-gamma") {
      CHECK(memory["zero_retrieval"] == 1.0);
    }
  }
  REQUIRE(sandbox.vault({"search", "gamma", "--record"}).code == 0);
  CHECK(sandbox.git({"status", "--porcelain"}).out.empty());
  CHECK_THAT(sandbox.read(".git/git-vault/retrievals.jsonl"),
             Catch::Contains("\"id\":\"MEM-gamma\""));
  // A maintenance action can start right away: recording dirtied nothing.
  CHECK(sandbox.vault({"index", "--check"}).code == 0);
  const json report = json::parse(sandbox.vault({"distill", "--json"}).out);
  for (const json& memory : report["memories"]) {
    if (memory["id"] == "MEM-gamma") {
      CHECK(memory["zero_retrieval"] == 0.0);
    }
  }
}

TEST_CASE("search finds neither the template's comment nor superseded History text",
          "[search][learn]") {
  Sandbox sandbox;
  REQUIRE(sandbox.vault({"init", "--no-hooks"}).code == 0);
  sandbox.commit_all("vault");
  REQUIRE(sandbox
              .vault({"learn", "--title", "Retry policy", "--keywords", "retry,policy", "--text",
                      "Retry failed calls three times with a growing delay between attempts. "
                      "The requests library Retry class does it."})
              .code == 0);
  REQUIRE(sandbox
              .vault({"learn", "--title", "Retry policy", "--as", "update:MEM-retry-policy",
                      "--text", "Use stamina now."})
              .code == 0);
  const std::string file = sandbox.read(".memory/10-Memories/MEM-retry-policy.md");
  REQUIRE_THAT(file, Catch::Contains("<!--") && Catch::Contains("requests library"));

  // Words only the template's HTML comment or the History section hold match nothing.
  for (const char* query : {"syntax", "filename", "requests library"}) {
    INFO(query);
    const auto none = sandbox.vault({"search", query});
    CHECK(none.code == 1);
    CHECK(none.out.empty());
  }
  const auto found = sandbox.vault({"search", "stamina", "--json"});
  INFO(found.err);
  REQUIRE(found.code == 0);
  const json results = json::parse(found.out)["results"];
  REQUIRE(results.size() == 1);
  CHECK(results[0]["snippet"] == "Use stamina now.");
}

TEST_CASE(
    "search says how many matched beyond --limit, shows all with 0, and names paths from "
    "where it ran",
    "[search]") {
  Sandbox sandbox;
  write_search_vault(sandbox);
  const auto all = sandbox.vault({"search", "retry", "--json", "--limit", "0"});
  INFO(all.err);
  REQUIRE(all.code == 0);
  const json every = json::parse(all.out);
  const std::size_t total = every["total"];
  REQUIRE(total >= 3);
  CHECK(every["results"].size() == total);

  const auto two = sandbox.vault({"search", "retry", "--limit", "2"});
  REQUIRE(two.code == 0);
  CHECK(two.err ==
        "git-vault: 2 of " + std::to_string(total) + " matches shown; --limit 0 shows them all\n");
  CHECK(json::parse(sandbox.vault({"search", "retry", "--limit", "2", "--json"}).out)["total"] ==
        total);
  CHECK(sandbox.vault({"search", "retry", "--limit", "0"}).err.empty());

  // From a subdirectory, `path:line:` opens from there; --json keeps repository paths.
  const auto below =
      sandbox.vault({"search", "exponential", "--scope", "memories"}, {}, ".memory/10-Memories");
  INFO(below.err);
  REQUIRE(below.code == 0);
  CHECK_THAT(below.out, Catch::StartsWith("MEM-body.md:"));
  const auto below_json = sandbox.vault({"search", "exponential", "--scope", "memories", "--json"},
                                        {}, ".memory/10-Memories");
  CHECK(json::parse(below_json.out)["results"][0]["path"] == ".memory/10-Memories/MEM-body.md");
}

TEST_CASE("search and context find an entry through its nearest memories' titles", "[search]") {
  // The preference never says neovim or plugin; the memories its rare words rank first do.
  Sandbox sandbox;
  for (const std::string name : {"lazy", "lsp", "keys"}) {
    sandbox.write(".memory/10-Memories/MEM-nvim-" + name + ".md",
                  gv::test::memory_file("Neovim plugin setup: " + name, "2026-10-01",
                                        "neovim, plugin, nvim", 0, "null") +
                      "The nvim config lives in the dotfiles under nvim/lua.\n");
  }
  for (int i = 0; i < 30; ++i) {
    sandbox.write(".memory/10-Memories/MEM-filler-" + std::to_string(i) + ".md",
                  gv::test::memory_file("Filler " + std::to_string(i), "2026-10-01",
                                        "deploy, kubernetes", 0, "null"));
  }
  sandbox.write("memory/registers/preferences.md",
                "# Preferences\n\n- Editor config changes go into the dotfiles repo (nvim/), not "
                "a local copy ^tr00000000e1\n");
  REQUIRE(sandbox.vault({"index"}).code == 0);
  sandbox.commit_all("editor vault");

  const auto searched =
      sandbox.vault({"search", "--scope", "working", "install a neovim plugin", "--json"});
  INFO(searched.err);
  REQUIRE(searched.code == 0);
  CHECK(ids(json::parse(searched.out)["results"]) == std::vector<std::string>{"tr00000000e1"});

  const auto context = sandbox.vault({"context", "install a neovim plugin", "--json"});
  INFO(context.err);
  REQUIRE(context.code == 0);
  CHECK(ids(json::parse(context.out)["entries"]) == std::vector<std::string>{"tr00000000e1"});
}

}  // namespace search_test
