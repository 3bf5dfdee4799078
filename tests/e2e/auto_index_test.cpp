#include <catch2/catch.hpp>
#include <string>

#include "tests/e2e/sandbox.hpp"
#include "tests/e2e/vault_fixture.hpp"

namespace auto_index_test {

// The pre-commit gate regenerates stale index files into the commit itself (doc/decisions.md,
// D21): a hand edit of a memory commits in one step, however git is asked to commit it, and
// the gate still blocks where regenerating is not safe.

using gv::test::Result;
using gv::test::Sandbox;

namespace {

bool contains(const std::string& text, std::string_view part) {
  return text.find(part) != std::string::npos;
}

std::string memory(const std::string& title, const std::string& summary,
                   const std::string& body = "First paragraph.\n") {
  return "---\ntitle: \"" + title +
         "\"\ncreated: 2026-11-01\ntags: [PATTERN]\ntopic: \"tests\"\nkeywords: [k]\nsummary: \"" +
         summary + "\"\n---\n\n# " + title + "\n\n" + body;
}

// Ten lines of body between the frontmatter and the last line, so that an edit of the summary
// and an edit of the last line are two hunks `git add -p` offers one by one.
std::string long_body(const std::string& last) {
  std::string body;
  for (int i = 1; i <= 10; ++i) {
    body += "Line " + std::to_string(i) + " of the body.\n";
  }
  return body + last + "\n";
}

// An initialised vault with two memories, committed through the hooks.
void start(Sandbox& sandbox) {
  const Result init = sandbox.vault({"init"});
  INFO(init.err);
  REQUIRE(init.code == 0);
  sandbox.write(".memory/10-Memories/MEM-a.md", memory("Alpha", "Old summary", long_body("End.")));
  sandbox.write(".memory/10-Memories/MEM-b.md", memory("Beta", "Beta summary"));
  REQUIRE(sandbox.vault({"index"}).code == 0);
  const Result commit = sandbox.sh("git add -A && git commit -q -m 'two memories'");
  INFO(commit.err);
  REQUIRE(commit.code == 0);
}

std::string head_file(const Sandbox& sandbox, const std::string& path) {
  return sandbox.git({"show", "HEAD:" + path}).out;
}

std::string staged_file(const Sandbox& sandbox, const std::string& path) {
  return sandbox.git({"show", ":" + path}).out;
}

// The index files HEAD holds are the regeneration of HEAD's memories, and the work tree's
// copies are HEAD's: nothing left to commit, nothing stale.
void committed_and_clean(const Sandbox& sandbox) {
  const Result range = sandbox.vault({"check", "--range", "HEAD"});
  INFO(range.out << range.err);
  CHECK(range.code == 0);
  for (const char* path : {".memory/memory-index.json", ".memory/20-Indices/index.md",
                           ".memory/10-Memories/README.md"}) {
    CHECK(sandbox.read(path) == head_file(sandbox, path));
    CHECK(staged_file(sandbox, path) == head_file(sandbox, path));
  }
}

}  // namespace

TEST_CASE("a hand edit of a memory commits in one step with git commit -a, index regenerated",
          "[e2e][hooks][auto-index]") {
  Sandbox sandbox;
  start(sandbox);
  sandbox.write(".memory/10-Memories/MEM-a.md", memory("Alpha", "New summary", long_body("End.")));
  const Result commit = sandbox.sh("git commit -q -am 'edit the summary'");
  INFO(commit.err);
  REQUIRE(commit.code == 0);
  // A summary is in memory-index.json alone: one file named.
  CHECK(contains(commit.err,
                 "git-vault: regenerated .memory/memory-index.json from the staged "
                 "memories into this commit (git config vault.autoIndex false blocks "
                 "instead)\n"));
  CHECK_FALSE(contains(commit.err, "blocked"));
  CHECK(contains(head_file(sandbox, ".memory/memory-index.json"), "New summary"));
  CHECK(sandbox.git({"status", "--porcelain"}).out.empty());
  committed_and_clean(sandbox);
}

TEST_CASE("a staged hand edit commits in one step with a plain git commit",
          "[e2e][hooks][auto-index]") {
  Sandbox sandbox;
  start(sandbox);
  sandbox.write(".memory/10-Memories/MEM-b.md", memory("Beta rewritten", "Beta summary"));
  REQUIRE(sandbox.git({"add", ".memory/10-Memories/MEM-b.md"}).code == 0);
  const Result commit = sandbox.sh("git commit -q -m 'edit beta'");
  INFO(commit.err);
  REQUIRE(commit.code == 0);
  // A title is in all three, named in the order the gate names them.
  CHECK(contains(commit.err,
                 "git-vault: regenerated .memory/memory-index.json, "
                 ".memory/20-Indices/index.md and .memory/10-Memories/README.md from "
                 "the staged memories into this commit"));
  CHECK(contains(head_file(sandbox, ".memory/20-Indices/index.md"), "Beta rewritten"));
  CHECK(sandbox.git({"status", "--porcelain"}).out.empty());
  committed_and_clean(sandbox);

  SECTION("an unrelated commit afterwards is not touched") {
    sandbox.write("notes.txt", "unrelated\n");
    const Result unrelated = sandbox.sh("git add notes.txt && git commit -q -m notes");
    CHECK(unrelated.code == 0);
    CHECK(unrelated.err.empty());
  }
}

TEST_CASE("git commit <paths> puts the regeneration into the commit and into the real index",
          "[e2e][hooks][auto-index]") {
  Sandbox sandbox;
  start(sandbox);
  // Something else staged, which `git commit <path>` leaves staged and out of the commit.
  sandbox.write("notes.txt", "staged, not committed\n");
  REQUIRE(sandbox.git({"add", "notes.txt"}).code == 0);
  sandbox.write(".memory/10-Memories/MEM-b.md", memory("Beta", "Beta, by path"));
  const Result commit = sandbox.sh("git commit -q -m 'beta by path' .memory/10-Memories/MEM-b.md");
  INFO(commit.err);
  REQUIRE(commit.code == 0);
  CHECK(contains(commit.err, "git-vault: regenerated .memory/memory-index.json"));
  CHECK(contains(head_file(sandbox, ".memory/memory-index.json"), "Beta, by path"));
  CHECK(sandbox.git({"show", "--stat", "--format=", "HEAD"}).out.find("notes.txt") ==
        std::string::npos);
  CHECK(sandbox.git({"status", "--porcelain"}).out == "A  notes.txt\n");
  committed_and_clean(sandbox);
}

TEST_CASE("a memory staged in part with git add -p blocks the commit, changing nothing",
          "[e2e][hooks][auto-index]") {
  Sandbox sandbox;
  start(sandbox);
  sandbox.write(".memory/10-Memories/MEM-a.md",
                memory("Alpha", "Partly staged summary", long_body("A new last line.")));
  // Two hunks: the summary is staged, the last line is not.
  const Result add = sandbox.sh("printf 'y\\nn\\n' | git add -p .memory/10-Memories/MEM-a.md");
  INFO(add.out << add.err);
  REQUIRE(add.code == 0);
  REQUIRE(contains(staged_file(sandbox, ".memory/10-Memories/MEM-a.md"), "Partly staged"));
  REQUIRE_FALSE(contains(staged_file(sandbox, ".memory/10-Memories/MEM-a.md"), "A new last"));
  const std::string index_before = staged_file(sandbox, ".memory/memory-index.json");

  const Result commit = sandbox.sh("git commit -q -m partial");
  INFO(commit.err);
  CHECK(commit.code != 0);
  CHECK(contains(commit.err, "[stale-index]"));
  CHECK(contains(commit.err,
                 "git-vault: note: .memory/10-Memories/MEM-a.md is only partly staged, so index "
                 "files regenerated from what is staged would describe a version the work tree "
                 "does not have; stage all of it and commit again (git add "
                 ".memory/10-Memories/MEM-a.md)"));
  CHECK(staged_file(sandbox, ".memory/memory-index.json") == index_before);
  CHECK(sandbox.read(".memory/memory-index.json") == index_before);

  SECTION("staged whole, it commits") {
    const Result whole =
        sandbox.sh("git add .memory/10-Memories/MEM-a.md && git commit -q -m whole");
    INFO(whole.err);
    CHECK(whole.code == 0);
    committed_and_clean(sandbox);
  }
  SECTION("the staged part alone, with the check skipped as the note says") {
    const Result part = sandbox.sh("GIT_VAULT_SKIP=stale-index git commit -q -m part");
    CHECK(part.code == 0);
  }
}

TEST_CASE("git add -p of one whole memory commits it with the index of what is staged",
          "[e2e][hooks][auto-index]") {
  Sandbox sandbox;
  start(sandbox);
  sandbox.write(".memory/10-Memories/MEM-a.md", memory("Alpha", "Staged", long_body("End.")));
  sandbox.write(".memory/10-Memories/MEM-b.md", memory("Beta", "Not staged"));
  const Result add = sandbox.sh("printf 'y\\n' | git add -p .memory/10-Memories/MEM-a.md");
  INFO(add.out << add.err);
  REQUIRE(add.code == 0);
  const Result commit = sandbox.sh("git commit -q -m 'alpha only'");
  INFO(commit.err);
  REQUIRE(commit.code == 0);
  const std::string index = head_file(sandbox, ".memory/memory-index.json");
  CHECK(contains(index, "\"Staged\""));
  CHECK(contains(index, "\"Beta summary\""));
  CHECK_FALSE(contains(index, "Not staged"));
  // Beta stays a change of the user's; the index files are clean.
  CHECK(sandbox.git({"status", "--porcelain"}).out == " M .memory/10-Memories/MEM-b.md\n");
}

TEST_CASE("a hand edit of a generated file blocks the commit and is kept",
          "[e2e][hooks][auto-index]") {
  Sandbox sandbox;
  start(sandbox);
  const std::string edited = sandbox.read(".memory/20-Indices/index.md") + "\nMy own notes.\n";
  sandbox.write(".memory/20-Indices/index.md", edited);
  sandbox.write(".memory/10-Memories/MEM-b.md", memory("Beta", "Beta, edited"));
  const Result commit = sandbox.sh("git commit -q -am both");
  INFO(commit.err);
  CHECK(commit.code != 0);
  CHECK(contains(commit.err,
                 "git-vault: note: .memory/20-Indices/index.md is staged with changes "
                 "no regeneration made"));
  CHECK(sandbox.read(".memory/20-Indices/index.md") == edited);
}

TEST_CASE("an unstaged hand edit of a generated file stays in the work tree",
          "[e2e][hooks][auto-index]") {
  Sandbox sandbox;
  start(sandbox);
  const std::string readme = sandbox.read(".memory/10-Memories/README.md") + "\nDraft.\n";
  sandbox.write(".memory/10-Memories/README.md", readme);
  sandbox.write(".memory/10-Memories/MEM-b.md", memory("Beta edited", "Beta summary"));
  const Result commit =
      sandbox.sh("git add .memory/10-Memories/MEM-b.md && git commit -q -m 'beta only'");
  INFO(commit.err);
  REQUIRE(commit.code == 0);
  CHECK(sandbox.read(".memory/10-Memories/README.md") == readme);
  CHECK(contains(head_file(sandbox, ".memory/10-Memories/README.md"), "Beta edited"));
  CHECK(sandbox.git({"status", "--porcelain"}).out == " M .memory/10-Memories/README.md\n");
}

TEST_CASE("vault.autoIndex false keeps the gate blocking a stale index",
          "[e2e][hooks][auto-index]") {
  Sandbox sandbox;
  start(sandbox);
  REQUIRE(sandbox.git({"config", "vault.autoIndex", "false"}).code == 0);
  sandbox.write(".memory/10-Memories/MEM-b.md", memory("Beta", "Beta, edited"));
  const Result commit = sandbox.sh("git commit -q -am edit");
  CHECK(commit.code != 0);
  CHECK(contains(commit.err, "[stale-index]"));
  CHECK(contains(commit.err, "fix: git vault index && git add :/.memory"));
  CHECK_FALSE(contains(commit.err, "regenerated"));
  CHECK(staged_file(sandbox, ".memory/memory-index.json") ==
        head_file(sandbox, ".memory/memory-index.json"));
}

TEST_CASE("retrieval counts only the staged index holds block the commit instead of being lost",
          "[e2e][hooks][auto-index]") {
  Sandbox sandbox;
  start(sandbox);
  // An index an older tool wrote: counts in it that the memory file lacks.
  std::string index = sandbox.read(".memory/memory-index.json");
  const std::string from = "\"retrieval_count\": 0";
  REQUIRE(index.find(from) != std::string::npos);
  index.replace(index.find(from), from.size(), "\"retrieval_count\": 7");
  sandbox.write(".memory/memory-index.json", index);
  REQUIRE(sandbox.sh("git commit -q --no-verify -am 'older index'").code == 0);
  sandbox.write(".memory/10-Memories/MEM-b.md", memory("Beta", "Beta, edited"));
  const Result commit = sandbox.sh("git commit -q -am edit");
  INFO(commit.err);
  CHECK(commit.code != 0);
  CHECK(contains(commit.err, "holds retrieval counts"));
  CHECK(contains(commit.err, "git vault index && git add :/.memory"));
  // The fix, as printed, commits.
  REQUIRE(sandbox.sh("git vault index && git add :/.memory").code == 0);
  CHECK(sandbox.sh("git commit -q -m edit").code == 0);
}

TEST_CASE("a resolved merge conflict commits in one step with the index regenerated",
          "[e2e][hooks][auto-index][merge]") {
  Sandbox sandbox;
  start(sandbox);
  REQUIRE(sandbox.git({"checkout", "-q", "-b", "feature"}).code == 0);
  sandbox.write(".memory/10-Memories/MEM-b.md", memory("Beta", "Feature's summary"));
  sandbox.write(".memory/10-Memories/MEM-f.md", memory("Feature", "Feature memory"));
  REQUIRE(sandbox.sh("git add -A && git commit -q -m feature").code == 0);
  REQUIRE(sandbox.git({"checkout", "-q", "main"}).code == 0);
  sandbox.write(".memory/10-Memories/MEM-b.md", memory("Beta", "Main's summary"));
  sandbox.write(".memory/10-Memories/MEM-m.md", memory("Main", "Main memory"));
  REQUIRE(sandbox.sh("git add -A && git commit -q -m main").code == 0);

  const Result merge = sandbox.git({"merge", "--no-edit", "feature"});
  REQUIRE(merge.code != 0);
  sandbox.write(".memory/10-Memories/MEM-b.md", memory("Beta", "Both summaries"));
  REQUIRE(sandbox.git({"add", ".memory/10-Memories/MEM-b.md"}).code == 0);
  const Result commit = sandbox.sh("git commit -q --no-edit");
  INFO(commit.err);
  REQUIRE(commit.code == 0);
  CHECK(contains(commit.err, "git-vault: regenerated .memory/memory-index.json"));
  CHECK(sandbox.git({"rev-list", "--parents", "-1", "HEAD"}).out.size() == 3 * 41);
  const std::string index = head_file(sandbox, ".memory/memory-index.json");
  CHECK(contains(index, "MEM-f"));
  CHECK(contains(index, "MEM-m"));
  CHECK(contains(index, "Both summaries"));
  CHECK(sandbox.git({"status", "--porcelain"}).out.empty());
  committed_and_clean(sandbox);
}

}  // namespace auto_index_test
