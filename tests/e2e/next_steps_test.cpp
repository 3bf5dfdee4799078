#include <catch2/catch.hpp>
#include <string>

#include "tests/e2e/sandbox.hpp"
#include "tests/e2e/vault_fixture.hpp"

namespace next_steps_test {

// Every next step git-vault prints works when it is run as printed, off a terminal, where the
// user is. Each case runs the printed line through the shell, as a person pasting it would.

using gv::test::Result;
using gv::test::Sandbox;

namespace {

bool contains(const std::string& text, std::string_view part) {
  return text.find(part) != std::string::npos;
}

// The text after `prefix` up to the end of its line (or of the text).
std::string line_after(const std::string& text, std::string_view prefix) {
  const std::size_t at = text.find(prefix);
  REQUIRE(at != std::string::npos);
  const std::size_t start = at + prefix.size();
  return text.substr(start, text.find('\n', start) - start);
}

}  // namespace

TEST_CASE("the staging note after recall init-ids takes the metadata into the commit too",
          "[e2e][next-steps][recall]") {
  Sandbox sandbox;
  REQUIRE(sandbox.vault({"init", "--recall"}).code == 0);
  REQUIRE(sandbox.sh("git add -A && git commit -q -m 'working memory'").code == 0);
  sandbox.write("memory/registers/decisions.md", "# Decisions\n\n- Use tabs\n");
  const Result blocked = sandbox.sh("git add -A && git commit -q -m entry");
  INFO(blocked.err);
  REQUIRE(blocked.code != 0);
  const std::string fix = line_after(blocked.err, "fix: ");
  CHECK(fix == "git vault recall init-ids --yes");
  const Result tagged = sandbox.sh(fix);
  INFO(tagged.out << tagged.err);
  REQUIRE(tagged.code == 0);

  // The commit is blocked again until the ids are staged; the note names every file to stage.
  const Result again = sandbox.sh("git commit -q -m entry");
  INFO(again.err);
  REQUIRE(again.code != 0);
  const std::string stage = line_after(again.err, "if they are your fix, stage them: ");
  CHECK(contains(stage, "memory/registers/decisions.md"));
  CHECK(contains(stage, "memory/.recall/metadata.json"));
  const Result commit = sandbox.sh(stage + " && git commit -q -m entry");
  INFO(commit.err);
  CHECK(commit.code == 0);
  CHECK(sandbox.git({"status", "--porcelain"}).out.empty());
}

TEST_CASE("a conflicted register file gets the fix a register needs, and it works",
          "[e2e][next-steps][merge]") {
  Sandbox sandbox;
  REQUIRE(sandbox.vault({"init", "--recall"}).code == 0);
  sandbox.write("memory/registers/decisions.md", "# Decisions\n\n- Use tabs ^tr0000000001\n");
  REQUIRE(sandbox.sh("git add -A && git commit -q -m base").code == 0);
  REQUIRE(sandbox.git({"checkout", "-q", "-b", "feature"}).code == 0);
  sandbox.write("memory/registers/decisions.md", "# Decisions\n\n- Use spaces ^tr0000000001\n");
  REQUIRE(sandbox.sh("git commit -q -am spaces").code == 0);
  REQUIRE(sandbox.git({"checkout", "-q", "main"}).code == 0);
  sandbox.write("memory/registers/decisions.md",
                "# Decisions\n\n- Use tabs, always ^tr0000000001\n");
  REQUIRE(sandbox.sh("git commit -q -am always").code == 0);
  REQUIRE(sandbox.git({"merge", "--no-edit", "feature"}).code != 0);

  const Result check = sandbox.vault({"check"});
  INFO(check.out);
  CHECK(check.code == 1);
  const std::string fix = line_after(check.out, "fix: ");
  CHECK(fix == "resolve it (edit it, then git add memory/registers/decisions.md), then commit");
  CHECK_FALSE(contains(check.out, ".memory"));
  sandbox.write("memory/registers/decisions.md", "# Decisions\n\n- Use tabs ^tr0000000001\n");
  const Result done =
      sandbox.sh("git add memory/registers/decisions.md && git commit -q --no-edit");
  INFO(done.err);
  CHECK(done.code == 0);
}

TEST_CASE("recall maintain --decide on a run with no candidates says there is nothing to decide",
          "[e2e][next-steps][recall]") {
  Sandbox sandbox;
  sandbox.write("CLAUDE.local.md", "# Working memory\n\n- Prefers tabs ^tr0000000001\n");
  sandbox.commit_all();
  const Result decide = sandbox.vault({"recall", "maintain", "--decide", "1=keep"});
  CHECK(decide.code == 129);
  CHECK(contains(decide.err,
                 "--decide '1=keep': this run lists no candidates, so there is "
                 "nothing to decide"));
  CHECK_FALSE(contains(decide.err, "1 to 0"));
  // The command it names works.
  CHECK(sandbox.sh("git vault recall maintain --dry-run").code == 0);
}

TEST_CASE("a purge of one memory says one memory", "[e2e][next-steps][distill]") {
  Sandbox sandbox;
  gv::test::write_scored_vault(sandbox);
  const Result dry = sandbox.vault({"distill", "--purge", "--dry-run"});
  INFO(dry.out);
  CHECK_FALSE(contains(dry.out, " 1 memories"));
  const Result purge = sandbox.vault({"distill", "--purge", "--select", "MEM-delta"});
  INFO(purge.err);
  REQUIRE(purge.code == 0);
  CHECK(contains(sandbox.read(".memory/distill-log.json"), "\"Tombstoned 1 memory. Link-scan"));
  CHECK_FALSE(contains(purge.out + purge.err, "1 memories"));
}

}  // namespace next_steps_test
