// Bad input never crashes git-vault, never loses data, and always names the file (and line).
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "tests/e2e/sandbox.hpp"
#include "tests/e2e/vault_fixture.hpp"

namespace bad_input_test {

using gv::test::Sandbox;
using nlohmann::json;

namespace {

struct BadFile {
  const char* name;
  std::string bytes;
  const char* where;       // expected `path:line` prefix of the message
  std::size_t scored = 4;  // a bad field falls back to its default; a bad file is left out
};

}  // namespace

TEST_CASE("each kind of broken memory is named with path and line and nothing is written",
          "[bad-input]") {
  const std::string dir = ".memory/10-Memories/";
  const std::vector<BadFile> cases{
      {"malformed YAML", "---\ntitle: \"ok\"\ncreated: 2026-01-01\nkeywords: [a, b\n---\nbody\n",
       ".memory/10-Memories/MEM-bad.md:"},
      {"missing title", "---\ncreated: 2026-01-01\n---\nbody\n",
       ".memory/10-Memories/MEM-bad.md:1:"},
      {"missing created", "---\ntitle: \"x\"\n---\nbody\n", ".memory/10-Memories/MEM-bad.md:1:"},
      {"invalid date", "---\ntitle: \"x\"\ncreated: 2026-02-30\n---\nbody\n",
       ".memory/10-Memories/MEM-bad.md:3:"},
      {"negative retrieval_count",
       "---\ntitle: \"x\"\ncreated: 2026-01-01\nretrieval_count: -4\n---\nbody\n",
       ".memory/10-Memories/MEM-bad.md:4:", 5},
      {"invalid UTF-8", "---\ntitle: \"caf\xe9\"\ncreated: 2026-01-01\n---\nbody\n",
       ".memory/10-Memories/MEM-bad.md:2:"},
      {"no frontmatter", "# Just a heading\n\nbody\n", ".memory/10-Memories/MEM-bad.md:1:"},
  };
  for (const BadFile& bad : cases) {
    DYNAMIC_SECTION(bad.name) {
      Sandbox sandbox;
      gv::test::write_scored_vault(sandbox);
      sandbox.write(dir + "MEM-bad.md", bad.bytes);

      const auto index = sandbox.vault({"index"});
      CHECK(index.code == 128);
      CHECK_THAT(index.err, Catch::Contains(bad.where));
      CHECK(sandbox.git({"status", "--porcelain"}).out == "?? .memory/10-Memories/MEM-bad.md\n");
      CHECK(sandbox.read(dir + "MEM-bad.md") == bad.bytes);

      const auto report = sandbox.vault({"distill", "--json"});
      CHECK(report.code == 0);  // the report scores what it can read and says what it skipped
      CHECK_THAT(report.err, Catch::Contains(bad.where));
      CHECK(json::parse(report.out)["memories"].size() == bad.scored);

      const auto purge = sandbox.vault({"distill", "--purge", "--all", "--allow-dirty"});
      CHECK(purge.code == 128);
      CHECK_THAT(purge.err, Catch::Contains(bad.where));
      CHECK(sandbox.git({"status", "--porcelain"}).out == "?? .memory/10-Memories/MEM-bad.md\n");
    }
  }
}

TEST_CASE("an oversized memory file is refused without being parsed", "[bad-input]") {
  Sandbox sandbox;
  gv::test::write_scored_vault(sandbox);
  std::string huge = "---\ntitle: \"big\"\ncreated: 2026-01-01\n---\n";
  huge.append(50u * 1024 * 1024, 'x');
  sandbox.write(".memory/10-Memories/MEM-huge.md", huge);
  const auto result = sandbox.vault({"distill", "--json"});
  CHECK(result.code == 0);
  CHECK_THAT(result.err, Catch::Contains(".memory/10-Memories/MEM-huge.md:1:"));
  CHECK(sandbox.vault({"index"}).code == 128);
}

TEST_CASE("a memory symlinked to a file outside the repository is never read", "[bad-input]") {
  Sandbox sandbox;
  gv::test::write_scored_vault(sandbox);
  const auto outside =
      sandbox.root().parent_path() / (sandbox.root().filename().string() + "-secret.md");
  REQUIRE(sandbox
              .sh("printf -- '---\\ntitle: \"secret\"\\ncreated: 2026-01-01\\n---\\nsecret "
                  "body\\n' > '" +
                  outside.string() + "'")
              .code == 0);
  REQUIRE(sandbox.sh("ln -s '" + outside.string() + "' .memory/10-Memories/MEM-link.md").code == 0);
  const auto result = sandbox.vault({"distill", "--json"});
  CHECK(result.code == 0);
  CHECK(json::parse(result.out)["memories"].size() == 4);
  CHECK(result.out.find("MEM-link") == std::string::npos);
  REQUIRE(sandbox.vault({"index"}).code == 0);
  CHECK_THAT(sandbox.read(".memory/memory-index.json"), !Catch::Contains("secret"));
  std::filesystem::remove(outside);
}

TEST_CASE("an empty vault reports zero memories and full health", "[bad-input]") {
  Sandbox sandbox;
  REQUIRE(sandbox.vault({"init", "--no-hooks"}).code == 0);
  const auto result = sandbox.vault({"distill", "--json"});
  REQUIRE(result.code == 0);
  const json report = json::parse(result.out);
  CHECK(report["memories"].empty());
  CHECK(report["health_score"] == 100);
  const auto purge = sandbox.vault({"distill", "--purge"});
  CHECK(purge.code == 0);
  CHECK_THAT(purge.out, Catch::Contains("No purge candidates found."));
}

TEST_CASE("a missing memory-index.json is stale and regenerated, never a crash", "[bad-input]") {
  Sandbox sandbox;
  gv::test::write_scored_vault(sandbox);
  REQUIRE(sandbox.git({"rm", "-q", ".memory/memory-index.json"}).code == 0);
  sandbox.commit_all("drop index");
  CHECK(sandbox.vault({"index", "--check"}).code == 1);
  CHECK(sandbox.vault({"distill", "--json"}).code == 0);
  REQUIRE(sandbox.vault({"index"}).code == 0);
  CHECK(sandbox.vault({"index", "--check"}).code == 0);
}

TEST_CASE("a memory a merge left conflict markers in is named at the marker", "[bad-input]") {
  Sandbox sandbox;
  gv::test::write_scored_vault(sandbox);
  const std::string path = ".memory/10-Memories/MEM-gamma.md";
  const std::string bytes = sandbox.read(path);
  const std::size_t title = bytes.find("title:");
  REQUIRE(title != std::string::npos);
  const std::size_t end = bytes.find('\n', title) + 1;
  // Line 2 holds the title; the markers wrap it, as git writes them.
  sandbox.write(path, bytes.substr(0, title) + "<<<<<<< HEAD\n" + bytes.substr(title, end - title) +
                          "=======\ntitle: \"Other side\"\n>>>>>>> feature\n" + bytes.substr(end));
  const auto check = sandbox.vault({"check", "--worktree"});
  CHECK(check.code == 1);
  CHECK_THAT(check.err + check.out,
             Catch::Contains(path + ":2: error: unreadable: a merge conflict is not resolved"));
  CHECK_THAT(check.err + check.out, Catch::Contains("delete those three lines"));
}

}  // namespace bad_input_test
