#include <catch2/catch.hpp>
#include <fstream>
#include <iterator>
#include <nlohmann/json.hpp>
#include <string>

#include "core/gate/registry.hpp"
#include "tests/e2e/sandbox.hpp"
#include "tests/e2e/vault_fixture.hpp"

namespace gate_skip_test {

using gv::test::Result;
using gv::test::Sandbox;
using json = nlohmann::json;

// GIT_VAULT_SKIP and `--json` as `git vault check` and the pre-commit hook see them: one parser,
// one gate function, one JSON printer.

namespace {

constexpr const char* k_valid_checks =
    "valid checks: dangling-link, distill-log, duplicate-id, id-case-collision, ignored-id, "
    "malformed-id, "
    "missing-id, recall-metadata, schema, secret, stale-index, all";

bool contains(const std::string& text, std::string_view part) {
  return text.find(part) != std::string::npos;
}

// The shared vault, committed, with the pre-commit hook installed, then a working-memory entry
// without an id staged: a commit the gate blocks (missing-id).
void blocked_commit(Sandbox& sandbox) {
  sandbox.write(".git/info/exclude", ".home/\n");
  sandbox.write("CLAUDE.local.md", "# Working\n- Prefers tabs ^tr0000000001\n");
  gv::test::write_scored_vault(sandbox);
  const Result install = sandbox.vault({"hooks", "install"});
  INFO(install.out << install.err);
  REQUIRE(install.code == 0);
  sandbox.write("CLAUDE.local.md", "# Working\n- Prefers tabs ^tr0000000001\n- Untagged\n");
  REQUIRE(sandbox.git({"add", "CLAUDE.local.md"}).code == 0);
}

std::string read_source(const std::string& relative) {
  std::ifstream in(std::string(GIT_VAULT_SOURCE_DIR) + "/" + relative, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

}  // namespace

TEST_CASE("check --staged and the pre-commit hook give the same answer under GIT_VAULT_SKIP",
          "[e2e][check][hooks]") {
  Sandbox sandbox;
  blocked_commit(sandbox);
  REQUIRE(sandbox.vault({"check", "--staged"}).code == 1);

  SECTION("all") {
    const Result check = sandbox.sh("GIT_VAULT_SKIP=all git vault check --staged");
    INFO(check.out << check.err);
    CHECK(check.code == 0);
    CHECK(check.out.empty());
    CHECK(contains(check.err, "git-vault: warning: GIT_VAULT_SKIP=all: every vault check skipped"));
    const Result json_check = sandbox.sh("GIT_VAULT_SKIP=all git vault --json check --staged");
    CHECK(json_check.code == 0);
    CHECK(json::parse(json_check.out)["ok"] == true);

    const Result commit = sandbox.sh("GIT_VAULT_SKIP=all git commit -q -m skip-all");
    INFO(commit.err);
    CHECK(commit.code == 0);
    CHECK(
        contains(commit.err, "git-vault: warning: GIT_VAULT_SKIP=all: every vault check skipped"));
  }
  SECTION("the blocking check by name") {
    const Result check = sandbox.sh("GIT_VAULT_SKIP=missing-id git vault check --staged");
    CHECK(check.code == 0);
    CHECK(contains(check.err, "git-vault: skipping missing-id (GIT_VAULT_SKIP)"));
    const Result commit = sandbox.sh("GIT_VAULT_SKIP=' missing-id , ' git commit -q -m skip-one");
    INFO(commit.err);
    CHECK(commit.code == 0);
  }
  SECTION("another check by name still blocks in both") {
    CHECK(sandbox.sh("GIT_VAULT_SKIP=schema git vault check --staged").code == 1);
    const Result commit = sandbox.sh("GIT_VAULT_SKIP=schema git commit -q -m blocked");
    CHECK(commit.code != 0);
    CHECK(contains(commit.err, "commit blocked"));
  }
}

TEST_CASE("an unknown GIT_VAULT_SKIP name is a usage error listing the valid checks",
          "[e2e][check][hooks]") {
  Sandbox sandbox;
  blocked_commit(sandbox);
  const std::string message =
      std::string("git-vault: error: GIT_VAULT_SKIP: unknown check 'missing-ids'; ") +
      k_valid_checks + "\n";
  const std::string commits = sandbox.git({"rev-list", "--count", "HEAD"}).out;

  for (const std::string mode : {"--staged", "--worktree", "--range=HEAD~1..HEAD"}) {
    INFO(mode);
    const Result check = sandbox.sh("GIT_VAULT_SKIP=missing-ids git vault check " + mode);
    CHECK(check.code == 129);
    CHECK(check.out.empty());
    CHECK(check.err == message);
  }
  const Result commit = sandbox.sh("GIT_VAULT_SKIP=all,missing-ids git commit -q -m typo");
  CHECK(commit.code != 0);
  CHECK(contains(commit.err, message));
  CHECK(sandbox.git({"rev-list", "--count", "HEAD"}).out == commits);
}

TEST_CASE("check -h and the man page name every check and all", "[e2e][check]") {
  Sandbox sandbox;
  const Result help = sandbox.vault({"check", "-h"});
  REQUIRE(help.code == 0);
  CHECK(contains(help.out, "GIT_VAULT_SKIP=all skips every"));
  const std::string man = read_source("doc/git-vault.1");
  CHECK(contains(man, "GIT_VAULT_SKIP=all"));
  for (const gv::GateCheck& check : gv::builtin_gate_checks()) {
    INFO(check.name);
    CHECK(contains(help.out, std::string("  ") + std::string(check.name) + " "));
    CHECK(contains(help.out, check.description));
    CHECK(contains(man, std::string(check.name)));
  }
}

TEST_CASE("check --json parses when a finding holds bytes that are not UTF-8", "[e2e][check]") {
  Sandbox sandbox;
  sandbox.write("CLAUDE.local.md", "# Working\n- Prefers tabs ^tr0000000001\n");
  gv::test::write_scored_vault(sandbox);
  // A link whose target, and a file whose name, hold the byte 0xff: both end up in a message
  // or a path of the findings.
  sandbox.write(".memory/10-Memories/MEM-gamma.md",
                gv::test::memory_file("Gamma", "2026-05-01", "z", 0, "null", {}, 10, "python/x") +
                    "\nSee [[MEM-\xff]].\n");
  sandbox.write(".memory/10-Memories/notes-\xff.md", "# notes\n");
  REQUIRE(sandbox.vault({"index"}).code == 0);
  REQUIRE(sandbox.git({"add", "-A"}).code == 0);

  for (const std::string mode : {"--staged", "--worktree"}) {
    INFO(mode);
    const Result result = sandbox.vault({"--json", "check", mode});
    INFO(result.err);
    CHECK(result.code == 0);  // warnings only
    const json document = json::parse(result.out);
    CHECK(document["ok"] == true);
    int replaced = 0;
    for (const json& finding : document["findings"]) {
      const std::string text =
          finding["path"].get<std::string>() + finding["message"].get<std::string>();
      replaced += contains(text, "\xef\xbf\xbd") ? 1 : 0;  // U+FFFD
    }
    CHECK(replaced == 1);  // the file name that is not UTF-8 is skipped before the gate
  }
  sandbox.commit_all("non-UTF-8 names");
  const Result range = sandbox.vault({"--json", "check", "--range", "HEAD~1..HEAD"});
  CHECK(range.code == 0);
  CHECK(json::parse(range.out)["findings"].size() == 2);
}

TEST_CASE("git config vault.skip skips checks on every commit; GIT_VAULT_SKIP overrides it",
          "[e2e][gate][skip]") {
  Sandbox sandbox;
  blocked_commit(sandbox);
  REQUIRE(sandbox.git({"config", "vault.skip", "missing-id"}).code == 0);
  const Result staged = sandbox.vault({"check", "--staged"});
  INFO(staged.out << staged.err);
  CHECK(staged.code == 0);
  CHECK(staged.err.empty());  // a standing choice is not announced on every commit
  const Result commit = sandbox.git({"commit", "-qm", "skipped by config"});
  INFO(commit.err);
  CHECK(commit.code == 0);

  sandbox.write("CLAUDE.local.md", "# Working\n- Prefers tabs ^tr0000000001\n- Also untagged\n");
  REQUIRE(sandbox.git({"add", "CLAUDE.local.md"}).code == 0);
  sandbox.set_env("GIT_VAULT_SKIP", "schema");  // the environment wins for this command
  CHECK(sandbox.vault({"check", "--staged"}).code == 1);

  // Even a broken vault.skip is not read while the environment names the checks.
  REQUIRE(sandbox.git({"config", "vault.skip", "missing-idd"}).code == 0);
  sandbox.set_env("GIT_VAULT_SKIP", "missing-id");
  CHECK(sandbox.vault({"check", "--staged"}).code == 0);
}

TEST_CASE("a misspelt name in vault.skip is an error that names the key", "[e2e][gate][skip]") {
  Sandbox sandbox;
  blocked_commit(sandbox);
  REQUIRE(sandbox.git({"config", "vault.skip", "missing-idd"}).code == 0);
  const Result result = sandbox.vault({"check", "--staged"});
  CHECK(result.code == 129);
  CHECK(contains(result.err,
                 "vault.skip: unknown check 'missing-idd'; " + std::string(k_valid_checks)));
}

}  // namespace gate_skip_test
