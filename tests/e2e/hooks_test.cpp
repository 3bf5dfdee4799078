#include <sys/stat.h>

#include <catch2/catch.hpp>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>

#include "tests/e2e/sandbox.hpp"

namespace hooks_test {

using gv::test::Result;
using gv::test::Sandbox;

namespace {

bool contains(const std::string& text, std::string_view part) {
  return text.find(part) != std::string::npos;
}

mode_t mode_of(const std::filesystem::path& path) {
  struct stat info {};
  REQUIRE(::stat(path.c_str(), &info) == 0);
  return info.st_mode & 07777;
}

// A foreign hook that leaves a trace of having run (in the hook's working directory, the work
// tree root) and exits with `code`.
std::string foreign_hook(int code) {
  return "#!/bin/sh\necho foreign >> \"$(git rev-parse --show-toplevel)/.hook-ran\"\nexit " +
         std::to_string(code) + "\n";
}

void install(const Sandbox& sandbox, std::string_view cwd = {}) {
  const Result result = sandbox.vault({"hooks", "install"}, {}, cwd);
  INFO(result.out << result.err);
  REQUIRE(result.code == 0);
}

// A sandbox with one commit, and .hook-ran / linked worktrees kept out of `git add -A`.
void prepare(Sandbox& sandbox) {
  sandbox.write(".git/info/exclude", ".home/\n.hook-ran\n.wt/\n");
  sandbox.write("README.md", "hello\n");
  sandbox.commit_all("initial");
}

Result commit_file(const Sandbox& sandbox, const std::string& name, const std::string& prefix = "",
                   std::string_view cwd = {}) {
  sandbox.write(std::string(cwd.empty() ? "" : std::string(cwd) + "/") + name, name + "\n");
  const Result add = sandbox.git({"add", name}, cwd);
  REQUIRE(add.code == 0);
  return sandbox.sh(prefix + "git commit -q -m 'add " + name + "'", cwd);
}

}  // namespace

TEST_CASE("after install a commit runs the chained foreign hook first, then git-vault", "[hooks]") {
  Sandbox sandbox;
  prepare(sandbox);
  sandbox.write(".git/hooks/pre-commit", foreign_hook(0));
  REQUIRE(::chmod(sandbox.path(".git/hooks/pre-commit").c_str(), 0755) == 0);
  install(sandbox);

  const Result commit = commit_file(sandbox, "a.txt", "GIT_VAULT_SKIP=schema ");
  INFO(commit.err);
  CHECK(commit.code == 0);
  CHECK(sandbox.read(".hook-ran") == "foreign\n");
  // The handler ran (and opened the repository from git's environment without failing).
  CHECK(contains(commit.err, "git-vault: skipping schema (GIT_VAULT_SKIP)"));
}

TEST_CASE("a failing chained hook blocks the commit and --no-verify skips both", "[hooks]") {
  Sandbox sandbox;
  prepare(sandbox);
  sandbox.write(".git/hooks/pre-commit", foreign_hook(3));
  REQUIRE(::chmod(sandbox.path(".git/hooks/pre-commit").c_str(), 0755) == 0);
  install(sandbox);

  const Result blocked = commit_file(sandbox, "a.txt", "GIT_VAULT_SKIP=schema ");
  CHECK(blocked.code != 0);
  CHECK(sandbox.read(".hook-ran") == "foreign\n");
  CHECK_FALSE(contains(blocked.err, "GIT_VAULT_SKIP"));  // git-vault never got to run
  CHECK(sandbox.git({"rev-list", "--count", "HEAD"}).out == "1\n");

  const Result skipped = sandbox.sh("GIT_VAULT_SKIP=schema git commit -q --no-verify -m skip");
  CHECK(skipped.code == 0);
  CHECK(sandbox.read(".hook-ran") == "foreign\n");  // not run again
  CHECK_FALSE(contains(skipped.err, "GIT_VAULT_SKIP"));
  CHECK(sandbox.git({"rev-list", "--count", "HEAD"}).out == "2\n");
}

TEST_CASE("GIT_VAULT_SKIP=all skips the gate with a warning", "[hooks]") {
  Sandbox sandbox;
  prepare(sandbox);
  install(sandbox);
  const Result commit = commit_file(sandbox, "a.txt", "GIT_VAULT_SKIP=all ");
  CHECK(commit.code == 0);
  CHECK(contains(commit.err, "GIT_VAULT_SKIP=all: every vault check skipped"));
}

TEST_CASE("installing twice reports already installed and changes nothing", "[hooks]") {
  Sandbox sandbox;
  prepare(sandbox);
  install(sandbox);
  const std::string shim = sandbox.read(".git/hooks/pre-commit");
  const std::string attributes = sandbox.read(".gitattributes");
  const Result again = sandbox.vault({"hooks", "install"});
  CHECK(again.code == 0);
  CHECK(contains(again.out, "pre-commit: already installed\n"));
  CHECK(contains(again.out, "post-merge: already installed\n"));
  CHECK_FALSE(contains(again.out, ".gitattributes"));
  CHECK_FALSE(contains(again.out, "merge drivers"));
  CHECK(sandbox.read(".git/hooks/pre-commit") == shim);
  CHECK(sandbox.read(".gitattributes") == attributes);
  CHECK_FALSE(sandbox.exists(".git/hooks/pre-commit.pre-git-vault"));
}

TEST_CASE("install then uninstall restores the foreign hook's bytes and mode", "[hooks]") {
  Sandbox sandbox;
  prepare(sandbox);
  const std::string foreign = "#!/bin/sh\n# somebody else's\nexit 0\n";
  sandbox.write(".git/hooks/pre-commit", foreign);
  REQUIRE(::chmod(sandbox.path(".git/hooks/pre-commit").c_str(), 0700) == 0);
  install(sandbox);
  CHECK(sandbox.read(".git/hooks/pre-commit.pre-git-vault") == foreign);

  const Result status = sandbox.vault({"hooks", "status", "--json"});
  REQUIRE(status.code == 0);
  const auto doc = nlohmann::json::parse(status.out);
  CHECK(doc["hooks"][0]["name"] == "pre-commit");
  CHECK(doc["hooks"][0]["state"] == "chained");
  CHECK(doc["hooks"][1]["state"] == "installed");
  CHECK(doc["merge_drivers"] == true);
  CHECK(doc["hooks_path_source"] == "default");

  const Result removed = sandbox.vault({"hooks", "uninstall"});
  INFO(removed.out << removed.err);
  CHECK(removed.code == 0);
  CHECK(sandbox.read(".git/hooks/pre-commit") == foreign);
  CHECK(mode_of(sandbox.path(".git/hooks/pre-commit")) == 0700);
  CHECK_FALSE(sandbox.exists(".git/hooks/pre-commit.pre-git-vault"));
  CHECK_FALSE(sandbox.exists(".git/hooks/post-merge"));
  CHECK(sandbox.git({"config", "--get", "merge.vault-log.driver"}).code == 1);

  const Result after = sandbox.vault({"hooks", "status"});
  CHECK(contains(
      after.out,
      "pre-commit: NOT RUNNING: the hook in place is not git-vault's and does not run it\n"));
  CHECK(contains(after.out, "nothing runs git-vault's pre-commit: run `git vault hooks install`"));
  CHECK(contains(after.out, "post-merge: not installed\n"));
}

TEST_CASE("a repository-local core.hooksPath gets the shims and git runs them", "[hooks]") {
  Sandbox sandbox;
  prepare(sandbox);
  REQUIRE(sandbox.git({"config", "core.hooksPath", ".git/custom-hooks"}).code == 0);
  install(sandbox);
  CHECK(sandbox.exists(".git/custom-hooks/pre-commit"));
  CHECK(sandbox.exists(".git/custom-hooks/post-merge"));
  CHECK_FALSE(sandbox.exists(".git/hooks/pre-commit"));
  const Result commit = commit_file(sandbox, "a.txt", "GIT_VAULT_SKIP=schema ");
  CHECK(commit.code == 0);
  CHECK(contains(commit.err, "skipping schema"));
}

TEST_CASE("a core.hooksPath from the global config is refused unless explicitly allowed",
          "[hooks]") {
  Sandbox sandbox;
  prepare(sandbox);
  const std::string shared = sandbox.path(".home/shared-hooks").string();
  sandbox.write(".home/.gitconfig", "[core]\n\thooksPath = " + shared + "\n");

  const Result refused = sandbox.vault({"hooks", "install"});
  CHECK(refused.code == 1);
  CHECK(contains(refused.err, "every repository"));
  CHECK(contains(refused.err, "--allow-global-hooks-path"));
  CHECK_FALSE(sandbox.exists(".home/shared-hooks/pre-commit"));
  CHECK_FALSE(sandbox.exists(".gitattributes"));

  const Result allowed = sandbox.vault({"hooks", "install", "--allow-global-hooks-path"});
  CHECK(allowed.code == 0);
  CHECK(sandbox.exists(".home/shared-hooks/pre-commit"));
}

TEST_CASE("commits in a linked worktree run the hook installed from either tree", "[hooks]") {
  Sandbox sandbox;
  prepare(sandbox);
  REQUIRE(sandbox.git({"worktree", "add", "-q", "-b", "feature", ".wt"}).code == 0);
  // Installing from inside the linked worktree targets the shared hooks directory.
  install(sandbox, ".wt");
  CHECK(sandbox.exists(".git/hooks/pre-commit"));
  CHECK_FALSE(sandbox.exists(".git/worktrees/.wt/hooks/pre-commit"));

  const Result in_worktree = commit_file(sandbox, "b.txt", "GIT_VAULT_SKIP=schema ", ".wt");
  INFO(in_worktree.err);
  CHECK(in_worktree.code == 0);
  CHECK(contains(in_worktree.err, "skipping schema"));

  // `git commit -a` in the worktree: git points GIT_INDEX_FILE at a lock file.
  sandbox.write(".wt/b.txt", "changed\n");
  const Result all = sandbox.sh("GIT_VAULT_SKIP=schema git commit -q -a -m change", ".wt");
  INFO(all.err);
  CHECK(all.code == 0);
  CHECK(contains(all.err, "skipping schema"));
}

TEST_CASE("a submodule gets its own hooks in its own git dir", "[hooks]") {
  Sandbox sandbox;
  prepare(sandbox);
  // The submodule's upstream: a separate repository next to the sandbox's files.
  REQUIRE(sandbox.git({"init", "-q", "-b", "main", ".home/upstream"}).code == 0);
  sandbox.write(".home/upstream/file.txt", "x\n");
  REQUIRE(sandbox.sh("git add file.txt && git commit -q -m up", ".home/upstream").code == 0);
  const Result add = sandbox.git({"-c", "protocol.file.allow=always", "submodule", "add", "-q",
                                  sandbox.path(".home/upstream").string(), "sub"});
  INFO(add.err);
  REQUIRE(add.code == 0);

  install(sandbox, "sub");
  CHECK(sandbox.exists(".git/modules/sub/hooks/pre-commit"));
  CHECK_FALSE(sandbox.exists(".git/hooks/pre-commit"));
  CHECK(sandbox.exists("sub/.gitattributes"));

  const Result commit = commit_file(sandbox, "c.txt", "GIT_VAULT_SKIP=schema ", "sub");
  INFO(commit.err);
  CHECK(commit.code == 0);
  CHECK(contains(commit.err, "skipping schema"));
}

TEST_CASE("without git-vault on PATH the pre-commit shim blocks and says what to do", "[hooks]") {
  Sandbox sandbox;
  prepare(sandbox);
  install(sandbox);
  sandbox.write("a.txt", "a\n");
  REQUIRE(sandbox.git({"add", "a.txt"}).code == 0);
  const Result blocked = sandbox.sh("PATH=/usr/bin:/bin git commit -q -m a");
  CHECK(blocked.code != 0);
  CHECK(contains(blocked.err,
                 "git-vault: the pre-commit hook needs git-vault, which is not on PATH"));
  CHECK(contains(blocked.err, "remove this hook"));
  CHECK(sandbox.git({"rev-list", "--count", "HEAD"}).out == "1\n");
}

TEST_CASE("a blocked commit whose fix sits unstaged in the work tree says to stage it", "[hooks]") {
  Sandbox sandbox;
  prepare(sandbox);
  install(sandbox);
  sandbox.write("CLAUDE.local.md", "# Working memory\n\n## Active\n- remember this\n");
  REQUIRE(sandbox.git({"add", "CLAUDE.local.md"}).code == 0);

  // Nothing fixed yet: the block names init-ids and no file to stage.
  const Result before = sandbox.sh("git commit -q -m wm");
  CHECK(before.code != 0);
  CHECK(contains(before.err, "CLAUDE.local.md:4: error: entry has no id"));
  CHECK_FALSE(contains(before.err, "not staged"));

  // init-ids writes the work tree only; the gate still sees the staged bytes.
  REQUIRE(sandbox.vault({"recall", "init-ids", "--yes"}).code == 0);
  const std::string note =
      "git-vault: note: CLAUDE.local.md, memory/.recall/metadata.json have changes in the work "
      "tree that are not staged, and the gate checks what is staged; if they are your fix, stage "
      "them: git add CLAUDE.local.md memory/.recall/metadata.json\n";
  const Result blocked = sandbox.sh("git commit -q -m wm");
  CHECK(blocked.code != 0);
  CHECK(contains(blocked.err, note));
  const Result check = sandbox.vault({"check", "--staged"});
  CHECK(check.code == 1);
  CHECK(contains(check.err, note));
  CHECK_FALSE(contains(check.out, "not staged"));
  CHECK(sandbox.git({"rev-list", "--count", "HEAD"}).out == "1\n");

  // Staged as the note says, the commit goes through.
  REQUIRE(sandbox.git({"add", "CLAUDE.local.md", "memory/.recall/metadata.json"}).code == 0);
  const Result committed = sandbox.sh("git commit -q -m wm");
  INFO(committed.err);
  CHECK(committed.code == 0);
  CHECK_FALSE(contains(committed.err, "not staged"));
}

}  // namespace hooks_test
