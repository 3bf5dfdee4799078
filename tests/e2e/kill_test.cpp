// The kill harness (doc/architecture.md, "Interruptions"): every writing command is killed with
// SIGKILL at fault points spread over its landing (GIT_VAULT_FAULT), and after each kill the
// repository must be exactly as before or exactly as after the command once the next run has
// settled it: HEAD, the index, the vault files and `git status` all match one side, `git fsck`
// is clean, the gate says what it said on that side, no temporary file is left anywhere, an
// unrelated `git commit` keeps the vault as it is, and running the command again succeeds.
//
// CI runs every point of every command, spread over at most 24 per command; GIT_VAULT_KILL_LONG=1
// runs every point and also kills each recovery once.
#include <fmt/format.h>

#include <algorithm>
#include <catch2/catch.hpp>
#include <cstdlib>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "tests/e2e/kill_support.hpp"
#include "tests/e2e/sandbox.hpp"

namespace kill_test {

using gv::test::KillScenario;
using gv::test::Result;
using gv::test::run_kill_scenario;
using gv::test::Sandbox;

TEST_CASE("a purge killed at any point leaves the repository before or after", "[kill]") {
  run_kill_scenario({"purge", "", {"distill", "--purge", "--all"}});
}

TEST_CASE("a merge killed at any point leaves the repository before or after", "[kill]") {
  run_kill_scenario({"merge", "", {"distill", "--merge", "--all"}});
}

TEST_CASE("a compress killed at any point leaves the repository before or after", "[kill]") {
  run_kill_scenario({"compress", "", {"distill", "--compress", "--all"}});
}

TEST_CASE("a refine killed at any point leaves the repository before or after", "[kill]") {
  run_kill_scenario({"refine", "", {"distill", "--refine", "--all"}});
}

TEST_CASE("an automatic run killed at any point leaves the repository before or after", "[kill]") {
  run_kill_scenario({"auto", "", {"distill", "--auto"}});
}

TEST_CASE("a --no-commit purge killed at any point leaves the work tree before or after",
          "[kill]") {
  run_kill_scenario({"purge --no-commit", "", {"distill", "--purge", "--all", "--no-commit"}});
}

TEST_CASE("a gc killed at any point leaves the repository before or after", "[kill]") {
  run_kill_scenario({"gc", "", {"--today", "2026-12-10", "distill", "--gc", "--all"}});
}

TEST_CASE("a recorded report killed at any point leaves the repository before or after", "[kill]") {
  run_kill_scenario({"report", "", {"distill", "--record"}});
}

TEST_CASE("a revert killed at any point leaves the repository before or after", "[kill]") {
  run_kill_scenario(
      {"revert", "git vault distill --purge --select MEM-delta >/dev/null", {"revert", "HEAD"}});
}

TEST_CASE("an index run killed at any point leaves the work tree before or after", "[kill]") {
  run_kill_scenario({"index",
                     "sed -i 's/^summary: \"Alpha summary\"/summary: \"Alpha, edited\"/' "
                     ".memory/10-Memories/MEM-alpha.md",
                     {"index"}});
}

// `search --record` writes only the retrieval journal (D16); learn is the agent's command that
// lands a commit.
TEST_CASE("a learn killed at any point leaves the repository before or after", "[kill]") {
  run_kill_scenario({"learn",
                     "",
                     {"learn", "--title", "Circuit breakers", "--as", "new", "--text",
                      "Open the circuit after five failures and probe it again after a minute."}});
}

TEST_CASE("recall init-ids killed at any point leaves the work tree before or after", "[kill]") {
  run_kill_scenario({"init-ids",
                     "printf '# Decisions\\n\\n- Ship on Fridays only after the freeze\\n' >"
                     " memory/registers/decisions.md",
                     {"recall", "init-ids", "--yes"},
                     true});
}

TEST_CASE("recall maintain killed at any point leaves the repository before or after", "[kill]") {
  run_kill_scenario({"maintain", "", {"recall", "maintain", "--apply-all"}});
}

TEST_CASE("a report after a killed run settles it, so plain git works again", "[kill]") {
  Sandbox sandbox;
  gv::test::write_kill_fixture(sandbox);
  const std::string before = gv::test::repository_state(sandbox);
  // Killed while it holds git's index lock, with half the work tree written.
  const Result killed =
      sandbox.sh("GIT_VAULT_FAULT=worktree:1 git vault distill --purge --select MEM-delta");
  CHECK(killed.code != 0);
  REQUIRE(sandbox.exists(".git/index.lock"));
  // A command that only reads settles it first, and says so.
  const Result report = sandbox.vault({"distill", "--json"});
  CHECK(report.code == 0);
  CHECK_THAT(report.err, Catch::Contains("undid an interrupted git-vault run"));
  CHECK_FALSE(sandbox.exists(".git/index.lock"));
  CHECK(gv::test::leftovers(sandbox).empty());
  CHECK(gv::test::repository_state(sandbox) == before);
  sandbox.write("notes.txt", "plain git works\n");
  CHECK(sandbox.git({"add", "notes.txt"}).code == 0);
}

// git's own advice after a kill is to remove .git/index.lock; a commit made then would take the
// killed run's half-written vault files as the user's. The commit hook refuses until a git-vault
// command has settled the run.
TEST_CASE("a commit after a killed run is blocked until git-vault settles it", "[kill][hooks]") {
  Sandbox sandbox;
  gv::test::write_kill_fixture(sandbox);
  REQUIRE(sandbox.vault({"hooks", "install"}).code == 0);
  const std::string delta = sandbox.read(".memory/10-Memories/MEM-delta.md");
  const Result killed =
      sandbox.sh("GIT_VAULT_FAULT=worktree:1 git vault distill --purge --select MEM-delta");
  CHECK(killed.code != 0);
  REQUIRE(sandbox.exists(".git/index.lock"));
  REQUIRE(sandbox.sh("rm .git/index.lock").code == 0);
  sandbox.write("notes.txt", "mine\n");
  const Result commit = sandbox.sh("git add -A && git commit -q -m mine");
  CHECK(commit.code != 0);
  CHECK_THAT(commit.err, Catch::Contains("an interrupted git-vault run left .git/vault-journal; "
                                         "run `git vault check`"));
  REQUIRE(sandbox.sh("git reset -q").code == 0);

  // As it says: check settles the run, and then the commit holds the user's file alone.
  const Result check = sandbox.vault({"check"});
  CHECK_THAT(check.err, Catch::Contains("undid an interrupted git-vault run"));
  CHECK(sandbox.read(".memory/10-Memories/MEM-delta.md") == delta);
  const Result again = sandbox.sh("git add notes.txt && git commit -q -m mine");
  INFO(again.err);
  CHECK(again.code == 0);
  CHECK(sandbox.git({"show", "--name-only", "--format=", "HEAD"}).out == "notes.txt\n");
  CHECK(sandbox.git({"status", "--porcelain", "--", ".memory"}).out.empty());
}

// libgit2 moves the branch by creating refs/heads/main.lock, appending the reflog lines, writing
// the new id into the lock and renaming it over the branch (a link, which finds the branch there,
// then a rename). A kill at each of those system calls, injected with strace where our fault
// points cannot reach: the next command settles the landing, removes the lock and the reflog
// lines of a commit the branch never reached, and plain git commits again.
TEST_CASE("a purge killed inside the branch move leaves no lock and no reflog line", "[kill]") {
  Sandbox sandbox;
  if (sandbox.sh("command -v strace >/dev/null 2>&1").code != 0) {
    WARN("strace is not installed; skipped");
    return;
  }
  gv::test::write_kill_fixture(sandbox);
  const std::string base = sandbox.git({"rev-parse", "HEAD"}).out.substr(0, 40);
  const auto reset = [&] {
    REQUIRE(sandbox
                .sh(fmt::format("rm -rf .git/vault-journal .git/vault-tmp .git/index.lock "
                                ".git/refs/heads/main.lock && git reset -q --hard {} && "
                                "git clean -qfdx",
                                base))
                .code == 0);
  };
  const std::string before = gv::test::repository_state(sandbox);
  REQUIRE(sandbox.vault({"distill", "--purge", "--all"}).code == 0);
  const std::string after = gv::test::repository_state(sandbox);

  struct Window {
    const char* syscall;
    const char* lands;  // where the repository must end up
  };
  for (const Window window :
       {Window{"write", "before"}, Window{"link", "before"}, Window{"rename", "before"}}) {
    INFO("killed at the " << window.syscall << " of refs/heads/main.lock");
    reset();
    const Result killed = sandbox.sh(
        fmt::format("strace -f -qq -o /dev/null -P \"$PWD/.git/refs/heads/main.lock\" -e trace={0} "
                    "-e inject={0}:signal=KILL:when=1 git vault distill --purge --all </dev/null",
                    window.syscall));
    INFO(killed.err);
    CHECK(killed.code != 0);
    REQUIRE(sandbox.exists(".git/refs/heads/main.lock"));

    const Result settled = sandbox.vault({"distill", "--json"});
    INFO(settled.err);
    CHECK(settled.code == 0);
    CHECK_FALSE(sandbox.exists(".git/refs/heads/main.lock"));
    CHECK(gv::test::leftovers(sandbox).empty());
    CHECK(gv::test::repository_state(sandbox) ==
          (std::string_view(window.lands) == "before" ? before : after));
    CHECK(gv::test::reflogs_agree(sandbox));
    const Result commit = sandbox.git({"commit", "-q", "--allow-empty", "-m", "x"});
    INFO(commit.err);
    CHECK(commit.code == 0);
    CHECK(sandbox.vault({"check"}).code == 0);
  }
}

// A lock on the branch that no git-vault run left (a git command killed while it moved the
// branch): check reports it with the fix, and an action refuses up front saying what holds it.
TEST_CASE("check reports a branch lock nothing explains, and an action names it", "[kill]") {
  Sandbox sandbox;
  gv::test::write_kill_fixture(sandbox);
  REQUIRE(sandbox.vault({"check"}).code == 0);
  sandbox.write(".git/refs/heads/main.lock", "");
  const std::string before = gv::test::repository_state(sandbox);

  const Result check = sandbox.vault({"check"});
  CHECK(check.code == 1);
  CHECK_THAT(check.out, Catch::Contains(".git/refs/heads/main.lock"));
  CHECK_THAT(check.out, Catch::Contains("rm .git/refs/heads/main.lock"));

  const Result purge = sandbox.vault({"distill", "--purge", "--all"});
  CHECK(purge.code == 128);
  CHECK_THAT(purge.err, Catch::Contains("refs/heads/main.lock exists: another git command is "
                                        "updating refs/heads/main"));
  CHECK_THAT(purge.err, Catch::Contains("remove that file"));
  CHECK(gv::test::repository_state(sandbox) == before);
  CHECK(sandbox.exists(".git/refs/heads/main.lock"));

  REQUIRE(sandbox.sh("rm .git/refs/heads/main.lock").code == 0);
  CHECK(sandbox.vault({"check"}).code == 0);
  CHECK(sandbox.vault({"distill", "--purge", "--all"}).code == 0);
}

// The fold of the retrieval journal and the emptying of it are one step: a kill anywhere in
// `distill --record` (the fold's commit, then the report's) leaves every retrieval counted once,
// whether the agent reads it right away or the next fold moves it into frontmatter, and a
// retrieval recorded after the kill is kept.
TEST_CASE("a fold killed at any point counts every retrieval exactly once", "[kill][retrievals]") {
  Sandbox sandbox;
  gv::test::write_kill_fixture(sandbox);
  const std::string base = sandbox.git({"rev-parse", "HEAD"}).out.substr(0, 40);
  const auto reset = [&] {
    REQUIRE(sandbox
                .sh(fmt::format("rm -rf .git/vault-journal .git/vault-tmp .git/index.lock "
                                ".git/vault.lock .git/git-vault/retrievals.jsonl* && git reset -q "
                                "--hard {} && git clean -qfdx",
                                base))
                .code == 0);
    sandbox.write(".git/git-vault/retrievals.jsonl", gv::test::fixture_retrievals());
  };
  reset();
  std::map<std::string, std::int64_t> expected = gv::test::frontmatter_retrievals(sandbox);
  expected["MEM-r"] += 3;
  expected["MEM-s"] += 2;
  REQUIRE(gv::test::visible_retrievals(sandbox) == expected);
  const std::vector<std::string> args = {"distill", "--record"};
  sandbox.set_env("GIT_VAULT_FAULT", "count");
  const Result reference = sandbox.vault(args);
  sandbox.set_env("GIT_VAULT_FAULT", "");
  INFO(reference.err);
  REQUIRE(reference.code == 0);
  REQUIRE(gv::test::frontmatter_retrievals(sandbox) == expected);
  const std::vector<std::string> names = gv::test::fault_point_names(reference.err);
  REQUIRE(std::count(names.begin(), names.end(), "fold") == 1);
  std::map<std::string, std::int64_t> with_one_more = expected;
  with_one_more["MEM-r"] += 1;

  for (const int point : gv::test::points_to_kill(names, false)) {
    INFO("killed at fault point " << point << " (" << names[static_cast<std::size_t>(point - 1)]
                                  << ") of " << names.size());
    reset();
    sandbox.set_env("GIT_VAULT_FAULT", std::to_string(point));
    const Result killed = sandbox.vault(args);
    sandbox.set_env("GIT_VAULT_FAULT", "");
    INFO(killed.err);
    REQUIRE(killed.code == 128 + 9);
    CHECK(gv::test::visible_retrievals(sandbox) == expected);
    // The agent reads MEM-r once more before anything else runs.
    REQUIRE(sandbox.vault({"show", "MEM-r", "--record"}).code == 0);
    CHECK(gv::test::visible_retrievals(sandbox) == with_one_more);
    const Result settled = sandbox.vault({"check"});
    INFO(settled.err);
    CHECK(gv::test::leftovers(sandbox).empty());
    CHECK_FALSE(sandbox.exists(".git/git-vault/retrievals.jsonl.new"));
    CHECK(gv::test::reflogs_agree(sandbox));
    // The next fold moves what is left into frontmatter: each retrieval once.
    const Result again = sandbox.vault(args);
    INFO(again.err);
    CHECK(again.code == 0);
    CHECK(gv::test::frontmatter_retrievals(sandbox) == with_one_more);
    CHECK(gv::test::visible_retrievals(sandbox) == with_one_more);
    CHECK(sandbox.read(".git/git-vault/retrievals.jsonl").empty());
    CHECK(sandbox.sh("git fsck --no-dangling --no-progress 2>&1").out.empty());
    const Result unrelated = sandbox.sh(
        "echo unrelated > unrelated.txt && git add unrelated.txt && git commit -qm unrelated &&"
        " git diff --name-only HEAD~1 HEAD");
    CHECK(unrelated.out == "unrelated.txt\n");
  }
}

// What a run killed before its journal leaves, git-vault's or libgit2's, the next run or check
// removes; a temporary of a process still running stays.
TEST_CASE("leftovers of killed runs are removed by the next check", "[kill]") {
  Sandbox sandbox;
  gv::test::write_kill_fixture(sandbox);
  const std::string before = gv::test::repository_state(sandbox);
  // A pid no process has any more, and one that is running.
  const std::string dead = std::to_string(std::stoi(sandbox.sh("sh -c 'echo $$'").out));
  REQUIRE(sandbox.sh("sleep 60 >/dev/null 2>&1 & echo $! > .git/live.pid").code == 0);
  const std::string live = std::to_string(std::stoi(sandbox.read(".git/live.pid")));
  const std::vector<std::string> orphans = {
      ".git/vault-journal.new",
      ".git/objects/tmp_object_git2_a1b2c3",
      ".git/git-vault/.generated.tmp-" + dead,
      ".git/git-vault/.stat-cache.tmp-" + dead,
      ".git/git-vault/.gate-baseline.tmp-" + dead,
      ".git/git-vault/.parse-cache.tmp-" + dead,
  };
  for (const std::string& path : orphans) {
    sandbox.write(path, "half-written\n");
  }
  const std::string running = ".git/git-vault/.gate-baseline.tmp-" + live;
  sandbox.write(running, "being written\n");

  const Result check = sandbox.vault({"check"});
  INFO(check.err);
  CHECK(check.code == 0);
  for (const std::string& path : orphans) {
    INFO(path);
    CHECK_FALSE(sandbox.exists(path));
  }
  CHECK(sandbox.exists(running));
  CHECK(gv::test::repository_state(sandbox) == before);
  (void)sandbox.sh("kill $(cat .git/live.pid)");
}

// The journal's own temporary, left by a kill between its write and its rename (found with
// strace, where no fault point reaches), goes with the next landing.
TEST_CASE("a journal's temporary left by a kill goes with the next landing", "[kill]") {
  Sandbox sandbox;
  if (sandbox.sh("command -v strace >/dev/null 2>&1").code != 0) {
    WARN("strace is not installed; skipped");
    return;
  }
  gv::test::write_kill_fixture(sandbox);
  const std::string before = gv::test::repository_state(sandbox);
  const Result killed = sandbox.sh(
      "strace -f -qq -o /dev/null -P \"$PWD/.git/vault-journal.new\" -e trace=rename "
      "-e inject=rename:signal=KILL:when=1 git vault distill --purge --all </dev/null");
  CHECK(killed.code != 0);
  REQUIRE(sandbox.exists(".git/vault-journal.new"));
  CHECK(gv::test::repository_state(sandbox) == before);
  const Result again = sandbox.vault({"distill", "--purge", "--all"});
  INFO(again.err);
  CHECK(again.code == 0);
  CHECK(gv::test::leftovers(sandbox).empty());
}

// A journal that cannot be read (damaged outside git-vault) can be neither finished nor undone:
// every way in (a command, check, the commit hook) names it and the way out, and following that
// way works.
TEST_CASE("a journal that cannot be read names the way out, and the way works", "[kill]") {
  Sandbox sandbox;
  gv::test::write_kill_fixture(sandbox);
  REQUIRE(sandbox.vault({"hooks", "install"}).code == 0);
  const std::string delta = sandbox.read(".memory/10-Memories/MEM-delta.md");
  const Result killed =
      sandbox.sh("GIT_VAULT_FAULT=worktree:1 git vault distill --purge --select MEM-delta");
  REQUIRE(killed.code != 0);
  sandbox.write(".git/vault-journal", "git-vault journal 1\nsubject x\nbogus line\n");

  const std::string way_out =
      "mv .git/vault-journal .git/vault-journal.broken), remove .git/index.lock if no git "
      "command is running";
  const Result check = sandbox.vault({"check"});
  CHECK(check.code == 128);
  CHECK_THAT(check.err, Catch::Contains(".git/vault-journal:3: cannot read this journal line") &&
                            Catch::Contains(way_out));
  const Result report = sandbox.vault({"distill", "--json"});
  CHECK(report.code == 128);
  CHECK_THAT(report.err, Catch::Contains(way_out));
  // git's own advice is to remove index.lock; the commit hook then names the way out too.
  sandbox.write("notes.txt", "mine\n");
  const Result commit =
      sandbox.sh("rm -f .git/index.lock && git add notes.txt && git commit -qm x");
  CHECK(commit.code != 0);
  CHECK_THAT(commit.err, Catch::Contains("commit blocked") &&
                             Catch::Contains("mv .git/vault-journal .git/vault-journal.broken"));

  // The way out: move the journal aside, restore what the run changed.
  REQUIRE(sandbox
              .sh("mv .git/vault-journal .git/vault-journal.broken &&"
                  " git restore --staged --worktree .memory")
              .code == 0);
  CHECK(sandbox.read(".memory/10-Memories/MEM-delta.md") == delta);
  CHECK(sandbox.vault({"check"}).code == 0);
  const Result again = sandbox.sh("git commit -qm mine");
  INFO(again.err);
  CHECK(again.code == 0);
  CHECK(sandbox.git({"show", "--name-only", "--format=", "HEAD"}).out == "notes.txt\n");
  REQUIRE(sandbox.sh("rm .git/vault-journal.broken").code == 0);
  CHECK(gv::test::leftovers(sandbox).empty());
}

}  // namespace kill_test
