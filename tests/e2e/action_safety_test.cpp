// What every vault action guarantees around the commit (D7): the user's staged work is left
// alone, a dirty vault or a held lock stops the run before anything changes, a failure midway
// leaves the work tree, the index and HEAD as they were, and --no-commit stops at the work tree.
#include <fmt/format.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "core/git/lock.hpp"
#include "tests/e2e/sandbox.hpp"
#include "tests/e2e/vault_fixture.hpp"

namespace action_safety_test {

using gv::test::memory_file;
using gv::test::Sandbox;
using nlohmann::json;

namespace {

// Everything a failed or refused run must leave as it was.
struct RepoState {
  std::string head;
  std::string status;  // porcelain, untracked files listed one by one
  std::string index;   // `git ls-files -s`: the staging area's entries and blob ids
  std::string vault;   // the work tree's vault files and their bytes

  friend bool operator==(const RepoState&, const RepoState&) = default;
};

RepoState state_of(const Sandbox& sandbox) {
  RepoState state;
  state.head = sandbox.git({"rev-parse", "HEAD"}).out;
  state.status = sandbox.git({"status", "--porcelain", "--untracked-files=all"}).out;
  state.index = sandbox.git({"ls-files", "-s"}).out;
  for (const char* path : {".memory/10-Memories/MEM-alpha.md", ".memory/10-Memories/MEM-delta.md",
                           ".memory/10-Memories/MEM-gamma.md", ".memory/memory-index.json",
                           ".memory/20-Indices/index.md", ".memory/10-Memories/README.md"}) {
    state.vault += std::string{path} + "\n" + sandbox.read(path);
  }
  return state;
}

}  // namespace

TEST_CASE("an action leaves the user's staged file staged and out of its commit", "[action]") {
  Sandbox sandbox;
  gv::test::write_scored_vault(sandbox);
  sandbox.write("src/main.c", "int main(void) { return 0; }\n");
  REQUIRE(sandbox.git({"add", "src/main.c"}).code == 0);
  // A later unstaged edit (the same-size edit in the same second has a test of its own).
  sandbox.write("src/main.c", "int main(void) { return 10; }\n");

  REQUIRE(sandbox.vault({"distill", "--purge", "--select", "MEM-delta"}).code == 0);
  const auto files = sandbox.git({"show", "--name-only", "--format=", "HEAD"}).out;
  CHECK(files.find("src/") == std::string::npos);
  CHECK(sandbox.git({"status", "--porcelain"}).out == "AM src/main.c\n");
  CHECK(sandbox.git({"show", ":src/main.c"}).out == "int main(void) { return 0; }\n");
  CHECK(sandbox.read("src/main.c") == "int main(void) { return 10; }\n");
}

TEST_CASE("an action keeps a same-size edit of a staged file in the same second visible",
          "[action]") {
  // Git tells such an edit from the staged bytes only by content, and only while the index is
  // no newer than the entry ("racy git"). The action rewrites the index a second later, so it
  // must leave git a reason to look at the content.
  Sandbox sandbox;
  gv::test::write_scored_vault(sandbox);
  bool same_second = false;
  for (int attempt = 0; attempt < 5 && !same_second; ++attempt) {
    same_second = sandbox
                      .sh("s=$(date +%s); printf 'one\\n' > notes.txt && git add notes.txt && "
                          "printf 'two\\n' > notes.txt && [ \"$(date +%s)\" = \"$s\" ]")
                      .code == 0;
  }
  REQUIRE(same_second);
  sandbox.sh("sleep 1.2");  // the action's index is written in a later second

  REQUIRE(sandbox.vault({"distill", "--purge", "--select", "MEM-delta"}).code == 0);
  CHECK(sandbox.git({"status", "--porcelain", "notes.txt"}).out == "AM notes.txt\n");
  CHECK(sandbox.git({"show", ":notes.txt"}).out == "one\n");
  CHECK(sandbox.git({"diff", "--stat"}).out.find("notes.txt") != std::string::npos);
}

TEST_CASE("an action refuses a vault file with uncommitted changes", "[action]") {
  Sandbox sandbox;
  gv::test::write_scored_vault(sandbox);
  const std::string edited = memory_file("Alpha", "2026-11-20", "a, b, c, d, e", 0, "null", {}, 12);
  sandbox.write(".memory/10-Memories/MEM-alpha.md", edited);
  const RepoState before = state_of(sandbox);

  const auto result = sandbox.vault({"distill", "--purge", "--select", "MEM-delta"});
  CHECK(result.code == 128);
  CHECK_THAT(result.err, Catch::Contains(".memory/10-Memories/MEM-alpha.md"));
  CHECK(state_of(sandbox) == before);

  SECTION("--allow-dirty runs anyway and leaves the dirty file uncommitted") {
    const auto allowed =
        sandbox.vault({"distill", "--purge", "--select", "MEM-delta", "--allow-dirty"});
    INFO(allowed.err);
    REQUIRE(allowed.code == 0);
    CHECK_THAT(allowed.err,
               Catch::Contains("--allow-dirty: uncommitted changes stay out of the "
                               "commit, as they are: .memory/10-Memories/MEM-alpha.md"));
    CHECK(sandbox.git({"rev-parse", "HEAD~1"}).out == before.head);
    CHECK(sandbox.git({"log", "-1", "--format=%s"}).out == "vault(purge): tombstone MEM-delta\n");
    const auto files = sandbox.git({"show", "--name-only", "--format=", "HEAD"}).out;
    CHECK(files.find("MEM-alpha.md") == std::string::npos);
    CHECK(sandbox.read(".memory/10-Memories/MEM-alpha.md") == edited);
    CHECK_THAT(sandbox.git({"status", "--porcelain"}).out,
               Catch::Contains(" M .memory/10-Memories/MEM-alpha.md\n"));
  }
}

TEST_CASE("an action refuses to run while a live process holds the vault lock", "[action]") {
  Sandbox sandbox;
  gv::test::write_scored_vault(sandbox);
  // This test process is alive while the command runs: its pid and start time name it.
  const std::string lock =
      fmt::format("{} {}\n", ::getpid(), gv::git::process_start_time(::getpid()).value_or(0));
  sandbox.write(".git/vault.lock", lock);
  const RepoState before = state_of(sandbox);
  const auto result = sandbox.vault({"distill", "--purge", "--select", "MEM-delta"});
  CHECK(result.code == 128);
  CHECK_THAT(result.err, Catch::Contains(".git/vault.lock"));
  CHECK(state_of(sandbox) == before);
  CHECK(sandbox.read(".git/vault.lock") == lock);  // someone else's lock is not removed
}

TEST_CASE("a failure before the branch moves leaves work tree, index and HEAD untouched",
          "[action]") {
  Sandbox sandbox;
  gv::test::write_scored_vault(sandbox);
  // A directory, ignored by git, where the action must write its distill log: no one (not even
  // root, which ignores permission bits) can replace a non-empty directory with a file. The
  // dirty check passes over ignored files, so the run gets as far as staging its files.
  sandbox.write(".memory/distill-log.json/in-the-way", "not the log\n");
  sandbox.write(".git/info/exclude", ".home/\n.memory/distill-log.json/\n");
  sandbox.write("notes.txt", "staged\n");
  REQUIRE(sandbox.git({"add", "notes.txt"}).code == 0);
  const RepoState before = state_of(sandbox);

  const auto result = sandbox.vault({"distill", "--purge", "--all"});
  INFO(result.out << result.err);
  CHECK(result.code == 128);
  CHECK_THAT(result.err, Catch::Contains("distill-log.json"));
  CHECK(state_of(sandbox) == before);
  CHECK(sandbox.git({"diff"}).out.empty());
  CHECK(sandbox.git({"diff", "--cached", "--name-only"}).out == "notes.txt\n");
  CHECK_FALSE(sandbox.exists(".git/vault.lock"));
  CHECK(sandbox.read(".memory/distill-log.json/in-the-way") == "not the log\n");

  // Once the obstacle is gone the same run succeeds.
  REQUIRE(sandbox.sh("rm -r .memory/distill-log.json").code == 0);
  CHECK(sandbox.vault({"distill", "--purge", "--all"}).code == 0);
}

TEST_CASE("option --no-commit leaves the changes unstaged in the work tree", "[action]") {
  Sandbox sandbox;
  gv::test::write_scored_vault(sandbox);
  const std::string head = sandbox.git({"rev-parse", "HEAD"}).out;
  const auto result = sandbox.vault({"distill", "--purge", "--select", "MEM-delta", "--no-commit"});
  INFO(result.err);
  REQUIRE(result.code == 0);
  CHECK(sandbox.git({"rev-parse", "HEAD"}).out == head);
  CHECK(sandbox.git({"diff", "--cached", "--name-only"}).out.empty());
  CHECK(sandbox.git({"status", "--porcelain"}).out ==
        " M .memory/10-Memories/MEM-delta.md\n"
        " M .memory/10-Memories/README.md\n"
        " M .memory/20-Indices/index.md\n"
        " M .memory/memory-index.json\n"
        " M specs/state.json\n"
        "?? .memory/distill-log.json\n");
  CHECK_THAT(sandbox.read(".memory/10-Memories/MEM-delta.md"),
             Catch::Contains("status: tombstoned\n"));
  CHECK(sandbox.vault({"index", "--check"}).code == 0);
}

}  // namespace action_safety_test
