#include <catch2/catch.hpp>
#include <filesystem>
#include <string>

#include "tests/e2e/sandbox.hpp"
#include "tests/e2e/vault_fixture.hpp"

namespace gate_baseline_test {

// The pre-commit hook checks a commit from the state the last commit left (doc/performance.md,
// "The gate's baseline"). Through a history of ordinary commits it must block and pass exactly
// as a check of the whole vault does.

using gv::test::Result;
using gv::test::Sandbox;

namespace {

std::string memory(const std::string& title, const std::string& body) {
  return gv::test::memory_file(title, "2026-05-01", "z", 0, "null", {}, 10, "python/x") + body;
}

// `check --staged --json` from the baseline, then the same with the git-vault folder removed
// (a whole-vault check): the two documents must be equal.
std::string staged_both_ways(const Sandbox& sandbox) {
  const Result from_baseline = sandbox.vault({"--json", "check", "--staged"});
  std::filesystem::remove_all(sandbox.path(".git/git-vault"));
  const Result whole = sandbox.vault({"--json", "check", "--staged"});
  CHECK(from_baseline.code == whole.code);
  CHECK(from_baseline.out == whole.out);
  return whole.out;
}

// `git add -A && git commit`, through the hook (Sandbox::commit_all skips it).
void commit_through_hook(const Sandbox& sandbox, const std::string& message) {
  sandbox.git({"add", "-A"});
  const Result commit = sandbox.git({"commit", "-q", "-m", message});
  INFO(commit.err);
  REQUIRE(commit.code == 0);
}

}  // namespace

TEST_CASE("commits through the hook are checked from the last state with the full answers",
          "[e2e][hooks][gate]") {
  Sandbox sandbox;
  gv::test::write_scored_vault(sandbox);
  REQUIRE(sandbox.vault({"hooks", "install"}).code == 0);
  commit_through_hook(sandbox, "vault");
  REQUIRE(sandbox.exists(".git/git-vault/gate-baseline"));

  // An edit, regenerated as the README says: the commit goes through and says nothing.
  sandbox.write(".memory/10-Memories/MEM-gamma.md", memory("Gamma", "\nSee [[MEM-alpha]].\n"));
  REQUIRE(sandbox.vault({"index"}).code == 0);
  sandbox.git({"add", "-A"});
  CHECK(staged_both_ways(sandbox).find("\"ok\": true") != std::string::npos);
  const Result edit = sandbox.git({"commit", "-q", "-m", "edit gamma"});
  CHECK(edit.code == 0);
  CHECK(edit.err.empty());

  // A link to nothing: a warning for the file the commit changes, and the commit goes through.
  sandbox.write(".memory/10-Memories/MEM-gamma.md", memory("Gamma", "\nSee [[MEM-nowhere]].\n"));
  REQUIRE(sandbox.vault({"index"}).code == 0);
  sandbox.git({"add", "-A"});
  const Result warned = sandbox.git({"commit", "-q", "-m", "dangling"});
  CHECK(warned.code == 0);
  CHECK_THAT(warned.err, Catch::Contains("MEM-gamma.md:") &&
                             Catch::Contains("link [[MEM-nowhere]] names no memory"));
  // The next, unrelated commit is not told again.
  sandbox.write("notes.txt", "unrelated\n");
  sandbox.git({"add", "notes.txt"});
  const Result unrelated = sandbox.git({"commit", "-q", "-m", "notes"});
  CHECK(unrelated.code == 0);
  CHECK(unrelated.err.empty());

  // Working memory is remembered by its files' blob ids: an entry without an id, added after
  // the baseline was saved, blocks the commit; once it has one the commit goes through.
  sandbox.write("CLAUDE.local.md", "# Working\n- Prefer rg ^tr0123456789\n");
  commit_through_hook(sandbox, "working memory");
  sandbox.write("memory/registers/tools.md", "# Tools\n- No id here\n");
  sandbox.git({"add", "-A"});
  CHECK(staged_both_ways(sandbox).find("\"check\": \"missing-id\"") != std::string::npos);
  const Result no_id = sandbox.git({"commit", "-q", "-m", "no id"});
  CHECK(no_id.code != 0);
  CHECK_THAT(no_id.err, Catch::Contains("memory/registers/tools.md:2:"));
  sandbox.write("memory/registers/tools.md", "# Tools\n- Has one ^tr0123456780\n");
  commit_through_hook(sandbox, "register");

  // A new memory whose frontmatter breaks the schema, staged without regenerating: blocked,
  // with the file and line, exactly as the whole check reports it.
  sandbox.write(".memory/10-Memories/MEM-broken.md", "---\ntitle: \"Broken\"\n---\n\n# Broken\n");
  sandbox.git({"add", "-A"});
  const std::string whole = staged_both_ways(sandbox);
  CHECK(whole.find("\"check\": \"schema\"") != std::string::npos);
  const Result blocked = sandbox.git({"commit", "-q", "-m", "broken"});
  CHECK(blocked.code != 0);
  CHECK_THAT(blocked.err, Catch::Contains(".memory/10-Memories/MEM-broken.md:") &&
                              Catch::Contains("commit blocked"));

  // The same file mended and regenerated: the commit goes through.
  sandbox.write(".memory/10-Memories/MEM-broken.md",
                memory("Mended", "\nNow whole; see [[MEM-alpha]].\n"));
  REQUIRE(sandbox.vault({"index"}).code == 0);
  sandbox.git({"add", "-A"});
  CHECK(sandbox.git({"commit", "-q", "-m", "mended"}).code == 0);

  // A memory another one links to, deleted by hand and regenerated: the link now dangles in a
  // file the commit does not change, which only a check of the whole vault can tell. The commit
  // is not told (a warning in an unchanged file); `check --worktree` lists it.
  std::filesystem::remove(sandbox.path(".memory/10-Memories/MEM-alpha.md"));
  REQUIRE(sandbox.vault({"index"}).code == 0);
  sandbox.git({"add", "-A"});
  (void)staged_both_ways(sandbox);
  CHECK(sandbox.git({"commit", "-q", "-m", "delete alpha"}).code == 0);
  CHECK_THAT(
      sandbox.vault({"check", "--worktree"}).out,
      Catch::Contains("MEM-broken.md") && Catch::Contains("link [[MEM-alpha]] names no memory"));
}

TEST_CASE("a damaged gate baseline is ignored, and the hook still blocks what it must",
          "[e2e][hooks][gate]") {
  Sandbox sandbox;
  gv::test::write_scored_vault(sandbox);
  REQUIRE(sandbox.vault({"hooks", "install"}).code == 0);
  commit_through_hook(sandbox, "vault");
  REQUIRE(sandbox.exists(".git/git-vault/gate-baseline"));
  sandbox.write(".git/git-vault/gate-baseline", "GVGB not a baseline at all");
  sandbox.write("CLAUDE.local.md", "# Working\n- No id here\n");
  sandbox.git({"add", "-A"});
  const Result blocked = sandbox.git({"commit", "-q", "-m", "no id"});
  CHECK(blocked.code != 0);
  CHECK_THAT(blocked.err, Catch::Contains("CLAUDE.local.md:2:"));
}

// The entries file is trusted by the checksum its header records, not hashed again at each
// commit (doc/performance.md, "The gate's baseline"): damage inside it must read as changed
// entries, and the hook must answer as a check of the whole vault does.
TEST_CASE("damage inside the gate baseline's entries file changes nothing the hook says",
          "[e2e][hooks][gate]") {
  Sandbox sandbox;
  gv::test::write_scored_vault(sandbox);
  REQUIRE(sandbox.vault({"hooks", "install"}).code == 0);
  commit_through_hook(sandbox, "vault");
  const std::string entries_file = ".git/git-vault/gate-baseline.entries";
  REQUIRE(sandbox.exists(entries_file));
  std::string entries = sandbox.read(entries_file);
  REQUIRE(entries.size() > 64);
  for (std::size_t at = 32; at < entries.size(); at += 7) {
    entries[at] = static_cast<char>(entries[at] ^ 0x5a);
  }
  sandbox.write(entries_file, entries);
  sandbox.write(".memory/10-Memories/MEM-gamma.md", memory("Gamma", "\nSee [[MEM-nowhere]].\n"));
  sandbox.write("CLAUDE.local.md", "# Working\n- No id here\n");
  sandbox.git({"add", "-A"});
  const Result damaged = sandbox.vault({"hook", "pre-commit"});
  std::filesystem::remove_all(sandbox.path(".git/git-vault"));
  const Result whole = sandbox.vault({"hook", "pre-commit"});
  CHECK(damaged.code == 1);
  CHECK(damaged.code == whole.code);
  CHECK(damaged.out == whole.out);
  CHECK(damaged.err == whole.err);
  CHECK_THAT(damaged.err, Catch::Contains("CLAUDE.local.md:2:"));
  CHECK_THAT(damaged.err, Catch::Contains("MEM-nowhere"));
}

// The shims run `git-vault hook pre-commit`, which main answers before building its parser
// (cmd/hook.cpp); with a global option in front the same line goes through the parser. Both must
// give the same answer: the same findings, the same exit code, and the same baseline after.
TEST_CASE("the hook line the shims run answers as the parsed command line does",
          "[e2e][hooks][gate]") {
  Sandbox sandbox;
  gv::test::write_scored_vault(sandbox);  // committed
  sandbox.write(".memory/10-Memories/MEM-gamma.md", memory("Gamma", "\nSee [[MEM-nowhere]].\n"));
  sandbox.write("CLAUDE.local.md", "# Working\n- No id here\n");
  sandbox.git({"add", "-A"});

  const Result direct = sandbox.vault({"hook", "pre-commit"});
  const std::string baseline = sandbox.read(".git/git-vault/gate-baseline");
  std::filesystem::remove_all(sandbox.path(".git/git-vault"));
  const Result parsed = sandbox.vault({"--no-pager", "hook", "pre-commit"});
  CHECK(direct.code == 1);
  CHECK(parsed.code == direct.code);
  CHECK(parsed.out == direct.out);
  CHECK(parsed.err == direct.err);
  CHECK_THAT(direct.err, Catch::Contains("CLAUDE.local.md:2:"));
  CHECK_THAT(direct.err, Catch::Contains("commit blocked"));
  CHECK(sandbox.read(".git/git-vault/gate-baseline") == baseline);

  // An unknown hook name is a usage error either way.
  CHECK(sandbox.vault({"hook", "pre-push"}).code == 129);
  CHECK(sandbox.vault({"-P", "hook", "pre-push"}).code == 129);
}

}  // namespace gate_baseline_test
