#include "core/search/search.hpp"

#include <catch2/catch.hpp>

#include "core/memory/body.hpp"
#include "core/search/analyzer.hpp"
#include "core/search/bm25.hpp"
#include "core/search/snippet.hpp"
#include "core/vault/vault.hpp"
#include "tests/unit/gate_test_snapshot.hpp"

namespace search_test {

using gv::search::Hit;
using gv::search::Scope;
using gv::search::SearchIndex;
using gv::test::MapSnapshot;

namespace {

// A memory file with the given frontmatter fields and body.
std::string memory(const std::string& title, const std::string& keywords, const std::string& body,
                   const std::string& extra = {}, const std::string& topic = "tests") {
  return "---\ntitle: \"" + title + "\"\ncreated: 2026-01-01\ntags: [PATTERN]\ntopic: \"" + topic +
         "\"\nkeywords: [" + keywords + "]\nsummary: \"\"\n" + extra + "---\n\n# " + title +
         "\n\n" + body + "\n";
}

std::string path(const std::string& id) { return ".memory/10-Memories/" + id + ".md"; }

std::vector<std::string> ids_of(const std::vector<Hit>& hits) {
  std::vector<std::string> ids;
  for (const Hit& hit : hits) {
    ids.push_back(hit.id);
  }
  return ids;
}

std::vector<Hit> run(const MapSnapshot& snapshot, std::string_view query,
                     Scope scope = Scope::memories, std::size_t limit = 10) {
  SearchIndex index;
  index.refresh(gv::load_vault(snapshot).memories, snapshot);
  return index.search(query, scope, limit, snapshot);
}

}  // namespace

TEST_CASE("a title match outranks a keyword, a summary and a body-only match", "[search]") {
  MapSnapshot snapshot({
      {path("MEM-body"), memory("Unrelated words", "alpha", "The backoff policy lives here.")},
      {path("MEM-title"), memory("Backoff policy", "alpha", "Nothing more to say.")},
      {path("MEM-keyword"), memory("Something else", "backoff", "Nothing more to say.")},
      {path("MEM-none"), memory("Nothing", "alpha", "No match at all.")},
  });
  const std::vector<Hit> hits = run(snapshot, "backoff");
  CHECK(ids_of(hits) == std::vector<std::string>{"MEM-title", "MEM-keyword", "MEM-body"});
  CHECK(hits[0].score > hits[1].score);
  CHECK(hits[1].score > hits[2].score);
  CHECK(hits[2].terms == std::vector<std::string>{"backoff"});
  // A body-only hit still says where: the body line and its text.
  CHECK(hits[2].line == 12);
  CHECK(hits[2].snippet == "The backoff policy lives here.");
}

TEST_CASE("a rare term outweighs a common one and more matched terms rank higher", "[search]") {
  std::map<std::string, std::string> files;
  for (int i = 0; i < 8; ++i) {
    files[path("MEM-common-" + std::to_string(i))] =
        memory("Common " + std::to_string(i), "shared", "python appears everywhere");
  }
  files[path("MEM-rare")] = memory("Rare", "other", "telescope appears once");
  files[path("MEM-both")] = memory("Both", "other", "python and telescope together");
  const MapSnapshot snapshot(files);
  const std::vector<Hit> hits = run(snapshot, "python telescope", Scope::memories, 3);
  CHECK(ids_of(hits) == std::vector<std::string>{"MEM-both", "MEM-rare", "MEM-common-0"});
}

TEST_CASE("ranking order on a fixture vault, tombstoned memories excluded", "[search]") {
  const MapSnapshot snapshot({
      {path("MEM-retry-http"),
       memory("HTTP retry with backoff", "retry, backoff, requests",
              "Use a session with a Retry adapter.\nBackoff doubles each time.", "",
              "python/libs/requests")},
      {path("MEM-retry-db"),
       memory("Database reconnects", "database", "Reconnect with retry and backoff on failure.")},
      {path("MEM-backoff-old"),
       memory("Backoff and retry (old)", "retry, backoff", "Superseded advice.",
              "status: tombstoned\ntombstoned_at: 2026-02-01\ntombstone_reason: \"purge\"\n")},
      {path("MEM-logging"), memory("Logging setup", "logging", "Nothing about the query.")},
      {path("MEM-retries"), memory("Notes", "misc", "Retries are retried.")},
  });
  const std::vector<Hit> hits = run(snapshot, "retry backoff");
  CHECK(ids_of(hits) == std::vector<std::string>{"MEM-retry-http", "MEM-retry-db", "MEM-retries"});
  for (const Hit& hit : hits) {
    CHECK(hit.kind == Hit::Kind::memory);
    CHECK(hit.path == path(hit.id));
  }
  CHECK(run(snapshot, "superseded").empty());
}

TEST_CASE("equal scores go to the memory retrieved more, then to the id", "[search]") {
  const MapSnapshot snapshot({
      {path("MEM-a"), memory("Same words", "k", "same body")},
      {path("MEM-b"), memory("Same words", "k", "same body", "retrieval_count: 3\n")},
      {path("MEM-c"), memory("Same words", "k", "same body")},
  });
  SearchIndex index;
  index.refresh(gv::load_vault(snapshot).memories, snapshot);
  CHECK(ids_of(index.search("same", Scope::memories, 10, snapshot)) ==
        std::vector<std::string>{"MEM-b", "MEM-a", "MEM-c"});
  // The journal's counts add to frontmatter's.
  CHECK(ids_of(index.search("same", Scope::memories, 10, snapshot, {{"MEM-c", 5}})) ==
        std::vector<std::string>{"MEM-c", "MEM-b", "MEM-a"});
}

TEST_CASE("working memory entries are searched, superseded ones never", "[search]") {
  const MapSnapshot snapshot({
      {path("MEM-deploy"), memory("Deploy checklist", "deploy", "Run the deploy script.")},
      {"CLAUDE.local.md", "# Working Memory\n\n## Open Loops\n\n- deploy the staging box\n"},
      {"memory/registers/decisions.md",
       "# Decisions\n\n- deploy on fridays never ^tr0123456789\n- old deploy rule "
       "^tr012345678a\n\n## [superseded: 2026-01-02]\n\n- deploy with ftp\n"},
      {"memory/archive/ARCHIVE.md", "# Archive\n\n- deploy deploy deploy deploy\n"},
      {"memory/.recall/metadata.json",
       "{\"tr0123456789\": {\"status\": \"active\"}, \"tr012345678a\": {\"status\": "
       "\"superseded\"}}\n"},
  });
  const std::vector<Hit> all = run(snapshot, "deploy", Scope::all);
  REQUIRE(!all.empty());
  CHECK(std::any_of(all.begin(), all.end(), [](const Hit& hit) { return hit.tier == "archive"; }));
  for (const Hit& hit : all) {
    CHECK(hit.snippet.find("ftp") == std::string::npos);
  }
  const std::vector<Hit> working = run(snapshot, "deploy", Scope::working);
  for (const Hit& hit : working) {
    CHECK(hit.kind == Hit::Kind::entry);
  }
  CHECK(working.size() == all.size() - 1);
  const std::vector<Hit> memories = run(snapshot, "deploy", Scope::memories);
  CHECK(ids_of(memories) == std::vector<std::string>{"MEM-deploy"});
}

TEST_CASE("the search index re-reads only memory files whose bytes changed", "[search]") {
  MapSnapshot snapshot({
      {path("MEM-a"), memory("Alpha", "k", "first body")},
      {path("MEM-b"), memory("Beta", "k", "second body")},
  });
  SearchIndex index;
  index.refresh(gv::load_vault(snapshot).memories, snapshot);
  const int first = snapshot.reads;
  index.refresh(gv::load_vault(snapshot).memories, snapshot);
  const int unchanged = snapshot.reads - first;
  snapshot.set(path("MEM-b"), memory("Beta", "k", "a changed body with kiwi"));
  const int before_change = snapshot.reads;
  index.refresh(gv::load_vault(snapshot).memories, snapshot);
  // load_vault reads both files either way; the index only the changed one.
  CHECK(snapshot.reads - before_change == unchanged + 1);
  CHECK(ids_of(index.search("kiwi", Scope::memories, 10, snapshot)) ==
        std::vector<std::string>{"MEM-b"});
  snapshot.erase(path("MEM-b"));
  index.refresh(gv::load_vault(snapshot).memories, snapshot);
  CHECK(index.search("kiwi", Scope::memories, 10, snapshot).empty());
  CHECK(index.memory_count() == 1);
}

TEST_CASE("a snippet is the line with the most terms, cut at word boundaries", "[search]") {
  const auto snippet = gv::search::best_line(
      "intro line\n- one retry here\nretry and backoff together\n", {"retry", "backoff"});
  REQUIRE(snippet);
  CHECK(snippet->line == 3);
  CHECK(snippet->text == "retry and backoff together");
  std::string long_line;
  for (int i = 0; i < 60; ++i) {
    long_line += "word" + std::to_string(i) + " ";
  }
  long_line += "needle at the end";
  const auto clipped = gv::search::best_line(long_line, gv::search::query_terms("needle"), 60);
  REQUIRE(clipped);
  CHECK(clipped->text.starts_with("…"));
  CHECK(clipped->text.find("needle") != std::string::npos);
  CHECK(!gv::search::best_line("nothing here", {"absent"}));
}

TEST_CASE("search reads a body without its comments, History and Connections, lines kept",
          "[search]") {
  const std::string body =
      "\n# Retry\n\nUse stamina now.\n<!-- Add links using [[filename]] syntax -->\n```\n<!-- "
      "kept -->\n```\n\n## History\n\n### Previous Version\n\nThe requests Retry class.\n\n"
      "## Connections\n<!-- open\nstill comment -->\n- [[MEM-x]]\n";
  const std::string searchable = gv::search::searchable_body(body);
  REQUIRE(searchable.size() == body.size());
  CHECK(std::count(searchable.begin(), searchable.end(), '\n') ==
        std::count(body.begin(), body.end(), '\n'));
  CHECK_THAT(searchable, Catch::Contains("Use stamina now.") && Catch::Contains("<!-- kept -->"));
  CHECK_THAT(searchable, !Catch::Contains("Connections") && !Catch::Contains("MEM-x"));
  CHECK_THAT(searchable, !Catch::Contains("syntax") && !Catch::Contains("requests") &&
                             !Catch::Contains("Previous") && !Catch::Contains("still comment"));
  const std::vector<gv::ByteRange> comments = gv::html_comments(body);
  REQUIRE(comments.size() == 2);
  CHECK(body.substr(comments[0].begin, comments[0].end - comments[0].begin) ==
        "<!-- Add links using [[filename]] syntax -->");
  CHECK(body.substr(comments[1].begin, comments[1].end - comments[1].begin) ==
        "<!-- open\nstill comment -->");
  CHECK(gv::html_comments("text <!-- never closed\nmore").size() == 1);
}

TEST_CASE("expansion finds a memory in the task's neighbourhood; search keeps to its words",
          "[search]") {
  // Feedback expansion needs a vault of 30 or more memories: 3 about bananas in smoothies, one
  // about smoothies that never says banana, and filler about other things.
  std::map<std::string, std::string> files;
  for (const std::string name : {"frozen", "ripe", "green"}) {
    files[path("MEM-banana-" + name)] =
        memory("Banana smoothie, " + name, "banana, smoothie, blender",
               "Freeze the banana first; the blender makes a thicker smoothie.");
  }
  files[path("MEM-blender")] = memory("Blender speeds", "smoothie, blender",
                                      "Start the blender slow, then full speed for a smoothie.");
  for (int i = 0; i < 30; ++i) {
    files[path("MEM-filler-" + std::to_string(i))] =
        memory("Filler " + std::to_string(i), "deploy, kubernetes",
               "Roll out with helm upgrade " + std::to_string(i) + ".");
  }
  const MapSnapshot snapshot(files);
  SearchIndex index;
  index.refresh(gv::load_vault(snapshot).memories, snapshot);

  const std::vector<std::string> searched =
      ids_of(index.search("banana", Scope::memories, 10, snapshot));
  CHECK(searched.size() == 3);
  CHECK(std::find(searched.begin(), searched.end(), "MEM-blender") == searched.end());

  const std::vector<std::string> ranked =
      ids_of(index.rank("banana", Scope::memories, 10, snapshot));
  REQUIRE(ranked.size() == 4);
  CHECK(ranked.back() == "MEM-blender");  // found through smoothie and blender, ranked last
}

TEST_CASE("an entry is found through the titles and keywords of its nearest memories", "[search]") {
  // The entry never says neovim or plugin; the memories its rare words (nvim, dotfiles) rank
  // first do, in their titles and keywords. Neighbours need a vault of 30 or more memories.
  std::map<std::string, std::string> files;
  for (const std::string name : {"lazy", "lsp", "keys"}) {
    files[path("MEM-nvim-" + name)] =
        memory("Neovim plugin setup: " + name, "neovim, plugin, nvim",
               "The nvim config lives in the dotfiles under nvim/lua; " + name + " loads there.");
  }
  for (int i = 0; i < 30; ++i) {
    files[path("MEM-filler-" + std::to_string(i))] =
        memory("Filler " + std::to_string(i), "deploy, kubernetes",
               "Roll out with helm upgrade " + std::to_string(i) + ".");
  }
  files["memory/registers/preferences.md"] =
      "# Preferences\n\n- Editor config changes go into the dotfiles repo (nvim/), not a local "
      "copy ^tr0123456789\n- Deploys wait for a green pipeline ^tr012345678a\n";
  const MapSnapshot with_memories(files);
  const std::vector<Hit> found = run(with_memories, "install a neovim plugin", Scope::working);
  REQUIRE(found.size() == 1);
  CHECK(found.front().id == "tr0123456789");

  SECTION("in a vault of a handful of memories, an entry is ranked on its own words") {
    for (int i = 0; i < 30; ++i) {
      files.erase(path("MEM-filler-" + std::to_string(i)));
    }
    const MapSnapshot small(files);
    CHECK(run(small, "install a neovim plugin", Scope::working).empty());
    CHECK(ids_of(run(small, "dotfiles nvim", Scope::working)) ==
          std::vector<std::string>{"tr0123456789"});
  }
}

}  // namespace search_test
