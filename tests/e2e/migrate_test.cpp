#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "tests/e2e/sandbox.hpp"

namespace migrate_test {

using gv::test::Sandbox;
using nlohmann::json;

namespace {

// A vault in the early layout, written here: two memories with bold metadata lines and no
// frontmatter, one in the early skeleton's frontmatter (`date`, `last_updated`), and the
// hand-written index.md such vaults had. No memory-index.json yet.
void write_legacy_vault(const Sandbox& sandbox) {
  sandbox.write(".memory/10-Memories/MEM-2026-03-05-001-clean-break.md",
                "# Memory: Clean-Break Renaming\n\n**Category**: [PATTERN]\n"
                "**Source**: Task 142\n**Date**: 2026-03-05\n\n## Pattern\n\nNo aliases.\n");
  sandbox.write(".memory/10-Memories/MEM-2026-03-05-002-delegation.md",
                "# Memory: Metadata Delegation\n\n**Category**: [CONFIG]\n**Date**: 2026-03-06\n\n"
                "Delegate metadata to one owner. See [[MEM-2026-03-05-001-clean-break]].\n");
  sandbox.write(".memory/10-Memories/MEM-2026-03-07-003-skeleton.md",
                "---\nid: MEM-2026-03-07-003\ntitle: \"Skeleton\"\ndate: 2026-03-07\n"
                "last_updated: 2026-03-09\ntags: [INSIGHT]\n---\n\n# Skeleton\n\nBody.\n");
  sandbox.write(".memory/20-Indices/index.md", "# Index\n\n## 2026-03-05\n\n- [PATTERN] ...\n");
}

}  // namespace

TEST_CASE("migrate --dry-run names each legacy memory and what it does, writing nothing",
          "[migrate]") {
  Sandbox sandbox;
  write_legacy_vault(sandbox);
  sandbox.commit_all();
  const auto result = sandbox.vault({"migrate", "--dry-run"});
  CHECK(result.code == 0);
  CHECK_THAT(result.out,
             Catch::Contains(".memory/10-Memories/MEM-2026-03-05-001-clean-break.md: frontmatter "
                             "from the **Category**, **Source** and **Date** lines"));
  CHECK_THAT(result.out, Catch::Contains("MEM-2026-03-07-003-skeleton.md: date -> created; "
                                         "last_updated -> modified"));
  CHECK_THAT(result.err, Catch::Contains("3 memories to convert (dry run: nothing written)"));
  CHECK(sandbox.git({"status", "--porcelain"}).out.empty());

  SECTION("--json lists them with their layout") {
    const auto json_result = sandbox.vault({"migrate", "--dry-run", "--json"});
    CHECK(json_result.code == 0);
    const json report = json::parse(json_result.out);
    REQUIRE(report["memories"].size() == 3);
    CHECK(report["memories"][0]["layout"] == "no-frontmatter");
    CHECK(report["memories"][2]["layout"] == "old-fields");
    CHECK(report["commit"].is_null());
    CHECK(report["dry_run"] == true);
  }
}

TEST_CASE("migrate converts a legacy vault in one commit that passes the gate", "[migrate]") {
  Sandbox sandbox;
  write_legacy_vault(sandbox);
  sandbox.commit_all();
  // Before: the gate and the report name the files as unreadable and point at migrate.
  const auto before = sandbox.vault({"check", "--worktree"});
  CHECK(before.code == 1);
  CHECK_THAT(before.out, Catch::Contains("MEM-2026-03-05-001-clean-break.md:1: error: "
                                         "unreadable: no frontmatter"));
  CHECK_THAT(before.out, Catch::Contains("git vault migrate"));
  const std::string head_before = sandbox.git({"rev-parse", "HEAD"}).out;

  const auto result = sandbox.vault({"migrate"});
  REQUIRE(result.code == 0);
  CHECK_THAT(result.err,
             Catch::Contains("vault(migrate): convert 3 memories to the current layout"));
  CHECK_THAT(result.err, Catch::Contains("Undo with: git revert "));
  CHECK(sandbox.git({"rev-parse", "HEAD~1"}).out == head_before);
  CHECK(sandbox.git({"status", "--porcelain"}).out.empty());
  const std::string message = sandbox.git({"log", "-1", "--format=%B"}).out;
  CHECK_THAT(message, Catch::Contains("Vault-Action: migrate"));
  // Folded at 72 columns as git folds trailers; git reads it back whole.
  CHECK_THAT(message,
             Catch::Contains("Vault-Memories: MEM-2026-03-05-001-clean-break,\n "
                             "MEM-2026-03-05-002-delegation, MEM-2026-03-07-003-skeleton"));
  CHECK(sandbox.git({"log", "-1", "--format=%(trailers:key=Vault-Memories,unfold)"}).out ==
        "Vault-Memories: MEM-2026-03-05-001-clean-break, MEM-2026-03-05-002-delegation, "
        "MEM-2026-03-07-003-skeleton\n\n");

  // After: every memory is read, indexed and scored; the body and links are intact.
  CHECK(sandbox.vault({"check", "--worktree"}).code == 0);
  const json index = json::parse(sandbox.read(".memory/memory-index.json"));
  REQUIRE(index["entries"].size() == 3);
  CHECK(index["entries"][0]["title"] == "Clean-Break Renaming");
  CHECK(index["entries"][0]["category"] == "PATTERN");
  CHECK(index["entries"][2]["created"] == "2026-03-07");
  CHECK(index["entries"][2]["modified"] == "2026-03-09");
  CHECK_THAT(sandbox.read(".memory/10-Memories/MEM-2026-03-05-002-delegation.md"),
             Catch::EndsWith("# Metadata Delegation\n\nDelegate metadata to one owner. See "
                             "[[MEM-2026-03-05-001-clean-break]].\n"));
  const auto report = sandbox.vault({"distill", "--json"});
  CHECK(json::parse(report.out)["memories"].size() == 3);

  SECTION("a second run has nothing to do") {
    const auto again = sandbox.vault({"migrate"});
    CHECK(again.code == 0);
    CHECK_THAT(again.err, Catch::Contains("Nothing to migrate"));
    CHECK(sandbox.git({"rev-parse", "HEAD~1"}).out == head_before);
  }
  SECTION("git revert undoes it") {
    REQUIRE(sandbox.git({"revert", "--no-edit", "HEAD"}).code == 0);
    CHECK_THAT(sandbox.read(".memory/10-Memories/MEM-2026-03-05-001-clean-break.md"),
               Catch::StartsWith("# Memory: Clean-Break Renaming\n"));
  }
}

TEST_CASE("migrate dates a memory that names no date from the commit that added it", "[migrate]") {
  Sandbox sandbox;
  sandbox.write(".memory/10-Memories/MEM-undated.md", "# Undated\n\nSome text.\n");
  sandbox.set_env("GIT_AUTHOR_DATE", "2025-06-15T09:00:00Z");
  sandbox.commit_all("add an undated memory");
  sandbox.set_env("GIT_AUTHOR_DATE", "2026-11-30T12:00:00Z");
  const auto result = sandbox.vault({"migrate"});
  REQUIRE(result.code == 0);
  CHECK_THAT(sandbox.read(".memory/10-Memories/MEM-undated.md"),
             Catch::Contains("created: 2025-06-15\n"));
  CHECK_THAT(result.err, Catch::Contains("1 memory named no date"));

  SECTION("an untracked one is dated today") {
    sandbox.write(".memory/10-Memories/MEM-new.md", "Fresh.\n");
    const auto run = sandbox.vault({"migrate", "--allow-dirty"});
    REQUIRE(run.code == 0);
    CHECK_THAT(sandbox.read(".memory/10-Memories/MEM-new.md"),
               Catch::Contains("created: 2026-11-30\n"));
  }
}

TEST_CASE("migrate leaves a broken memory alone, names it, and keeps unrelated staging",
          "[migrate]") {
  Sandbox sandbox;
  write_legacy_vault(sandbox);
  const std::string broken = "---\ntitle: [unclosed\ncreated: 2026-03-05\n---\n\nBody.\n";
  sandbox.write(".memory/10-Memories/MEM-broken.md", broken);
  sandbox.write("src/app.txt", "one\n");
  sandbox.commit_all();
  sandbox.write("src/app.txt", "two\n");
  REQUIRE(sandbox.git({"add", "src/app.txt"}).code == 0);

  const auto result = sandbox.vault({"migrate"});
  CHECK(result.code == 1);
  CHECK_THAT(result.out, Catch::Contains(".memory/10-Memories/MEM-broken.md:3: frontmatter is "
                                         "not valid yaml"));
  CHECK_THAT(result.out, Catch::Contains("  fix: correct the YAML on line 3"));
  CHECK(sandbox.read(".memory/10-Memories/MEM-broken.md") == broken);
  // The three legacy memories were converted and committed; the staged file stayed staged
  // and out of the commit.
  const std::string files = sandbox.git({"show", "--name-only", "--format=", "HEAD"}).out;
  CHECK_THAT(files, Catch::Contains("MEM-2026-03-05-001-clean-break.md"));
  CHECK_THAT(files, !Catch::Contains("src/app.txt"));
  CHECK(sandbox.git({"diff", "--cached", "--name-only"}).out == "src/app.txt\n");
}

TEST_CASE("migrate refuses to start over uncommitted vault changes", "[migrate]") {
  Sandbox sandbox;
  write_legacy_vault(sandbox);
  sandbox.commit_all();
  sandbox.write(".memory/10-Memories/MEM-2026-03-05-002-delegation.md", "# Memory: Edited\n");
  const auto result = sandbox.vault({"migrate"});
  CHECK(result.code != 0);
  CHECK_THAT(result.err, Catch::Contains("git-vault: error: "));
  CHECK_THAT(result.err, Catch::Contains("uncommitted"));
  CHECK(sandbox.read(".memory/10-Memories/MEM-2026-03-05-002-delegation.md") ==
        "# Memory: Edited\n");

  SECTION("--no-commit writes the work tree only") {
    const auto run = sandbox.vault({"migrate", "--no-commit", "--allow-dirty"});
    REQUIRE(run.code == 0);
    CHECK_THAT(sandbox.read(".memory/10-Memories/MEM-2026-03-05-002-delegation.md"),
               Catch::StartsWith("---\ntitle: \"Edited\"\n"));
    CHECK_THAT(sandbox.git({"log", "-1", "--format=%s"}).out, Catch::Equals("fixture\n"));
  }
}

TEST_CASE("init on a vault in an older layout leaves the index to migrate and says to run it",
          "[migrate][init]") {
  Sandbox sandbox;
  write_legacy_vault(sandbox);
  sandbox.commit_all("an early vault");
  const auto init = sandbox.vault({"init"});
  INFO(init.out << init.err);
  REQUIRE(init.code == 0);
  CHECK_THAT(init.out, Catch::Contains("first run:\n        git vault migrate --allow-dirty   "
                                       "(converts the 3 memories in an older layout and writes "
                                       "the index files, one commit)\n"));
  CHECK_FALSE(sandbox.exists(".memory/memory-index.json"));

  // In the order init gives, every step goes through, the last one through the commit hook.
  const auto migrate = sandbox.vault({"migrate", "--allow-dirty"});
  INFO(migrate.err);
  REQUIRE(migrate.code == 0);
  CHECK(sandbox.git({"log", "-1", "--format=%s"}).out ==
        "vault(migrate): convert 3 memories to the current layout\n");
  const std::size_t at = init.out.rfind("next: ");
  REQUIRE(at != std::string::npos);
  const auto commit = sandbox.sh(init.out.substr(at + 6, init.out.find('\n', at) - at - 6));
  INFO(commit.err);
  CHECK(commit.code == 0);
  CHECK(sandbox.git({"status", "--porcelain"}).out.empty());
  CHECK(sandbox.vault({"check"}).code == 0);
}

TEST_CASE("migrate --dry-run after init names the command that works, and it does",
          "[migrate][init]") {
  Sandbox sandbox;
  write_legacy_vault(sandbox);
  sandbox.commit_all("an early vault");
  REQUIRE(sandbox.vault({"init"}).code == 0);  // leaves .memory/distill-log.json uncommitted
  const auto dry = sandbox.vault({"migrate", "--dry-run"});
  INFO(dry.out << dry.err);
  REQUIRE(dry.code == 0);
  const std::string printed = "git vault migrate --allow-dirty";
  CHECK_THAT(dry.err, Catch::Contains("`" + printed + "` converts them"));
  CHECK_THAT(dry.err, Catch::Contains("--allow-dirty, since "));
  // Plain `git vault migrate` is what refuses here; the printed one goes through.
  CHECK(sandbox.vault({"migrate"}).code != 0);
  const auto run = sandbox.sh(printed);
  INFO(run.err);
  CHECK(run.code == 0);
  CHECK(sandbox.git({"log", "-1", "--format=%s"}).out ==
        "vault(migrate): convert 3 memories to the current layout\n");
}

}  // namespace migrate_test
