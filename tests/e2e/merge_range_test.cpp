#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>
#include <string>

#include "tests/e2e/sandbox.hpp"
#include "tests/e2e/vault_fixture.hpp"

namespace merge_range_test {

using gv::test::Result;
using gv::test::Sandbox;
using Json = nlohmann::json;

// A feature branch that merges its base, as CI then sees it: `git vault check --range
// <merge-base>..feature` is what the generated workflow runs (doc/merges.md).

namespace {

bool contains(const std::string& text, std::string_view part) {
  return text.find(part) != std::string::npos;
}

std::string trimmed(std::string text) {
  text.erase(text.find_last_not_of('\n') + 1);
  return text;
}

std::string rev(const Sandbox& sandbox, const std::string& name) {
  return trimmed(sandbox.git({"rev-parse", name}).out);
}

std::string memory(const std::string& title, const std::string& body = "Body.") {
  return gv::test::memory_file(title, "2026-11-01", "k", 0, "null") + body + "\n";
}

// Adds (or rewrites) a memory and commits it with fresh index files, through the hooks.
void commit_memory(Sandbox& sandbox, const std::string& id, const std::string& bytes) {
  sandbox.write(".memory/10-Memories/" + id + ".md", bytes);
  const Result index = sandbox.vault({"index"});
  INFO(index.err);
  REQUIRE(index.code == 0);
  const Result commit = sandbox.sh("git add -A && git commit -q -m 'add " + id + "'");
  INFO(commit.err);
  REQUIRE(commit.code == 0);
}

// main and feature forked from an initialised vault holding MEM-shared; each side adds a
// memory of its own, so a merge of the two leaves the index files stale.
void fork(Sandbox& sandbox) {
  const Result init = sandbox.vault({"init"});
  INFO(init.err);
  REQUIRE(init.code == 0);
  commit_memory(sandbox, "MEM-shared", memory("Shared"));
  REQUIRE(sandbox.git({"branch", "feature"}).code == 0);
  commit_memory(sandbox, "MEM-main", memory("Main side"));
  REQUIRE(sandbox.git({"checkout", "-q", "feature"}).code == 0);
  commit_memory(sandbox, "MEM-feature", memory("Feature side"));
}

// `check --range main..feature` named the rewrite that regenerates every commit's index: it is
// run as printed, and the range then passes.
void rewrite_as_printed(Sandbox& sandbox, const Result& stale) {
  const std::string fix =
      "git rebase -x 'git vault index -q && git add .memory && git commit -q --amend --no-edit' "
      "main";
  CHECK(contains(stale.out, fix));
  const Result rewrite = sandbox.sh(fix);
  INFO(rewrite.err);
  REQUIRE(rewrite.code == 0);
  const Result fixed = sandbox.vault({"check", "--range", "main..feature", "--every-commit"});
  INFO(fixed.out);
  CHECK(fixed.code == 0);
}

// The gate the workflow runs over the pull request of `feature` into `main`.
Result ci_gate(const Sandbox& sandbox) {
  const std::string base = trimmed(sandbox.git({"merge-base", "main", "feature"}).out);
  return sandbox.vault({"check", "--json", "--range", base + "..feature"});
}

}  // namespace

TEST_CASE("a branch that merged its base passes the CI range gate", "[merge][check]") {
  Sandbox sandbox;
  fork(sandbox);
  const Result merge = sandbox.git({"merge", "--no-edit", "main"});
  INFO(merge.out << merge.err);
  REQUIRE(merge.code == 0);
  CHECK(contains(merge.err, "into the merge commit"));
  CHECK(sandbox.git({"log", "-1", "--format=%s"}).out == "Merge branch 'main' into feature\n");
  CHECK(sandbox.git({"status", "--porcelain"}).out.empty());

  // The merge commit itself is valid: every commit of the branch passes.
  const Result gate = ci_gate(sandbox);
  INFO(gate.out << gate.err);
  CHECK(gate.code == 0);
  CHECK(sandbox.vault({"check", "--range", "HEAD"}).code == 0);
  CHECK(contains(sandbox.git({"show", "HEAD:.memory/memory-index.json"}).out, "MEM-main"));
}

TEST_CASE("a conflicted merge is finished by git commit, index regenerated, and passes CI",
          "[merge][check]") {
  Sandbox sandbox;
  fork(sandbox);
  commit_memory(sandbox, "MEM-shared", memory("Shared", "Feature's line."));
  REQUIRE(sandbox.git({"checkout", "-q", "main"}).code == 0);
  commit_memory(sandbox, "MEM-shared", memory("Shared", "Main's line."));
  REQUIRE(sandbox.git({"checkout", "-q", "feature"}).code == 0);

  const Result merge = sandbox.git({"merge", "--no-edit", "main"});
  REQUIRE(merge.code != 0);
  CHECK(contains(merge.out, "CONFLICT"));
  sandbox.write(".memory/10-Memories/MEM-shared.md", memory("Shared", "Both lines, merged."));
  REQUIRE(sandbox.git({"add", ".memory/10-Memories/MEM-shared.md"}).code == 0);

  // The generated files kept feature's side: the gate regenerates them into the merge commit
  // (doc/decisions.md, D21), so `git commit` finishes the merge in one step.
  const Result commit = sandbox.sh("git commit -q --no-edit");
  INFO(commit.err);
  REQUIRE(commit.code == 0);
  CHECK(contains(commit.err, "git-vault: regenerated .memory/memory-index.json"));
  CHECK(contains(sandbox.git({"show", "HEAD:.memory/memory-index.json"}).out, "MEM-main"));
  CHECK(sandbox.git({"status", "--porcelain"}).out.empty());
  CHECK(trimmed(sandbox.git({"log", "-1", "--format=%P"}).out).size() == 81);  // a merge

  const Result gate = ci_gate(sandbox);
  INFO(gate.out << gate.err);
  CHECK(gate.code == 0);
}

TEST_CASE("a merge made without hooks fails CI at the tip with the command that repairs it",
          "[merge][check]") {
  Sandbox sandbox;
  fork(sandbox);
  // What a hosting service's merge button does: a merge commit, no git-vault hook.
  const Result merge =
      sandbox.git({"-c", "core.hooksPath=/dev/null", "merge", "--no-edit", "main"});
  INFO(merge.err);
  REQUIRE(merge.code == 0);
  const std::string merge_commit = rev(sandbox, "HEAD");

  const Result stale = ci_gate(sandbox);
  CHECK(stale.code == 1);
  const Json document = Json::parse(stale.out);
  REQUIRE(document["findings"].size() >= 1);
  for (const Json& finding : document["findings"]) {
    CHECK(finding["check"] == "stale-index");
    CHECK(finding["commit"] == merge_commit);
    CHECK(finding["fix"] ==
          "the merge was made without git-vault's post-merge hook (by a hosting service's merge "
          "button, or with hooks off); on the branch run `git pull`, then `git vault index "
          "--commit`, and push");
  }

  // The named fix: one reindex commit on top. The merge is no longer the tip and the range
  // passes, though that merge commit itself stays as it was.
  const Result fix = sandbox.vault({"index", "--commit"});
  INFO(fix.err);
  REQUIRE(fix.code == 0);
  CHECK(sandbox.git({"log", "-1", "--format=%s"}).out ==
        "vault(reindex): regenerate index files\n");
  CHECK(rev(sandbox, "HEAD^") == merge_commit);
  CHECK(sandbox.git({"status", "--porcelain"}).out.empty());
  const Result gate = ci_gate(sandbox);
  INFO(gate.out << gate.err);
  CHECK(gate.code == 0);
  CHECK(sandbox.vault({"check", "--range", merge_commit}).code == 1);
}

TEST_CASE("a fast-forward onto a stale merge made elsewhere gets a reindex commit of its own",
          "[merge][hooks]") {
  Sandbox sandbox;
  fork(sandbox);
  REQUIRE(sandbox.git({"branch", "clone-of-feature"}).code == 0);
  REQUIRE(sandbox.git({"-c", "core.hooksPath=/dev/null", "merge", "--no-edit", "main"}).code == 0);
  const std::string merge_commit = rev(sandbox, "HEAD");
  REQUIRE(sandbox.git({"checkout", "-q", "clone-of-feature"}).code == 0);

  // The merge commit may already be shared, so it is never rewritten.
  const Result pull = sandbox.git({"merge", "--ff-only", "feature"});
  INFO(pull.err);
  REQUIRE(pull.code == 0);
  CHECK(contains(pull.err, "vault(reindex): regenerate index files after merge"));
  CHECK(rev(sandbox, "HEAD^") == merge_commit);
  CHECK(sandbox.vault({"check", "--range", "HEAD"}).code == 0);
}

TEST_CASE("index --commit refuses uncommitted vault changes and --check with it", "[index]") {
  Sandbox sandbox;
  fork(sandbox);
  sandbox.write(".memory/10-Memories/MEM-new.md", memory("New"));
  const Result dirty = sandbox.vault({"index", "--commit"});
  CHECK(dirty.code == 128);
  CHECK(dirty.err ==
        "git-vault: error: index --commit: .memory/10-Memories/MEM-new.md has uncommitted "
        "changes; commit or stash it first (the commit regenerates the index files of what HEAD "
        "holds)\n");
  CHECK(sandbox.vault({"index", "--commit", "--check"}).code == 129);
}

TEST_CASE("index --commit after a plain index commits what HEAD lacks instead of finding nothing",
          "[index][merge]") {
  Sandbox sandbox;
  fork(sandbox);
  // A memory committed without its index files (the hook skipped), then `git vault index`,
  // which regenerates them in the work tree only.
  sandbox.write(".memory/10-Memories/MEM-late.md", memory("Late"));
  REQUIRE(sandbox.git({"add", "-A"}).code == 0);
  REQUIRE(sandbox.git({"commit", "-q", "--no-verify", "-m", "late"}).code == 0);
  REQUIRE(sandbox.vault({"index"}).code == 0);
  CHECK(sandbox.vault({"check"}).code == 1);  // HEAD's index files are stale

  const Result fix = sandbox.vault({"index", "--commit"});
  INFO(fix.err);
  REQUIRE(fix.code == 0);
  CHECK(contains(fix.err, "committed 3 file(s) as "));
  CHECK(sandbox.git({"log", "-1", "--format=%s"}).out ==
        "vault(reindex): regenerate index files\n");
  CHECK(sandbox.git({"status", "--porcelain"}).out.empty());
  CHECK(sandbox.vault({"check"}).code == 0);
  const Result again = sandbox.vault({"index", "--commit"});
  CHECK(again.code == 0);
  CHECK(contains(again.err, "the index files HEAD holds are up to date; nothing to commit"));

  // Generated files in the work tree that say something else (an uncommitted memory's entry)
  // are not the commit's to take.
  sandbox.write(".memory/10-Memories/MEM-later.md", memory("Later"));
  REQUIRE(sandbox.git({"add", "-A"}).code == 0);
  REQUIRE(sandbox.git({"commit", "-q", "--no-verify", "-m", "later"}).code == 0);
  sandbox.write(".memory/10-Memories/MEM-draft.md", memory("Draft"));
  REQUIRE(sandbox.vault({"index"}).code == 0);
  const std::string head = rev(sandbox, "HEAD");
  const Result refused = sandbox.vault({"index", "--commit"});
  CHECK(refused.code == 128);
  CHECK(contains(refused.err, ".memory/10-Memories/MEM-draft.md"));
  CHECK(contains(refused.err, ".memory/memory-index.json"));
  CHECK(rev(sandbox, "HEAD") == head);
}

TEST_CASE("a rebase that leaves stale index files is repaired by one commit on top", "[merge]") {
  Sandbox sandbox;
  fork(sandbox);
  commit_memory(sandbox, "MEM-feature-two", memory("Feature, second"));
  // Replayed onto main, whose index changed too: the driver keeps main's side, no hook runs.
  const Result rebase = sandbox.git({"rebase", "-q", "main"});
  INFO(rebase.err);
  REQUIRE(rebase.code == 0);
  const Result stale = sandbox.vault({"check", "--range", "main..feature"});
  INFO(stale.out);
  CHECK(stale.code == 1);
  CHECK(contains(stale.out, "MEM-feature is missing from the index"));
  // The tip is what a pull request delivers: one commit on top repairs it (doc/decisions.md,
  // D22), no rewrite.
  const std::string fix = "git vault index --commit";
  CHECK(contains(stale.out, "fix: commit the regenerated index files on the branch: " + fix));
  CHECK_FALSE(contains(stale.out, "rebase -x"));
  const Result repair = sandbox.sh(fix);
  INFO(repair.err);
  REQUIRE(repair.code == 0);
  const Result repaired = sandbox.vault({"check", "--range", "main..feature"});
  INFO(repaired.out);
  CHECK(repaired.code == 0);
  CHECK(contains(repaired.out, "note: MEM-feature is missing from the index"));

  SECTION("with --every-commit, the rewrite that regenerates every commit's index") {
    REQUIRE(sandbox.git({"reset", "-q", "--hard", "HEAD~1"}).code == 0);
    const Result every = sandbox.vault({"check", "--range", "main..feature", "--every-commit"});
    CHECK(every.code == 1);
    rewrite_as_printed(sandbox, every);
    CHECK(sandbox.git({"status", "--porcelain"}).out.empty());
    CHECK(trimmed(sandbox.git({"rev-list", "--count", "main..feature"}).out) == "2");
  }
}

TEST_CASE("a stale index at the tip after an earlier stale commit: a commit, or the rewrite",
          "[merge][check]") {
  Sandbox sandbox;
  fork(sandbox);
  // Two commits made without the hook, each adding a memory and leaving the index behind.
  for (const char* id : {"MEM-feature-two", "MEM-feature-three"}) {
    sandbox.write(std::string(".memory/10-Memories/") + id + ".md", memory(id));
    const Result commit =
        sandbox.sh(std::string("git add -A && git commit -q --no-verify -m 'add ") + id + "'");
    REQUIRE(commit.code == 0);
  }
  const Result stale = sandbox.vault({"check", "--range", "main..feature"});
  INFO(stale.out);
  CHECK(stale.code == 1);
  CHECK(contains(stale.out,
                 "fix: commit the regenerated index files on the branch: git vault "
                 "index --commit"));
  // Every commit clean: one fix for both, since a commit on top would leave the first failing.
  const Result every = sandbox.vault({"check", "--range", "main..feature", "--every-commit"});
  INFO(every.out);
  CHECK(every.code == 1);
  CHECK_FALSE(contains(every.out, "fix: git vault index && git add :/.memory"));
  CHECK_FALSE(contains(every.out, "index --commit"));
  rewrite_as_printed(sandbox, every);
}

TEST_CASE("check during an unresolved merge conflict names the unmerged files", "[merge][check]") {
  Sandbox sandbox;
  fork(sandbox);
  commit_memory(sandbox, "MEM-shared", memory("Shared", "Feature's wording."));
  REQUIRE(sandbox.git({"checkout", "-q", "main"}).code == 0);
  commit_memory(sandbox, "MEM-shared", memory("Shared", "Main's wording."));
  const Result merge = sandbox.git({"merge", "--no-edit", "feature"});
  REQUIRE(merge.code != 0);  // both sides rewrote the same line

  const Result check = sandbox.vault({"check"});
  INFO(check.out << check.err);
  CHECK(check.code == 1);
  CHECK(contains(check.out,
                 ".memory/10-Memories/MEM-shared.md: error: a merge conflict is not "
                 "resolved (git holds this file unmerged) [unmerged]"));
  CHECK(contains(check.out,
                 "fix: resolve it (edit it, then git add it); then: git vault index "
                 "&& git add :/.memory"));
  CHECK_FALSE(contains(check.out, "orphaned"));
}

TEST_CASE("check --range names the end of a range that names no commit, as review does",
          "[check][review]") {
  Sandbox sandbox;
  fork(sandbox);
  for (const auto& [range, side] : std::vector<std::pair<std::string, std::string>>{
           {"nope..HEAD", "nope"}, {"main..nope", "nope"}, {"nope", "nope"}}) {
    INFO(range);
    const Result check = sandbox.vault({"check", "--range", range});
    CHECK(check.code == 129);
    CHECK(check.err == "git-vault: error: range '" + range + "': '" + side + "' names no commit\n");
  }
  const Result review = sandbox.vault({"review", "nope..HEAD"});
  CHECK(review.code == 129);
  CHECK(contains(review.err, "'nope' names no commit"));
}

}  // namespace merge_range_test
