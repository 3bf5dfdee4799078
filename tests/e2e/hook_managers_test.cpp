#include <sys/stat.h>

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>
#include <string>

#include "tests/e2e/sandbox.hpp"

namespace hook_managers_test {

using gv::test::Result;
using gv::test::Sandbox;
using Json = nlohmann::json;

// Repositories whose hooks another tool manages: the pre-commit framework, husky's tracked hooks
// folder, a hooks path set only in GIT_CONFIG_GLOBAL's file (doc/decisions.md D17).

namespace {

bool contains(const std::string& text, std::string_view part) {
  return text.find(part) != std::string::npos;
}

// A memory the schema check rejects (no `created`).
constexpr std::string_view k_bad_memory = "---\ntitle: Bad\n---\n# Bad\n";

bool have_pre_commit(const Sandbox& sandbox) {
  return sandbox.sh("command -v pre-commit >/dev/null 2>&1").code == 0;
}

// A committed pre-commit framework config with one local hook that leaves a trace of its run.
void write_framework_config(Sandbox& sandbox) {
  sandbox.write(".pre-commit-config.yaml",
                "repos:\n"
                "  - repo: local\n"
                "    hooks:\n"
                "      - id: trace\n"
                "        name: trace\n"
                "        entry: sh -c 'echo ran >> framework-ran.log'\n"
                "        language: system\n"
                "        pass_filenames: false\n"
                "        always_run: true\n");
  sandbox.write(".gitignore", "framework-ran.log\n");
  sandbox.commit_all("framework config");
}

// husky 9: the tracked hooks in .husky/ (one that leaves a trace of its run), generated runners
// (and `h`) in ignored .husky/_, which core.hooksPath names.
void write_husky9(Sandbox& sandbox) {
  sandbox.write(".husky/pre-commit", "echo husky >> husky-ran.log\n");
  sandbox.write(".gitignore", "husky-ran.log\n");
  sandbox.commit_all("husky");
  sandbox.write(".husky/_/.gitignore", "*\n");
  sandbox.write(".husky/_/h", "#!/bin/sh\n");
  sandbox.write(".husky/_/pre-commit", "#!/bin/sh\n. \"$(dirname \"$0\")/h\"\n");
  REQUIRE(sandbox.git({"config", "core.hooksPath", ".husky/_"}).code == 0);
}

Result run_ok(const Result& result) {
  INFO(result.out << result.err);
  REQUIRE(result.code == 0);
  return result;
}

// `hooks status` answers "no" (exit 1) while any hook does not run git-vault.
Result run_no(const Result& result) {
  INFO(result.out << result.err);
  REQUIRE(result.code == 1);
  return result;
}

// Commits a good file, then tries a bad memory: the framework's hook and git-vault's gate must
// both have run.
void check_both_gates_run(Sandbox& sandbox) {
  sandbox.write("notes.txt", "hello\n");
  const Result good = sandbox.sh("git add notes.txt && git commit -q -m notes");
  INFO(good.out << good.err);
  CHECK(good.code == 0);
  CHECK_FALSE(contains(good.err, "migration mode"));
  CHECK(sandbox.exists("framework-ran.log"));

  sandbox.write(".memory/10-Memories/MEM-bad.md", k_bad_memory);
  const Result bad = sandbox.sh("git add .memory && git commit -q -m bad");
  CHECK(bad.code != 0);
  CHECK(contains(bad.err, "missing required field created"));
  CHECK(sandbox.git({"log", "-1", "--format=%s"}).out == "notes\n");
  REQUIRE(sandbox.git({"rm", "-q", "--cached", ".memory/10-Memories/MEM-bad.md"}).code == 0);
  std::filesystem::remove(sandbox.path(".memory/10-Memories/MEM-bad.md"));
}

}  // namespace

TEST_CASE("pre-commit install, git vault init, pre-commit install: commits work, both gates run",
          "[hooks][init][pre-commit-framework]") {
  Sandbox sandbox;
  if (!have_pre_commit(sandbox)) {
    WARN("pre-commit is not installed; skipped");
    return;
  }
  write_framework_config(sandbox);
  run_ok(sandbox.sh("pre-commit install"));
  const Result init = run_ok(sandbox.vault({"init"}));
  CHECK(contains(init.out,
                 "pre-commit: the pre-commit framework's hook stays in place; "
                 "git-vault's runs first as pre-commit.legacy\n"));
  run_ok(sandbox.sh("pre-commit install"));
  sandbox.commit_all("vault");
  CHECK_THAT(sandbox.vault({"hooks", "status"}).out,
             Catch::Contains("pre-commit: installed (run by the pre-commit framework)\n"));
  check_both_gates_run(sandbox);

  // Uninstall takes git-vault's files out and leaves the framework's hook as it is.
  const std::string framework_hook = sandbox.read(".git/hooks/pre-commit");
  const Result uninstall = run_ok(sandbox.vault({"hooks", "uninstall"}));
  CHECK(contains(uninstall.out, "pre-commit: removed pre-commit.legacy\n"));
  CHECK_FALSE(sandbox.exists(".git/hooks/pre-commit.legacy"));
  CHECK_FALSE(sandbox.exists(".git/hooks/post-merge"));
  CHECK(sandbox.read(".git/hooks/pre-commit") == framework_hook);
  CHECK(sandbox.sh("ls .git/hooks | grep -v '\\.sample$'").out == "pre-commit\n");
}

TEST_CASE("git vault init, then pre-commit install: commits work, both gates run",
          "[hooks][init][pre-commit-framework]") {
  Sandbox sandbox;
  if (!have_pre_commit(sandbox)) {
    WARN("pre-commit is not installed; skipped");
    return;
  }
  write_framework_config(sandbox);
  run_ok(sandbox.vault({"init"}));
  sandbox.commit_all("vault");
  run_ok(sandbox.sh("pre-commit install"));
  CHECK(sandbox.exists(".git/hooks/pre-commit.legacy"));
  check_both_gates_run(sandbox);
  // Installing again changes nothing and says so.
  CHECK(contains(run_ok(sandbox.vault({"hooks", "install"})).out, "pre-commit: already installed"));
}

// What earlier versions left: git-vault's shim chaining a copy of the framework's script, moved
// to pre-commit.legacy by a second `pre-commit install`. Every commit failed ("migration mode").
TEST_CASE("hooks install repairs a shim chained to the pre-commit framework's own script",
          "[hooks][pre-commit-framework]") {
  Sandbox sandbox;
  if (!have_pre_commit(sandbox)) {
    WARN("pre-commit is not installed; skipped");
    return;
  }
  write_framework_config(sandbox);
  run_ok(sandbox.vault({"init", "--no-hooks"}));
  sandbox.commit_all("vault");
  run_ok(sandbox.sh("pre-commit install"));
  // The old layout, made by hand: the framework's script copied to pre-commit.pre-git-vault and
  // the old shim (which ran `pre-commit.pre-git-vault`) as pre-commit.legacy.
  run_ok(
      sandbox.sh("cp -p .git/hooks/pre-commit .git/hooks/pre-commit.pre-git-vault && "
                 "printf '#!/bin/sh\\n# git-vault hook shim v1\\n"
                 "prior=\"$(dirname -- \"$0\")/pre-commit.pre-git-vault\"\\n"
                 "[ -x \"$prior\" ] && { \"$prior\" \"$@\" || exit $?; }\\n"
                 "exec git-vault hook pre-commit \"$@\"\\n' > .git/hooks/pre-commit.legacy && "
                 "chmod +x .git/hooks/pre-commit.legacy"));
  sandbox.write("broken.txt", "x\n");
  const Result broken = sandbox.sh("git add broken.txt && git commit -q -m broken");
  REQUIRE(broken.code != 0);  // the failure this repairs
  REQUIRE(contains(broken.out + broken.err, "migration mode"));

  run_ok(sandbox.vault({"hooks", "install"}));
  CHECK_FALSE(sandbox.exists(".git/hooks/pre-commit.pre-git-vault"));
  run_ok(sandbox.sh("git commit -q -m repaired"));
  check_both_gates_run(sandbox);
}

TEST_CASE("a husky-style tracked hooks folder is never written and init prints the line to add",
          "[hooks][init]") {
  Sandbox sandbox;
  sandbox.write(".husky/pre-commit", "#!/bin/sh\necho husky >> husky-ran.log\n");
  REQUIRE(::chmod(sandbox.path(".husky/pre-commit").c_str(), 0755) == 0);
  sandbox.write(".gitignore", "husky-ran.log\n");
  sandbox.commit_all("husky");
  REQUIRE(sandbox.git({"config", "core.hooksPath", ".husky"}).code == 0);
  const std::string before = sandbox.read(".husky/pre-commit");

  const Result init = run_ok(sandbox.vault({"init"}));
  const std::string line =
      "! command -v git-vault >/dev/null 2>&1 || git-vault hook pre-commit \"$@\" || exit 1";
  CHECK(contains(init.out,
                 "pre-commit: core.hooksPath is .husky, a folder of this repository, "
                 "so git-vault writes nothing there; add this line to "
                 ".husky/pre-commit: " +
                     line + "\n"));
  CHECK(contains(init.out, "add this line to .husky/post-merge: "));
  CHECK(sandbox.read(".husky/pre-commit") == before);
  CHECK(sandbox.sh("ls -A .husky").out == "pre-commit\n");
  // The drivers are set up all the same.
  CHECK(contains(init.out, "merge drivers vault-generated"));
  sandbox.commit_all("vault");

  // The user adds the line; the gate then runs from the tracked hook.
  sandbox.write(".husky/pre-commit", before + line + "\n");
  CHECK(sandbox.vault({"hooks", "status"})
            .out.find("pre-commit: installed (a line in the hook runs git-vault)\n") !=
        std::string::npos);
  sandbox.write(".memory/10-Memories/MEM-bad.md", k_bad_memory);
  const Result bad = sandbox.sh("git add -A && git commit -q -m bad");
  CHECK(bad.code != 0);
  CHECK(contains(bad.err, "missing required field created"));
  // A teammate without git-vault is not blocked by the line.
  sandbox.write(".memory/10-Memories/MEM-bad.md", "");
  REQUIRE(sandbox.git({"rm", "-q", "-f", ".memory/10-Memories/MEM-bad.md"}).code == 0);
  const Result without = sandbox.sh("PATH=/usr/bin:/bin git commit -q -m 'hook line'");
  INFO(without.err);
  CHECK(without.code == 0);

  const Result uninstall = run_ok(sandbox.vault({"hooks", "uninstall"}));
  CHECK(contains(uninstall.out, "remove it by hand"));
  CHECK(sandbox.read(".husky/pre-commit") == before + line + "\n");
}

TEST_CASE("pre-commit install -f over git-vault's hook is named as not running until fixed",
          "[hooks][pre-commit-framework]") {
  Sandbox sandbox;
  if (!have_pre_commit(sandbox)) {
    WARN("pre-commit is not installed; skipped");
    return;
  }
  write_framework_config(sandbox);
  run_ok(sandbox.vault({"init"}));
  sandbox.commit_all("vault");
  // -f replaces the hook outright: git-vault's is gone, not moved to .legacy.
  run_ok(sandbox.sh("pre-commit install -f"));
  const Result status = run_no(sandbox.vault({"hooks", "status"}));
  CHECK(contains(status.out,
                 "pre-commit: NOT RUNNING: the hook in place is not git-vault's and "
                 "does not run it\n"));
  CHECK(contains(status.out, "nothing runs git-vault's pre-commit: run `git vault hooks install`"));
  // The status is right: a bad memory commits.
  sandbox.write(".memory/10-Memories/MEM-bad.md", k_bad_memory);
  CHECK(sandbox.sh("git add -A && git commit -q -m bad").code == 0);
  REQUIRE(sandbox.git({"reset", "-q", "--hard", "HEAD~1"}).code == 0);

  // Doing as it says puts the gate back, behind the framework's hook.
  run_ok(sandbox.vault({"hooks", "install"}));
  CHECK(contains(run_ok(sandbox.vault({"hooks", "status"})).out,
                 "pre-commit: installed (run by the pre-commit framework)\n"));
  check_both_gates_run(sandbox);
}

TEST_CASE("a pre-commit framework hook whose config lists git-vault counts as running it",
          "[hooks][pre-commit-framework]") {
  Sandbox sandbox;
  if (!have_pre_commit(sandbox)) {
    WARN("pre-commit is not installed; skipped");
    return;
  }
  run_ok(sandbox.vault({"init", "--no-hooks"}));
  sandbox.write(".pre-commit-config.yaml",
                "repos:\n"
                "  - repo: https://example.org/git-vault\n"
                "    rev: v1\n"
                "    hooks:\n"
                "      - id: git-vault\n");
  sandbox.commit_all("vault");
  run_ok(sandbox.sh("pre-commit install -f"));
  // Still "no": init --no-hooks wrote no post-merge hook.
  const Result status = run_no(sandbox.vault({"hooks", "status"}));
  CHECK(contains(status.out, "pre-commit: installed (run by the pre-commit framework)\n"));
  CHECK(contains(status.out, "post-merge: not installed\n"));
}

TEST_CASE("husky's hook without git-vault's line is named as not running, with the line to add",
          "[hooks]") {
  Sandbox sandbox;
  write_husky9(sandbox);
  const Result status = run_no(sandbox.vault({"hooks", "status"}));
  CHECK(contains(status.out, "pre-commit: NOT RUNNING"));
  CHECK(contains(status.out,
                 "nothing runs git-vault's pre-commit: add this line to .husky/pre-commit: ! "
                 "command -v git-vault"));

  // Once the line is there, uninstall names the file it is in.
  const std::string line =
      "! command -v git-vault >/dev/null 2>&1 || git-vault hook pre-commit \"$@\" || exit 1";
  sandbox.write(".husky/pre-commit", sandbox.read(".husky/pre-commit") + line + "\n");
  const Result uninstall = run_ok(sandbox.vault({"hooks", "uninstall"}));
  CHECK(contains(uninstall.out, "/.husky/pre-commit runs git-vault through a line you added"));
  CHECK_FALSE(contains(uninstall.out, "/.husky/_/pre-commit"));
}

TEST_CASE("husky 9's generated .husky/_ sends the line to the hook a person edits",
          "[hooks][init]") {
  Sandbox sandbox;
  write_husky9(sandbox);

  const Result init = run_ok(sandbox.vault({"init"}));
  CHECK(contains(init.out,
                 "pre-commit: core.hooksPath is .husky/_, a folder of this repository, "
                 "so git-vault writes nothing there; add this line to "
                 ".husky/pre-commit: "));
  const std::string line =
      "! command -v git-vault >/dev/null 2>&1 || git-vault hook pre-commit \"$@\" || exit 1";
  sandbox.write(".husky/pre-commit", sandbox.read(".husky/pre-commit") + line + "\n");
  CHECK(contains(sandbox.vault({"hooks", "status"}).out,
                 "pre-commit: installed (a line in the hook runs git-vault)\n"));
}

TEST_CASE("a hook lefthook moved aside as .old is named as not running, and install restores it",
          "[hooks][init]") {
  Sandbox sandbox;
  run_ok(sandbox.vault({"init"}));
  sandbox.commit_all("vault");
  // What `lefthook install` does to a hook it did not write: moves it to `<hook>.old`, which
  // it never runs, and puts its own runner in place (here one that only leaves a trace).
  const std::string lefthook = "#!/bin/sh\n# lefthook\necho lefthook >> lefthook-ran.log\n";
  for (const char* name : {"pre-commit", "post-merge"}) {
    const std::string hook = std::string(".git/hooks/") + name;
    REQUIRE(sandbox.sh("mv " + hook + " " + hook + ".old").code == 0);
    sandbox.write(hook, lefthook);
    REQUIRE(::chmod(sandbox.path(hook).c_str(), 0755) == 0);
  }
  sandbox.write(".gitignore", "lefthook-ran.log\n");
  sandbox.commit_all("ignore");

  // The gate no longer runs: a bad memory commits.
  sandbox.write(".memory/10-Memories/MEM-bad.md", k_bad_memory);
  CHECK(sandbox.sh("git add -A && git commit -q -m bad").code == 0);

  const Result status = run_no(sandbox.vault({"hooks", "status"}));
  CHECK(contains(status.out,
                 "pre-commit: NOT RUNNING: another hook manager put its hook in place and moved "
                 "git-vault's aside\n"));
  CHECK(
      contains(status.out, "git-vault's hooks were moved aside as pre-commit.old, post-merge.old"));
  CHECK(contains(status.out, "          run: git-vault hook post-merge {0}\n"));
  CHECK(contains(status.out, "or run `git vault hooks install`"));
  const Json doc = Json::parse(run_no(sandbox.vault({"hooks", "status", "--json"})).out);
  CHECK(doc["hooks"][0]["state"] ==
        "NOT RUNNING: another hook manager put its hook in place and moved git-vault's aside");
  CHECK(doc["hooks"][0]["running"] == false);
  CHECK(doc["complete"] == false);

  // install puts ours back with lefthook's chained, and drops the stale copy, which would
  // otherwise stop the next `lefthook install` of older versions (they keep an existing `.old`).
  const Result install = run_ok(sandbox.vault({"hooks", "install"}));
  CHECK(contains(install.out, "pre-commit.old is removed"));
  CHECK_FALSE(sandbox.exists(".git/hooks/pre-commit.old"));
  CHECK(sandbox.read(".git/hooks/pre-commit.pre-git-vault") == lefthook);
  CHECK(contains(run_ok(sandbox.vault({"hooks", "status"})).out, "pre-commit: chained\n"));
  sandbox.write(".memory/10-Memories/MEM-bad2.md", k_bad_memory);
  const Result bad = sandbox.sh("git add -A && git commit -q -m bad2");
  CHECK(bad.code != 0);
  CHECK(contains(bad.err, "missing required field created"));
  CHECK(sandbox.exists("lefthook-ran.log"));  // lefthook's hook still runs, first
}

TEST_CASE("uninstall removes a shim another hook manager moved aside", "[hooks]") {
  Sandbox sandbox;
  run_ok(sandbox.vault({"init"}));
  REQUIRE(sandbox.sh("mv .git/hooks/pre-commit .git/hooks/pre-commit.old").code == 0);
  sandbox.write(".git/hooks/pre-commit", "#!/bin/sh\n# lefthook\n");
  const Result removed = run_ok(sandbox.vault({"hooks", "uninstall"}));
  CHECK(contains(removed.out, "pre-commit: removed pre-commit.old"));
  CHECK_FALSE(sandbox.exists(".git/hooks/pre-commit.old"));
  CHECK(sandbox.read(".git/hooks/pre-commit") == "#!/bin/sh\n# lefthook\n");
}

TEST_CASE("uninstall after lefthook moved a chained shim aside removes the copy of its hook",
          "[hooks]") {
  Sandbox sandbox;
  run_ok(sandbox.vault({"init"}));
  // `lefthook install`, `git vault hooks install` (lefthook's hook chained as .pre-git-vault),
  // then `lefthook install` again, which moves git-vault's shim aside once more.
  const std::string lefthook = "#!/bin/sh\n# lefthook\n";
  const auto lefthook_install = [&] {
    for (const char* name : {"pre-commit", "post-merge"}) {
      const std::string hook = std::string(".git/hooks/") + name;
      REQUIRE(sandbox.sh("mv " + hook + " " + hook + ".old").code == 0);
      sandbox.write(hook, lefthook);
    }
  };
  lefthook_install();
  run_ok(sandbox.vault({"hooks", "install"}));
  lefthook_install();
  // A backup that is not the hook in place is somebody's only copy of a hook: it stays.
  sandbox.write(".git/hooks/post-merge.pre-git-vault", "#!/bin/sh\n# an older hook\n");

  const Result removed = run_ok(sandbox.vault({"hooks", "uninstall"}));
  CHECK(contains(removed.out, "pre-commit: removed pre-commit.old, pre-commit.pre-git-vault\n"));
  CHECK(contains(removed.out,
                 "post-merge: removed post-merge.old; post-merge.pre-git-vault is kept: it is not "
                 "the hook in place, delete it if it is not needed\n"));
  CHECK(sandbox.sh("ls .git/hooks | grep -v '\\.sample$'").out ==
        "post-merge\npost-merge.pre-git-vault\npre-commit\n");
  CHECK(sandbox.read(".git/hooks/pre-commit") == lefthook);
}

TEST_CASE("hooks status answers no until every hook runs git-vault, and says what to run",
          "[hooks]") {
  Sandbox sandbox;
  const Result before = run_no(sandbox.vault({"hooks", "status"}));
  CHECK(contains(before.out, "pre-commit: not installed\npost-merge: not installed\n"));
  CHECK(contains(before.out,
                 "  `git vault hooks install` puts pre-commit, post-merge, the merge drivers and "
                 "the .gitattributes lines in place\n"));
  const Json none = Json::parse(run_no(sandbox.vault({"hooks", "status", "--json"})).out);
  CHECK(none["hooks"][1]["running"] == false);
  CHECK(none["complete"] == false);

  // Doing as it says is enough.
  run_ok(sandbox.vault({"hooks", "install"}));
  const Result after = run_ok(sandbox.vault({"hooks", "status"}));
  CHECK_FALSE(contains(after.out, "puts"));
  const Json all = Json::parse(run_ok(sandbox.vault({"hooks", "status", "--json"})).out);
  CHECK(all["hooks"][0]["running"] == true);
  CHECK(all["complete"] == true);

  // One hook missing is named alone.
  REQUIRE(sandbox.sh("rm .git/hooks/post-merge").code == 0);
  CHECK(contains(run_no(sandbox.vault({"hooks", "status"})).out,
                 "  `git vault hooks install` puts post-merge in place\n"));
}

TEST_CASE("a core.hooksPath set only in GIT_CONFIG_GLOBAL's file is where hooks go",
          "[hooks][init]") {
  Sandbox sandbox;
  const std::string hooks = sandbox.path(".home/global-hooks").string();
  sandbox.write(".home/other.gitconfig", "[core]\n\thooksPath = " + hooks + "\n");
  sandbox.set_env("GIT_CONFIG_GLOBAL", sandbox.path(".home/other.gitconfig").string());

  const Result status = run_no(sandbox.vault({"hooks", "status", "--json"}));
  CHECK(Json::parse(status.out)["hooks_dir"] == hooks);
  CHECK(Json::parse(status.out)["hooks_path_source"] == "global");

  // Never installed into .git/hooks, where git would not run it.
  const Result init = run_ok(sandbox.vault({"init"}));
  CHECK(contains(init.err, "hooks not installed"));
  CHECK_FALSE(sandbox.exists(".git/hooks/pre-commit"));
  // status names the flag install needs there, so that its advice works as written.
  CHECK(contains(run_no(sandbox.vault({"hooks", "status"})).out,
                 "  `git vault hooks install --allow-global-hooks-path` puts pre-commit and "
                 "post-merge in place (core.hooksPath is set in global or system config"));

  run_ok(sandbox.vault({"hooks", "install", "--allow-global-hooks-path"}));
  CHECK(sandbox.exists(".home/global-hooks/pre-commit"));
  CHECK(run_ok(sandbox.vault({"hooks", "status"})).out.find("`git vault hooks install") ==
        std::string::npos);
  sandbox.commit_all("vault");
  sandbox.write(".memory/10-Memories/MEM-bad.md", k_bad_memory);
  const Result bad = sandbox.sh("git add -A && git commit -q -m bad");
  CHECK(bad.code != 0);
  CHECK(contains(bad.err, "missing required field created"));
}

TEST_CASE("init --no-hooks still sets up the merge drivers and .gitattributes", "[hooks][init]") {
  Sandbox sandbox;
  const Result init = run_ok(sandbox.vault({"init", "--no-hooks"}));
  CHECK_FALSE(sandbox.exists(".git/hooks/pre-commit"));
  CHECK_FALSE(sandbox.exists(".git/hooks/post-merge"));
  CHECK(sandbox.git({"config", "merge.vault-generated.driver"}).out ==
        "git vault merge-driver generated -- %O %A %B %P\n");
  CHECK(sandbox.git({"config", "diff.vault-memory.textconv"}).code == 1);  // opt-in only
  CHECK_THAT(sandbox.read(".gitattributes"), Catch::Contains("merge=vault-log"));
  CHECK(contains(init.out, "merge drivers vault-generated"));
  CHECK_FALSE(contains(init.out, "hooks directory"));
}

TEST_CASE("init announces each thing it does, one line each, and nothing when all is done",
          "[init]") {
  Sandbox sandbox;
  sandbox.write(".git/hooks/pre-commit", "#!/bin/sh\nexit 0\n");
  REQUIRE(::chmod(sandbox.path(".git/hooks/pre-commit").c_str(), 0755) == 0);
  const Result first = run_ok(sandbox.vault({"init"}));
  CHECK(contains(first.out, "created .memory/memory-index.json\n"));
  CHECK(contains(first.out,
                 "pre-commit: installed; the existing hook was kept as "
                 "pre-commit.pre-git-vault and runs first\n"));
  CHECK(contains(first.out, "post-merge: installed\n"));
  CHECK_FALSE(contains(first.out, "diff driver"));
  CHECK(contains(first.out, ".gitattributes: created with the merge-driver lines"));
  CHECK(first.err.empty());

  const Result again = run_ok(sandbox.vault({"init"}));
  CHECK(again.out == "the vault is already set up; nothing to do\n");

  // Uninstall leaves no file of git-vault's in the hooks folder and puts the old hook back.
  run_ok(sandbox.vault({"hooks", "uninstall"}));
  CHECK(sandbox.sh("ls .git/hooks | grep -v '\\.sample$'").out == "pre-commit\n");
  CHECK(sandbox.read(".git/hooks/pre-commit") == "#!/bin/sh\nexit 0\n");
}

}  // namespace hook_managers_test
