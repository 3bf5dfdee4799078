#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "tests/e2e/sandbox.hpp"
#include "tests/e2e/vault_fixture.hpp"

namespace range_delivers_test {

// `check --range` judges what a branch delivers (doc/decisions.md, D22): the tip, and what a
// commit added that the tip still has. A finding one commit introduced and a later one removed
// is a note; `--every-commit` makes every commit's findings count. `--format github` prints
// them as workflow commands that annotate the pull request's lines.

using gv::test::Result;
using gv::test::Sandbox;
using Json = nlohmann::json;

namespace {

bool contains(const std::string& text, std::string_view part) {
  return text.find(part) != std::string::npos;
}

std::string head(const Sandbox& sandbox, const std::string& rev = "HEAD") {
  return sandbox.git({"rev-parse", rev}).out.substr(0, 40);
}

std::string memory(const std::string& title) {
  return gv::test::memory_file(title, "2026-11-01", "k", 0, "null");
}

// An initialised vault with one memory, committed through the hooks on `main`, and a branch
// `feature` checked out from it.
void start(Sandbox& sandbox) {
  REQUIRE(sandbox.vault({"init"}).code == 0);
  sandbox.write(".memory/10-Memories/MEM-first.md", memory("First"));
  REQUIRE(sandbox.vault({"index"}).code == 0);
  const Result commit = sandbox.sh("git add -A && git commit -q -m 'first memory'");
  INFO(commit.err);
  REQUIRE(commit.code == 0);
  REQUIRE(sandbox.git({"checkout", "-q", "-b", "feature"}).code == 0);
}

// A commit made with --no-verify that leaves the index files behind, and the commit after it that
// regenerates them: the pull request of the issue this behaviour answers.
std::string break_then_fix(Sandbox& sandbox) {
  sandbox.write(".memory/10-Memories/MEM-second.md", memory("Second"));
  REQUIRE(sandbox.sh("git add -A && git commit -q --no-verify -m 'second memory'").code == 0);
  REQUIRE(sandbox.vault({"index"}).code == 0);
  REQUIRE(sandbox.sh("git add -A && git commit -q -m 'regenerate the index'").code == 0);
  return head(sandbox);
}

}  // namespace

TEST_CASE("check --range passes a pull request whose later commit fixed the index, with a note",
          "[e2e][check][range]") {
  Sandbox sandbox;
  start(sandbox);
  const std::string fix = break_then_fix(sandbox);
  const std::string broke = head(sandbox, "HEAD~1");

  const Result human = sandbox.vault({"check", "--range", "main..feature"});
  INFO(human.out << human.err);
  CHECK(human.code == 0);
  CHECK(contains(human.out, "commit " + broke.substr(0, 12) + " second memory\n"));
  CHECK(contains(human.out,
                 ".memory/memory-index.json:8: note: MEM-second is missing from the "
                 "index [stale-index]\n  fixed by " +
                     fix.substr(0, 12) + " regenerate the index\n"));
  CHECK_FALSE(contains(human.out, "rebase"));
  CHECK(contains(human.out, "0 errors, 0 warnings, "));
  CHECK(contains(human.out, "--every-commit"));

  const Result as_json = sandbox.vault({"check", "--range", "main..feature", "--format", "json"});
  REQUIRE(as_json.code == 0);
  const Json document = Json::parse(as_json.out);
  CHECK(document["ok"] == true);
  REQUIRE_FALSE(document["findings"].empty());
  for (const Json& finding : document["findings"]) {
    CHECK(finding["severity"] == "note");
    CHECK(finding["commit"] == broke);
    CHECK(finding["fixed_in"] == fix);
    CHECK(finding["fix"].is_null());
  }
  CHECK(Json::parse(sandbox.vault({"--json", "check", "--range", "main..feature"}).out) ==
        document);

  SECTION("--every-commit fails it, with the rewrite that repairs every commit") {
    const Result every = sandbox.vault({"check", "--range", "main..feature", "--every-commit"});
    INFO(every.out);
    CHECK(every.code == 1);
    CHECK(contains(every.out,
                   ".memory/memory-index.json:8: error: MEM-second is missing from the "
                   "index [stale-index]"));
    CHECK(contains(every.out, "fix: an index file no git-vault hook regenerated"));
    CHECK(contains(every.out, "git rebase -x"));
  }
}

TEST_CASE("check --range fails what an earlier commit added and the tip still has",
          "[e2e][check][range]") {
  Sandbox sandbox;
  start(sandbox);
  sandbox.write(".memory/10-Memories/MEM-second.md", memory("Second"));
  REQUIRE(sandbox.sh("git add -A && git commit -q --no-verify -m 'second memory'").code == 0);
  const std::string broke = head(sandbox);
  sandbox.write("notes.txt", "unrelated\n");
  REQUIRE(sandbox.sh("git add -A && git commit -q --no-verify -m 'unrelated'").code == 0);

  const Result human = sandbox.vault({"check", "--range", "main..feature"});
  INFO(human.out << human.err);
  CHECK(human.code == 1);
  CHECK(contains(human.out, "commit " + broke.substr(0, 12) + " second memory\n"));
  CHECK(contains(human.out, "error: MEM-second is missing from the index [stale-index]"));
  // One commit on top repairs the tip; nothing needs rewriting.
  CHECK(contains(human.out,
                 "fix: commit the regenerated index files on the branch: git vault "
                 "index --commit, then push"));

  const Result repair = sandbox.vault({"index", "--commit"});
  INFO(repair.out << repair.err);
  REQUIRE(repair.code == 0);
  const Result after = sandbox.vault({"check", "--range", "main..feature"});
  INFO(after.out);
  CHECK(after.code == 0);
  CHECK(contains(after.out, "note: MEM-second is missing from the index"));
}

TEST_CASE("check --format github prints workflow commands, escaped as GitHub reads them",
          "[e2e][check][range]") {
  Sandbox sandbox;
  start(sandbox);
  // A working-memory file whose name holds a comma and a colon, and an entry with a percent
  // sign: each must reach GitHub escaped, or the annotation names another file or ends early.
  sandbox.write("memory/registers/a,b:c.md", "# Notes\n\n- 50% done, no id yet\n");
  REQUIRE(sandbox.sh("git add -A && git commit -q --no-verify -m 'notes: untagged'").code == 0);
  const std::string broke = head(sandbox);

  const Result github = sandbox.vault({"check", "--range", "main..feature", "--format", "github"});
  INFO(github.out << github.err);
  CHECK(github.code == 1);
  CHECK(contains(github.out,
                 "::error file=memory/registers/a%2Cb%3Ac.md,line=3,title=git-vault "
                 "[missing-id]::entry has no id: \"50%25 done, no id yet\"%0Afix: git vault "
                 "recall init-ids --yes%0Aintroduced by " +
                     broke.substr(0, 12) + " notes: untagged\n"));

  SECTION("a finding fixed later is a notice") {
    sandbox.write("memory/registers/a,b:c.md", "# Notes\n\n- 50% done ^tr00000000aa\n");
    REQUIRE(sandbox.sh("git add -A && git commit -q --no-verify -m 'tag it'").code == 0);
    const Result fixed = sandbox.vault({"check", "--range", "main..feature", "--format", "github"});
    INFO(fixed.out);
    CHECK(fixed.code == 0);
    CHECK(contains(fixed.out, "::notice file=memory/registers/a%2Cb%3Ac.md,line=3,"));
    CHECK(contains(fixed.out, "%0Aintroduced by " + broke.substr(0, 12) +
                                  " notes: untagged; fixed by " + head(sandbox).substr(0, 12) +
                                  " tag it\n"));
  }
  SECTION("without a range, the staged gate's findings") {
    const Result staged = sandbox.vault({"check", "--format", "github"});
    CHECK(staged.code == 1);
    CHECK(contains(staged.out, "::error file=memory/registers/a%2Cb%3Ac.md,line=3,"));
    CHECK_FALSE(contains(staged.out, "introduced by"));
  }
}

TEST_CASE("check refuses --every-commit without a range and --json beside another format",
          "[e2e][check][range]") {
  Sandbox sandbox;
  start(sandbox);
  const Result every = sandbox.vault({"check", "--every-commit"});
  CHECK(every.code == 129);
  CHECK(contains(every.err, "--every-commit judges the commits of a range; give --range A..B"));
  const Result both = sandbox.vault({"--json", "check", "--format", "github"});
  CHECK(both.code == 129);
  CHECK(contains(both.err, "--json and --format github exclude each other"));
  const Result unknown = sandbox.vault({"check", "--format", "xml"});
  CHECK(unknown.code == 129);
}

}  // namespace range_delivers_test
