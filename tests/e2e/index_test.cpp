#include <fmt/format.h>

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "tests/e2e/sandbox.hpp"
#include "tests/e2e/vault_fixture.hpp"

namespace index_test {

using gv::test::Sandbox;
using nlohmann::json;

TEST_CASE("index regenerates the three generated files deterministically", "[index]") {
  Sandbox sandbox;
  gv::test::write_scored_vault(sandbox);
  const json index = json::parse(sandbox.read(".memory/memory-index.json"));
  CHECK(index["version"] == "1.0.0");
  CHECK(index["generated_at"] == "2026-11-30");
  CHECK(index["entry_count"] == 5);
  REQUIRE(index["entries"].size() == 5);
  CHECK(index["entries"][0]["id"] == "MEM-alpha");
  CHECK(index["entries"][1]["token_count"] == 910);
  CHECK(index["entries"][2]["status"] == "active");
  CHECK(index["entries"][3]["status"] == "tombstoned");
  CHECK_THAT(sandbox.read(".memory/20-Indices/index.md"), Catch::Contains("[MEM-alpha]"));
  CHECK_THAT(sandbox.read(".memory/10-Memories/README.md"), !Catch::Contains("MEM-eps"));

  SECTION("on another day nothing changes") {
    const auto result = sandbox.vault({"--today", "2027-03-01", "index"});
    REQUIRE(result.code == 0);
    CHECK(sandbox.git({"status", "--porcelain"}).out.empty());
  }
  SECTION("--check passes on a fresh index") {
    const auto result = sandbox.vault({"index", "--check", "--json"});
    CHECK(result.code == 0);
    CHECK(json::parse(result.out)["ok"] == true);
  }
}

TEST_CASE("index --check reports content drift and exits 1 without writing", "[index]") {
  Sandbox sandbox;
  gv::test::write_scored_vault(sandbox);
  sandbox.write(".memory/10-Memories/MEM-alpha.md",
                gv::test::memory_file("Alpha renamed", "2026-11-20", "a, b, c, d, e", 0, "null"));
  const auto before = sandbox.read(".memory/memory-index.json");
  const auto result = sandbox.vault({"index", "--check", "--json"});
  CHECK(result.code == 1);
  const json report = json::parse(result.out);
  CHECK(report["ok"] == false);
  bool named_alpha = false;
  for (const json& finding : report["findings"]) {
    CHECK(finding["check"] == "stale-index");
    named_alpha = named_alpha || finding["id"] == "MEM-alpha";
  }
  CHECK(named_alpha);
  CHECK(sandbox.read(".memory/memory-index.json") == before);

  SECTION("index then fixes it") {
    REQUIRE(sandbox.vault({"index"}).code == 0);
    CHECK(sandbox.vault({"index", "--check"}).code == 0);
    CHECK_THAT(sandbox.read(".memory/memory-index.json"), Catch::Contains("Alpha renamed"));
  }
}

TEST_CASE("index carries retrieval counts kept only in the old index into frontmatter", "[index]") {
  Sandbox sandbox;
  gv::test::write_scored_vault(sandbox);
  json index = json::parse(sandbox.read(".memory/memory-index.json"));
  index["entries"][0]["retrieval_count"] = 7;
  index["entries"][0]["last_retrieved"] = "2026-11-29";
  sandbox.write(".memory/memory-index.json", index.dump(2) + "\n");
  const auto result = sandbox.vault({"index", "--json"});
  INFO(result.err);
  REQUIRE(result.code == 0);
  const std::string alpha = sandbox.read(".memory/10-Memories/MEM-alpha.md");
  CHECK_THAT(alpha, Catch::Contains("\nretrieval_count: 7\nlast_retrieved: 2026-11-29\n"));
  CHECK(json::parse(result.out)["retrieval_counts_carried"] == json::array({"MEM-alpha"}));
  CHECK(json::parse(sandbox.read(".memory/memory-index.json"))["entries"][0]["retrieval_count"] ==
        7);
}

TEST_CASE("index refuses to regenerate over a broken memory and writes nothing", "[index]") {
  Sandbox sandbox;
  gv::test::write_scored_vault(sandbox);
  sandbox.write(".memory/10-Memories/MEM-broken.md",
                "---\ntitle: \"x\"\ncreated: 2026-02-30\n---\n");
  const auto result = sandbox.vault({"index"});
  CHECK(result.code == 128);
  CHECK_THAT(result.err, Catch::Contains(".memory/10-Memories/MEM-broken.md:3:"));
  CHECK(sandbox.git({"status", "--porcelain"}).out == "?? .memory/10-Memories/MEM-broken.md\n");

  // Files are counted, not errors: one file with several errors is one file.
  sandbox.write(".memory/10-Memories/MEM-broken.md",
                "---\ntitle: \"\"\ncreated: 2026-01-05\nretrieval_count: -3\n"
                "last_retrieved: yesterday\n---\n\n# B\n");
  const auto several = sandbox.vault({"index"});
  CHECK(several.code == 128);
  CHECK_THAT(several.err, Catch::EndsWith("git-vault: error: 1 memory file is unreadable; fix "
                                          "it, then run `git vault index` again\n"));
}

TEST_CASE("index --check names an unreadable memory before the fix that needs it gone", "[index]") {
  // `index` refuses while a memory file is unreadable, so a stale index must not just say
  // `git vault index`.
  Sandbox sandbox;
  gv::test::write_scored_vault(sandbox);
  sandbox.write(".memory/10-Memories/MEM-alpha.md",
                gv::test::memory_file("Alpha renamed", "2026-11-20", "a, b, c, d, e", 0, "null"));
  sandbox.write(".memory/10-Memories/MEM-broken.md",
                "---\ntitle: \"x\"\ncreated: 2026-02-30\n---\n");
  const auto text = sandbox.vault({"index", "--check"});
  CHECK(text.code == 1);
  CHECK_THAT(text.out, Catch::StartsWith(".memory/10-Memories/MEM-broken.md:3: error:"));
  CHECK_THAT(text.out,
             Catch::Contains("fix: fix the unreadable memory file(s) above, then run git vault "
                             "index"));
  const json report = json::parse(sandbox.vault({"index", "--check", "--json"}).out);
  REQUIRE(report["findings"].size() >= 2);
  CHECK(report["findings"][0]["path"] == ".memory/10-Memories/MEM-broken.md");
  CHECK(report["findings"][1]["check"] == "stale-index");

  SECTION("a memory that turns unreadable after it was indexed is named the same way") {
    sandbox.write(".memory/10-Memories/MEM-broken.md",
                  "---\ntitle: \"x\"\ncreated: 2026-02-28\n---\n");
    REQUIRE(sandbox.vault({"index"}).code == 0);
    sandbox.write(".memory/10-Memories/MEM-broken.md",
                  "---\ntitle: \"x\"\ncreated: 2026-02-30\n---\n");
    const auto check = sandbox.vault({"index", "--check"});
    CHECK(check.code == 1);
    CHECK_THAT(check.out, Catch::StartsWith(".memory/10-Memories/MEM-broken.md:3: error:"));
  }
}

TEST_CASE("a corrupt memory-index.json is stale and named with its line", "[index]") {
  Sandbox sandbox;
  gv::test::write_scored_vault(sandbox);
  sandbox.write(".memory/memory-index.json", "{\n  \"version\": \"1.0.0\",\n  oops\n");
  const auto result = sandbox.vault({"index", "--check"});
  CHECK(result.code == 1);
  CHECK_THAT(result.out, Catch::Contains(".memory/memory-index.json:3:"));
  REQUIRE(sandbox.vault({"index"}).code == 0);
  CHECK(sandbox.vault({"index", "--check"}).code == 0);
}

TEST_CASE("index says what it wrote, or that nothing needed writing", "[index][conventions]") {
  Sandbox sandbox;
  gv::test::write_scored_vault(sandbox);
  const auto fresh = sandbox.vault({"index"});
  REQUIRE(fresh.code == 0);
  CHECK_THAT(fresh.err, Catch::Contains("index files are up to date"));

  sandbox.write(".memory/10-Memories/MEM-new.md",
                gv::test::memory_file("New one", "2026-11-29", "n", 0, "null"));
  const auto wrote = sandbox.vault({"index"});
  REQUIRE(wrote.code == 0);
  CHECK_THAT(wrote.err, Catch::Contains("wrote 3 files: .memory/10-Memories/README.md, "
                                        ".memory/20-Indices/index.md, .memory/memory-index.json; "
                                        "stage them with `git add .memory/`"));
  sandbox.write(".memory/10-Memories/MEM-other.md",
                gv::test::memory_file("Other", "2026-11-29", "o", 0, "null"));
  CHECK(sandbox.vault({"-q", "index"}).err.empty());
}

TEST_CASE("the staging command a note prints works where it was run, a subdirectory included",
          "[index][recall][conventions]") {
  Sandbox sandbox;
  gv::test::write_scored_vault(sandbox);
  sandbox.write("src/deep/keep.txt", "x\n");
  sandbox.write(".memory/10-Memories/MEM-new.md",
                gv::test::memory_file("New one", "2026-11-29", "n", 0, "null"));
  sandbox.write("CLAUDE.local.md", "- Keep this short\n");
  sandbox.commit_all("new memory, untagged entry");
  // Each note's command, run as printed in the folder the command ran in.
  const auto staged_by_note = [&](const std::string& command, const std::string& expected) {
    const auto run = sandbox.sh(command + " 2>&1", "src/deep");
    INFO(run.out);
    REQUIRE(run.code == 0);
    const std::size_t begin = run.out.find("stage them with `");
    REQUIRE(begin != std::string::npos);
    const std::size_t from = begin + std::string("stage them with `").size();
    const std::string add = run.out.substr(from, run.out.find('`', from) - from);
    CHECK(add == expected);
    const auto staged = sandbox.sh(add, "src/deep");
    INFO(staged.err);
    CHECK(staged.code == 0);
  };
  staged_by_note("git vault index", "git add ../../.memory/");
  staged_by_note("git vault recall init-ids --yes",
                 "git add ../../CLAUDE.local.md ../../memory/.recall/metadata.json");
  CHECK(sandbox.git({"diff", "--quiet"}).code == 0);  // nothing left unstaged
  CHECK(sandbox.vault({"check"}).code == 0);
}

TEST_CASE("after a hand edit of a body, index brings the frontmatter's token_count to the index's",
          "[index]") {
  Sandbox sandbox;
  // `# Alpha` and 10 body words: 12 words, token_count 15 (D3), stated in the frontmatter.
  sandbox.write(".memory/10-Memories/MEM-a.md",
                gv::test::memory_file("Alpha", "2026-11-20", "a", 0, "null", "token_count: 15\n"));
  REQUIRE(sandbox.vault({"index"}).code == 0);
  sandbox.commit_all("vault");
  REQUIRE(json::parse(sandbox.read(".memory/memory-index.json"))["entries"][0]["token_count"] ==
          15);

  // Ten more words by hand: 22 words, the body counts 28, the frontmatter still says 15.
  std::string edited = sandbox.read(".memory/10-Memories/MEM-a.md");
  edited += "one two three four five six seven eight nine ten\n";
  sandbox.write(".memory/10-Memories/MEM-a.md", edited);
  const auto check = sandbox.vault({"index", "--check"});
  CHECK(check.code == 1);
  CHECK_THAT(check.out, Catch::Contains("token_count (index 15, the body counts 28)"));

  const auto index = sandbox.vault({"index"});
  INFO(index.err);
  REQUIRE(index.code == 0);
  CHECK_THAT(index.err, Catch::Contains("token_count refreshed to what the body counts in MEM-a"));
  CHECK_THAT(sandbox.read(".memory/10-Memories/MEM-a.md"), Catch::Contains("\ntoken_count: 28\n"));
  CHECK(json::parse(sandbox.read(".memory/memory-index.json"))["entries"][0]["token_count"] == 28);
  CHECK(sandbox.vault({"index", "--check"}).code == 0);
  // Run again, nothing is left to refresh.
  CHECK_THAT(sandbox.vault({"index"}).err, Catch::Contains("index files are up to date"));
}

TEST_CASE("on a large change, index names a few files and memories and counts the rest",
          "[index]") {
  Sandbox sandbox;
  for (int i = 0; i < 12; ++i) {
    sandbox.write(fmt::format(".memory/10-Memories/MEM-m{:02}.md", i),
                  gv::test::memory_file(fmt::format("Memory {}", i), "2026-11-20", "a", 0, "null",
                                        "token_count: 15\n"));
  }
  REQUIRE(sandbox.vault({"index"}).code == 0);
  sandbox.commit_all("vault");
  for (int i = 0; i < 12; ++i) {
    const std::string path = fmt::format(".memory/10-Memories/MEM-m{:02}.md", i);
    sandbox.write(path, sandbox.read(path) + "one two three four five six seven eight nine ten\n");
  }
  const auto index = sandbox.vault({"index"});
  INFO(index.err);
  REQUIRE(index.code == 0);
  // Twelve memories and the generated files: five names each, then the count of the rest.
  CHECK_THAT(index.err, Catch::Contains("token_count refreshed to what the body counts in "
                                        "MEM-m00, MEM-m01, MEM-m02, MEM-m03, MEM-m04 and 7 more"));
  CHECK_THAT(index.err, Catch::Matches("(.|\n)*wrote 1[0-9] files: [^\n]* and [0-9]+ more; stage "
                                       "them with `git add \\.memory/?`(.|\n)*"));
  for (int i = 0; i < 12; ++i) {
    // Every one refreshed, named in the note or not.
    CHECK_THAT(sandbox.read(fmt::format(".memory/10-Memories/MEM-m{:02}.md", i)),
               Catch::Contains("\ntoken_count: ") && !Catch::Contains("\ntoken_count: 15\n"));
  }
}

}  // namespace index_test
