#include "core/git/transaction.hpp"

#include <fmt/format.h>
#include <unistd.h>

#include <catch2/catch.hpp>

#include "core/error.hpp"
#include "core/git/lock.hpp"
#include "core/git/repo.hpp"
#include "tests/unit/git_test_repo.hpp"

namespace transaction_test {

using gv::Plan;
using gv::git::ApplyOptions;
using gv::git::hash_blob;
using gv::git::Repo;
using gv::test::EnvGuard;
using gv::test::TestRepo;

namespace {

using Files = std::vector<std::pair<std::string, std::string>>;

const std::vector<std::string> k_guarded{".memory/", "specs/state.json", "CLAUDE.local.md",
                                         "memory/"};

Plan purge_plan() {
  Plan plan;
  plan.subject = "vault(purge): remove MEM-2";
  plan.action = "purge";
  plan.log_id = "dl-0001";
  plan.memories = {"MEM-2"};
  return plan;
}

// A vault with two memories and an unrelated source file, committed.
void make_vault(const TestRepo& fixture) {
  fixture.write(".memory/10-Memories/MEM-1.md", "one\n");
  fixture.write(".memory/10-Memories/MEM-2.md", "two\n");
  fixture.write(".memory/index.md", "index v1\n");
  fixture.write("src/app.cpp", "int main() {}\n");
  fixture.commit_all("base");
}

// Every file under the work tree except .git, to prove nothing else appeared.
std::vector<std::string> work_tree_files(const TestRepo& fixture) {
  std::vector<std::string> out;
  for (auto it = std::filesystem::recursive_directory_iterator(fixture.root());
       it != std::filesystem::recursive_directory_iterator(); ++it) {
    if (it->path().filename() == ".git") {
      it.disable_recursion_pending();
      continue;
    }
    out.push_back(std::filesystem::relative(it->path(), fixture.root()).string());
  }
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace

TEST_CASE("a transaction commits exactly the plan's paths and keeps the user's staging",
          "[transaction]") {
  const TestRepo fixture;
  make_vault(fixture);
  const std::string base = *fixture.head();
  // The user's own work in progress: a staged new file and an unstaged edit.
  fixture.write("src/new.cpp", "staged by the user\n");
  fixture.stage("src/new.cpp");
  fixture.write("src/app.cpp", "edited, not staged\n");

  Plan plan = purge_plan();
  plan.write(".memory/index.md", "index v2\n");
  plan.write(".memory/90-Logs/distill-log.md", "log\n");
  plan.remove(".memory/10-Memories/MEM-2.md");
  Repo repo = Repo::discover(fixture.root());
  const auto id = gv::git::apply(repo, plan, ApplyOptions{true, false, k_guarded, {}, {}});

  REQUIRE(id.has_value());
  CHECK(fixture.head() == *id);
  CHECK(fixture.head_files() == Files{{".memory/10-Memories/MEM-1.md", hash_blob("one\n")},
                                      {".memory/90-Logs/distill-log.md", hash_blob("log\n")},
                                      {".memory/index.md", hash_blob("index v2\n")},
                                      {"src/app.cpp", hash_blob("int main() {}\n")}});
  const gv::git::CommitInfo info = repo.commit_info(*id);
  CHECK(info.parents == std::vector<std::string>{base});
  CHECK(info.message == plan.message());
  CHECK(gv::find_trailer(info.trailers, "Vault-Log-Id") == "dl-0001");

  // Work tree and index now hold the plan's content for its paths...
  CHECK(fixture.read(".memory/index.md") == "index v2\n");
  CHECK(fixture.read(".memory/90-Logs/distill-log.md") == "log\n");
  CHECK_FALSE(fixture.exists(".memory/10-Memories/MEM-2.md"));
  CHECK(fixture.staged(".memory/index.md") == hash_blob("index v2\n"));
  CHECK(fixture.staged(".memory/10-Memories/MEM-2.md").empty());
  CHECK(Repo::discover(fixture.root()).dirty_paths({".memory/"}).empty());
  // ...and the user's staged and unstaged work is exactly as it was.
  CHECK(fixture.staged("src/new.cpp") == hash_blob("staged by the user\n"));
  CHECK(fixture.staged("src/app.cpp") == hash_blob("int main() {}\n"));
  CHECK(fixture.read("src/app.cpp") == "edited, not staged\n");
  CHECK_FALSE(fixture.exists(".git/vault.lock"));
}

TEST_CASE("deleting the last file of a folder removes the folder from tree and disk",
          "[transaction]") {
  const TestRepo fixture;
  make_vault(fixture);
  fixture.write("memory/archive/2026.md", "- old\n");
  fixture.commit_all("archive");
  Plan plan = purge_plan();
  plan.remove("memory/archive/2026.md");
  plan.remove("memory/never-existed.md");  // deleting a missing file is not an error
  Repo repo = Repo::discover(fixture.root());
  gv::git::apply(repo, plan, ApplyOptions{true, false, k_guarded, {}, {}});
  CHECK(fixture.head_files().size() == 4);
  CHECK_FALSE(fixture.exists("memory"));
  CHECK(fixture.staged("memory/archive/2026.md").empty());
}

TEST_CASE("a transaction on an unborn branch makes the root commit", "[transaction]") {
  const TestRepo fixture;
  fixture.write("untracked.txt", "not mine\n");
  Plan plan = purge_plan();
  plan.subject = "vault(init): create the vault";
  plan.write(".memory/index.md", "empty\n");
  Repo repo = Repo::discover(fixture.root());
  const auto id = gv::git::apply(repo, plan, ApplyOptions{});
  REQUIRE(id.has_value());
  CHECK(fixture.head() == *id);
  CHECK(repo.commit_info(*id).parents.empty());
  CHECK(fixture.head_files() == Files{{".memory/index.md", hash_blob("empty\n")}});
  CHECK(fixture.staged(".memory/index.md") == hash_blob("empty\n"));
  CHECK(fixture.staged("untracked.txt").empty());
}

TEST_CASE("uncommitted changes in a guarded path refuse the run and change nothing",
          "[transaction]") {
  const TestRepo fixture;
  make_vault(fixture);
  const std::string base = *fixture.head();
  fixture.write(".memory/10-Memories/MEM-1.md", "user edit\n");
  Plan plan = purge_plan();
  plan.write(".memory/10-Memories/MEM-1.md", "vault edit\n");
  Repo repo = Repo::discover(fixture.root());

  CHECK_THROWS_WITH(
      gv::git::apply(repo, plan, ApplyOptions{true, false, k_guarded, {}, {}}),
      Catch::Contains("uncommitted changes") && Catch::Contains(".memory/10-Memories/MEM-1.md"));
  CHECK(fixture.head() == base);
  CHECK(fixture.read(".memory/10-Memories/MEM-1.md") == "user edit\n");
  CHECK(fixture.staged(".memory/10-Memories/MEM-1.md") == hash_blob("one\n"));
  CHECK_FALSE(fixture.exists(".git/vault.lock"));

  // A change outside the guarded paths does not count; allow_dirty overrides.
  const auto id = gv::git::apply(repo, plan, ApplyOptions{true, true, k_guarded, {}, {}});
  CHECK(fixture.head() == *id);
  CHECK(fixture.read(".memory/10-Memories/MEM-1.md") == "vault edit\n");
}

TEST_CASE("a lock held by a live process refuses the run and is left in place", "[transaction]") {
  const TestRepo fixture;
  make_vault(fixture);
  const std::string base = *fixture.head();
  // The parent process (the test runner's) is alive; its lock has no flock, as one written by an
  // older git-vault, so the pid and start time decide.
  const pid_t owner = ::getppid();
  const std::string lock =
      fmt::format("{} {}\n", owner, gv::git::process_start_time(owner).value_or(0));
  fixture.write(".git/vault.lock", lock);
  Plan plan = purge_plan();
  plan.write(".memory/index.md", "index v2\n");
  Repo repo = Repo::discover(fixture.root());
  CHECK_THROWS_WITH(gv::git::apply(repo, plan, ApplyOptions{}),
                    Catch::Contains("another git-vault run is in progress") &&
                        Catch::Contains(fmt::format("process {}", owner)) &&
                        Catch::Contains("vault.lock"));
  CHECK(fixture.head() == base);
  CHECK(fixture.read(".memory/index.md") == "index v1\n");
  CHECK(fixture.read(".git/vault.lock") == lock);
}

TEST_CASE("a lock left by a dead process is cleared and the run goes on", "[transaction]") {
  const TestRepo fixture;
  make_vault(fixture);
  const pid_t self = ::getpid();
  const std::uint64_t start = gv::git::process_start_time(self).value_or(0);
  SECTION("a pid whose process started at another time (the pid was reused)") {
    fixture.write(".git/vault.lock", fmt::format("{} {}\n", ::getppid(), start + 12345));
  }
  SECTION("a pid no process has") { fixture.write(".git/vault.lock", "999999999 1\n"); }
  Plan plan = purge_plan();
  plan.write(".memory/index.md", "index v2\n");
  Repo repo = Repo::discover(fixture.root());
  const auto id = gv::git::apply(repo, plan, ApplyOptions{});
  CHECK(fixture.head() == id);
  CHECK_FALSE(fixture.exists(".git/vault.lock"));
}

TEST_CASE("the start time of a process is read from /proc", "[transaction]") {
  CHECK(gv::git::process_start_time(::getpid()).has_value());
  CHECK(gv::git::process_start_time(::getpid()) == gv::git::process_start_time(::getpid()));
  CHECK_FALSE(gv::git::process_start_time(999999999).has_value());
}

TEST_CASE("no-commit mode writes the work tree only", "[transaction]") {
  const TestRepo fixture;
  make_vault(fixture);
  const std::string base = *fixture.head();
  Plan plan = purge_plan();
  plan.write(".memory/index.md", "index v2\n");
  plan.write(".memory/new/MEM-3.md", "three\n");
  plan.remove(".memory/10-Memories/MEM-2.md");
  Repo repo = Repo::discover(fixture.root());
  const auto id = gv::git::apply(repo, plan, ApplyOptions{false, false, k_guarded, {}, {}});
  CHECK_FALSE(id.has_value());
  CHECK(fixture.head() == base);
  CHECK(fixture.read(".memory/index.md") == "index v2\n");
  CHECK(fixture.read(".memory/new/MEM-3.md") == "three\n");
  CHECK_FALSE(fixture.exists(".memory/10-Memories/MEM-2.md"));
  CHECK(fixture.staged(".memory/index.md") == hash_blob("index v1\n"));
  CHECK(fixture.staged(".memory/10-Memories/MEM-2.md") == hash_blob("two\n"));
  CHECK(fixture.staged(".memory/new/MEM-3.md").empty());
}

TEST_CASE("a failure after the blobs are written leaves HEAD, index and work tree untouched",
          "[transaction]") {
  const TestRepo fixture;
  make_vault(fixture);
  const std::string base = *fixture.head();
  // An untracked file sits where the plan needs a folder, so preparing that path fails, after
  // blobs, tree and commit object exist and after other paths' temporary files were written.
  fixture.write("notes", "a file, not a folder\n");
  const std::vector<std::string> before = work_tree_files(fixture);
  Plan plan = purge_plan();
  plan.write(".memory/index.md", "index v2\n");
  plan.write("brand/new/file.md", "new\n");
  plan.write("notes/a.md", "cannot be written\n");
  plan.remove(".memory/10-Memories/MEM-2.md");
  Repo repo = Repo::discover(fixture.root());

  CHECK_THROWS_WITH(gv::git::apply(repo, plan, ApplyOptions{true, false, k_guarded, {}, {}}),
                    Catch::Contains("notes/a.md"));
  CHECK(fixture.head() == base);
  CHECK(work_tree_files(fixture) == before);  // no temporary files, no new folders
  CHECK(fixture.read(".memory/index.md") == "index v1\n");
  CHECK(fixture.read(".memory/10-Memories/MEM-2.md") == "two\n");
  CHECK(fixture.staged(".memory/index.md") == hash_blob("index v1\n"));
  CHECK_FALSE(fixture.exists(".git/vault.lock"));
}

TEST_CASE("a commit landing on the branch mid-run is detected and nothing is changed",
          "[transaction]") {
  const TestRepo fixture;
  make_vault(fixture);
  Plan plan = purge_plan();
  plan.write(".memory/index.md", "index v2\n");
  Repo repo = Repo::discover(fixture.root());
  std::string concurrent;
  ApplyOptions options{true, false, k_guarded, {}, {}};
  // Not through the index (git-vault holds its lock): a ref update as `git update-ref`, `git
  // fetch` into the branch or another worktree's plumbing would make it.
  options.before_ref_update = [&] { concurrent = fixture.commit_index("concurrent commit"); };
  CHECK_THROWS_WITH(gv::git::apply(repo, plan, options), Catch::Contains("moved"));
  CHECK(fixture.head() == concurrent);
  CHECK(fixture.read(".memory/index.md") == "index v1\n");
  CHECK(fixture.staged(".memory/index.md") == hash_blob("index v1\n"));
  CHECK_FALSE(fixture.exists(".git/vault.lock"));
}

TEST_CASE("author and committer follow the GIT_* environment, then git config", "[transaction]") {
  const TestRepo fixture;
  make_vault(fixture);
  Repo repo = Repo::discover(fixture.root());
  Plan plan = purge_plan();

  SECTION("environment") {
    const EnvGuard an("GIT_AUTHOR_NAME", "Env Author");
    const EnvGuard ae("GIT_AUTHOR_EMAIL", "author@example.com");
    const EnvGuard ad("GIT_AUTHOR_DATE", "2026-11-30T12:00:00Z");
    const EnvGuard cn("GIT_COMMITTER_NAME", "Env Committer");
    const EnvGuard ce("GIT_COMMITTER_EMAIL", "committer@example.com");
    const EnvGuard cd("GIT_COMMITTER_DATE", "@1800000000 +0000");
    plan.write(".memory/index.md", "v2\n");
    const auto info = repo.commit_info(*gv::git::apply(repo, plan, ApplyOptions{}));
    CHECK(info.author_name == "Env Author");
    CHECK(info.author_email == "author@example.com");
    CHECK(info.author_time == 1'796'040'000);
    CHECK(info.time == 1'800'000'000);
  }
  SECTION("config") {
    const EnvGuard an("GIT_AUTHOR_NAME", std::nullopt);
    const EnvGuard ae("GIT_AUTHOR_EMAIL", std::nullopt);
    const EnvGuard ad("GIT_AUTHOR_DATE", std::nullopt);
    plan.write(".memory/index.md", "v3\n");
    const auto info = repo.commit_info(*gv::git::apply(repo, plan, ApplyOptions{}));
    CHECK(info.author_name == "Config User");
    CHECK(info.author_email == "config@example.com");
  }
  SECTION("an unreadable date is an error before anything changes") {
    const EnvGuard ad("GIT_AUTHOR_DATE", "next tuesday");
    plan.write(".memory/index.md", "v4\n");
    const std::string base = *fixture.head();
    CHECK_THROWS_WITH(gv::git::apply(repo, plan, ApplyOptions{}),
                      Catch::Contains("GIT_AUTHOR_DATE"));
    CHECK(fixture.head() == base);
  }
}

TEST_CASE("plan paths that escape the work tree or touch .git are refused", "[transaction]") {
  const TestRepo fixture;
  make_vault(fixture);
  Repo repo = Repo::discover(fixture.root());
  for (const char* bad :
       {"../outside.md", "/abs.md", ".git/config", "a//b.md", "a/./b.md", "dir/", "sub/.GIT/x"}) {
    Plan plan = purge_plan();
    plan.write(bad, "x");
    CHECK_THROWS_WITH(gv::git::apply(repo, plan, ApplyOptions{}), Catch::Contains("plan path"));
  }
}

}  // namespace transaction_test
