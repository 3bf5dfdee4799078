// Two processes at once (doc/architecture.md, "The lock before the read"). A run is stopped
// mid-way with GIT_VAULT_FAULT=stop:<point>:1 (SIGSTOP), a second command runs against it, and
// the first is let go with SIGCONT: one of them wins whole, the other changes nothing and says
// so, and nothing either read is lost.
#include <fmt/format.h>

#include <catch2/catch.hpp>
#include <cstdint>
#include <map>
#include <string>

#include "tests/e2e/kill_support.hpp"
#include "tests/e2e/sandbox.hpp"

namespace lock_test {

using gv::test::Result;
using gv::test::Sandbox;

namespace {

// Starts `git vault <args>` in the background, stopped at fault point `point`, and waits until
// it is stopped. Its output goes to .git/bg.out / .git/bg.err, its exit code to .git/bg.code.
void start_stopped(const Sandbox& sandbox, const std::string& point, const std::string& args) {
  const Result started = sandbox.sh(fmt::format(
      "rm -f .git/bg.code .git/bg.pid; (GIT_VAULT_FAULT=stop:{}:1 git vault {} >.git/bg.out "
      "2>.git/bg.err; echo $? "
      ">.git/bg.code) >/dev/null 2>&1 & "
      // git runs git-vault as its child: find that child and wait until it is stopped.
      "for i in $(seq 1 600); do"
      "  for p in $(pgrep -x git-vault); do"
      "    if tr '\\0' ' ' </proc/$p/environ 2>/dev/null | grep -q 'GIT_VAULT_FAULT=stop:{}:1' &&"
      "       [ \"$(cut -d' ' -f3 /proc/$p/stat)\" = T ] && [ \"$(readlink /proc/$p/cwd)\" = "
      "\"$PWD\" ]; then echo $p > .git/bg.pid; exit 0; fi;"
      "  done; sleep 0.05; "
      "done; exit 1",
      point, args, point));
  REQUIRE(started.code == 0);
}

// Lets the stopped run go on and returns its exit code once it has finished.
int resume(const Sandbox& sandbox) {
  const Result resumed = sandbox.sh(
      "kill -CONT $(cat .git/bg.pid); while [ ! -s .git/bg.code ]; do sleep 0.05; done; cat "
      ".git/bg.code");
  REQUIRE(resumed.code == 0);
  return std::stoi(resumed.out);
}

std::string head(const Sandbox& sandbox) { return sandbox.git({"rev-parse", "HEAD"}).out; }

}  // namespace

TEST_CASE("an action started while another holds the lock is refused and changes nothing",
          "[lock]") {
  Sandbox sandbox;
  gv::test::write_kill_fixture(sandbox);
  const std::string base = head(sandbox);
  start_stopped(sandbox, "worktree", "distill --purge --select MEM-delta");
  const std::string during = gv::test::repository_state(sandbox);

  const Result second = sandbox.vault({"distill", "--merge", "--all"});
  CHECK(second.code == 128);
  CHECK_THAT(second.err, Catch::Contains("another git-vault run is in progress") &&
                             Catch::Contains(".git/vault.lock"));
  CHECK(gv::test::repository_state(sandbox) == during);

  CHECK(resume(sandbox) == 0);
  CHECK(sandbox.git({"rev-parse", "HEAD~1"}).out == base);
  CHECK(sandbox.git({"log", "-1", "--format=%s"}).out == "vault(purge): tombstone MEM-delta\n");
  CHECK(gv::test::leftovers(sandbox).empty());
  // The refused run goes through once the first is done.
  CHECK(sandbox.vault({"distill", "--merge", "--all"}).code == 0);
}

TEST_CASE("check during a landing in progress says so and fails instead of passing", "[lock]") {
  Sandbox sandbox;
  gv::test::write_kill_fixture(sandbox);
  start_stopped(sandbox, "worktree", "distill --purge --select MEM-delta");
  const std::string during = gv::test::repository_state(sandbox);

  const Result check = sandbox.vault({"check"});
  CHECK(check.code == 128);
  CHECK_THAT(check.err, Catch::Contains("another git-vault run is half-way through landing a "
                                        "commit") &&
                            Catch::Contains("run git vault check again when it has finished"));
  CHECK(gv::test::repository_state(sandbox) == during);

  CHECK(resume(sandbox) == 0);
  CHECK(sandbox.vault({"check"}).code == 0);
}

TEST_CASE("a learn that read the vault before a purge refuses instead of landing", "[lock]") {
  Sandbox sandbox;
  gv::test::write_kill_fixture(sandbox);
  // learn has read the vault (MEM-delta active) and stops before it writes.
  start_stopped(sandbox, "read",
                "learn --title 'Circuit breakers' --as new --text 'Open the circuit after five "
                "failures.'");
  REQUIRE(sandbox.vault({"distill", "--purge", "--select", "MEM-delta"}).code == 0);
  const std::string purged = gv::test::repository_state(sandbox);

  CHECK(resume(sandbox) == 128);
  CHECK_THAT(sandbox.read(".git/bg.err"),
             Catch::Contains("changed while git-vault was running; nothing was changed"));
  CHECK(gv::test::repository_state(sandbox) == purged);
  CHECK_THAT(sandbox.read(".memory/10-Memories/MEM-delta.md"),
             Catch::Contains("status: tombstoned"));
  // Run again, it lands on the vault as it now is.
  CHECK(sandbox
            .vault({"learn", "--title", "Circuit breakers", "--as", "new", "--text",
                    "Open the circuit after five failures."})
            .code == 0);
}

TEST_CASE("search --record neither waits for nor disturbs a landing in progress", "[lock]") {
  Sandbox sandbox;
  gv::test::write_kill_fixture(sandbox);
  start_stopped(sandbox, "worktree", "distill --purge --select MEM-delta");
  const std::string during = gv::test::repository_state(sandbox);

  // The record goes to the journal in the git directory, not through the vault lock.
  const Result search = sandbox.vault({"search", "--record", "retry", "backoff"});
  CHECK(search.code == 0);
  CHECK(gv::test::repository_state(sandbox) == during);
  CHECK_THAT(sandbox.read(".git/git-vault/retrievals.jsonl"), Catch::Contains("MEM-r"));

  CHECK(resume(sandbox) == 0);
  CHECK(sandbox.git({"log", "-1", "--format=%s"}).out == "vault(purge): tombstone MEM-delta\n");
}

TEST_CASE("a gc that read the vault before a purge committed refuses instead of landing",
          "[lock]") {
  Sandbox sandbox;
  gv::test::write_kill_fixture(sandbox);
  sandbox.set_env("GIT_VAULT_TODAY", "2026-12-10");
  start_stopped(sandbox, "read", "distill --gc --all");
  REQUIRE(sandbox.vault({"distill", "--purge", "--select", "MEM-delta"}).code == 0);
  const std::string purged = head(sandbox);

  CHECK(resume(sandbox) == 128);
  CHECK_THAT(sandbox.read(".git/bg.err"), Catch::Contains("changed while git-vault was running"));
  CHECK(head(sandbox) == purged);
  CHECK(sandbox.vault({"check"}).code == 0);
}

TEST_CASE("an action refuses while a git command holds index.lock, and git refuses during one",
          "[lock]") {
  Sandbox sandbox;
  gv::test::write_kill_fixture(sandbox);
  const std::string before = gv::test::repository_state(sandbox);

  SECTION("index.lock held by git: the action changes nothing") {
    sandbox.write(".git/index.lock", "");
    const Result refused = sandbox.vault({"distill", "--purge", "--select", "MEM-delta"});
    CHECK(refused.code == 128);
    CHECK_THAT(refused.err,
               Catch::Contains("index.lock exists") && Catch::Contains("nothing was changed"));
    REQUIRE(sandbox.sh("rm .git/index.lock").code == 0);
    CHECK(gv::test::repository_state(sandbox) == before);
    CHECK(gv::test::leftovers(sandbox).empty());
    CHECK(sandbox.vault({"distill", "--purge", "--select", "MEM-delta"}).code == 0);
  }
  SECTION("an action in progress: `git add` fails on index.lock, then sees the action whole") {
    start_stopped(sandbox, "index", "distill --purge --select MEM-delta");
    sandbox.write("notes.txt", "mine\n");
    const Result add = sandbox.git({"add", "notes.txt"});
    CHECK(add.code != 0);
    CHECK_THAT(add.err, Catch::Contains("index.lock"));
    CHECK(resume(sandbox) == 0);
    REQUIRE(sandbox.git({"add", "notes.txt"}).code == 0);
    REQUIRE(sandbox.git({"commit", "-qm", "notes"}).code == 0);
    CHECK(sandbox.git({"diff", "--name-only", "HEAD~1", "HEAD"}).out == "notes.txt\n");
    CHECK(sandbox.git({"log", "-1", "--format=%s", "HEAD~1"}).out ==
          "vault(purge): tombstone MEM-delta\n");
  }
}

TEST_CASE("a signal that waited for a landing says the commit it let through", "[lock]") {
  Sandbox sandbox;
  gv::test::write_kill_fixture(sandbox);
  start_stopped(sandbox, "worktree", "distill --purge --select MEM-delta");
  // The signal waits while the landing runs; once the commit is made it ends the run. (SIGTERM:
  // a shell's background job ignores SIGINT.)
  REQUIRE(sandbox.sh("kill -TERM $(cat .git/bg.pid)").code == 0);
  CHECK(resume(sandbox) != 0);
  CHECK(sandbox.git({"log", "-1", "--format=%s"}).out == "vault(purge): tombstone MEM-delta\n");
  const std::string commit = sandbox.git({"rev-parse", "--short=12", "HEAD"}).out.substr(0, 12);
  CHECK_THAT(sandbox.read(".git/bg.err"),
             Catch::Contains("interrupted after the commit " + commit +
                             " was made; it stands (undo with `git vault revert " + commit + "`)"));
  CHECK(gv::test::leftovers(sandbox).empty());
  CHECK(sandbox.git({"status", "--porcelain"}).out.empty());
}

// A fold stopped after its commit, before it drops what it folded from the journal: a reader in
// between (which cannot settle a live run) counts each retrieval once, and so does the fold
// itself once it is let go.
TEST_CASE("a reader while a fold lands counts each retrieval once", "[lock][retrievals]") {
  Sandbox sandbox;
  gv::test::write_kill_fixture(sandbox);
  sandbox.write(".git/git-vault/retrievals.jsonl", gv::test::fixture_retrievals());
  std::map<std::string, std::int64_t> expected = gv::test::frontmatter_retrievals(sandbox);
  expected["MEM-r"] += 3;
  expected["MEM-s"] += 2;
  start_stopped(sandbox, "fold", "distill --record");
  CHECK(gv::test::frontmatter_retrievals(sandbox) == expected);  // the fold's commit stands
  CHECK(gv::test::visible_retrievals(sandbox) == expected);
  CHECK(resume(sandbox) == 0);
  CHECK(gv::test::visible_retrievals(sandbox) == expected);
  CHECK(sandbox.read(".git/git-vault/retrievals.jsonl").empty());
  CHECK(gv::test::leftovers(sandbox).empty());
}

// SIGTERM (or Ctrl-C) waits while a landing runs: a fold interrupted after its commit still
// empties the journal before the signal ends it, so the next fold counts nothing twice.
TEST_CASE("a fold interrupted by SIGTERM after its commit empties the journal first",
          "[lock][retrievals]") {
  Sandbox sandbox;
  gv::test::write_kill_fixture(sandbox);
  sandbox.write(".git/git-vault/retrievals.jsonl", gv::test::fixture_retrievals());
  std::map<std::string, std::int64_t> expected = gv::test::frontmatter_retrievals(sandbox);
  expected["MEM-r"] += 3;
  expected["MEM-s"] += 2;
  start_stopped(sandbox, "fold", "distill --record");
  REQUIRE(sandbox.sh("kill -TERM $(cat .git/bg.pid)").code == 0);
  CHECK(resume(sandbox) == 128 + 15);
  CHECK_THAT(sandbox.read(".git/bg.err"), Catch::Contains("interrupted after the commit"));
  CHECK(sandbox.read(".git/git-vault/retrievals.jsonl").empty());
  CHECK(gv::test::leftovers(sandbox).empty());
  CHECK(gv::test::visible_retrievals(sandbox) == expected);
  REQUIRE(sandbox.vault({"distill", "--record"}).code == 0);
  CHECK(gv::test::frontmatter_retrievals(sandbox) == expected);
}

// The files a landing in progress has written are its own: a second run that finds them says so
// instead of calling them the user's uncommitted changes.
TEST_CASE("a run that meets another's landing blames the landing, not uncommitted changes",
          "[lock]") {
  Sandbox sandbox;
  gv::test::write_kill_fixture(sandbox);
  start_stopped(sandbox, "worktree", "recall maintain --apply-all");
  const Result second = sandbox.vault({"recall", "maintain", "--apply-all"});
  CHECK(second.code == 128);
  CHECK_THAT(second.err, Catch::Contains("another git-vault run is landing a commit") ||
                             Catch::Contains("another git-vault run is in progress"));
  CHECK_THAT(second.err, !Catch::Contains("uncommitted changes"));
  CHECK(resume(sandbox) == 0);
  CHECK(gv::test::leftovers(sandbox).empty());
}

// A run that finds the vault lock held waits a moment for it, as git waits for a ref's lock:
// a learn started while a purge lands goes through once the purge is done, on top of it.
TEST_CASE("a learn started while a purge lands waits for it and then lands", "[lock]") {
  Sandbox sandbox;
  gv::test::write_kill_fixture(sandbox);
  start_stopped(sandbox, "worktree", "distill --purge --select MEM-delta");
  // The purge goes on half a second after the learn has started.
  const Result learn = sandbox.sh(
      "(sleep 0.5; kill -CONT $(cat .git/bg.pid)) & git vault learn --title 'Circuit breakers' "
      "--as new --text 'Open the circuit after five failures.'; code=$?; wait; exit $code");
  INFO(learn.err);
  CHECK(learn.code == 0);
  CHECK(resume(sandbox) == 0);
  CHECK(sandbox.git({"log", "-2", "--format=%s"}).out.find("vault(purge): tombstone MEM-delta") !=
        std::string::npos);
  CHECK(gv::test::leftovers(sandbox).empty());
}

}  // namespace lock_test
