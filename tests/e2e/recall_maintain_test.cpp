#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "tests/e2e/sandbox.hpp"

namespace recall_maintain_test {

using gv::test::Sandbox;

namespace {

constexpr const char* k_working =
    "# Working Memory\n"
    "> Last updated: 2026-11-01\n"
    "\n"
    "## Critical Preferences\n"
    "- Dave prefers concise error messages and no unnecessary logging ^tr0000000001\n"
    "- Deploy target is AWS us-east-1 with fallback to us-west-2 ^tr0000000002\n"
    "- Short note ^tr0000000003\n"
    "- Another fact here ^tr0000000004\n";

constexpr const char* k_tech_stack =
    "# Tech Stack\n"
    "\n"
    "- Using Node 16 in production ^tr00000000aa\n"
    "- Using Postgres 15 ^tr00000000bb\n";

// Scores at 2026-11-30T12:00:00Z: 1 = 9 + 4.5, 2 = 9 + 3, 3 = 2 + 0, 4 = 3 + 1; aa is superseded.
constexpr const char* k_metadata = R"({
  "tr0000000001": {"created_at": "2026-01-01T00:00:00Z", "last_reviewed_at": "2026-10-16T12:00:00Z", "pinned": false, "snoozed_until": null, "status": "active", "tier": "working"},
  "tr0000000002": {"created_at": "2026-01-01T00:00:00Z", "last_reviewed_at": "2026-10-31T12:00:00Z", "pinned": false, "snoozed_until": null, "status": "active", "tier": "working"},
  "tr0000000003": {"created_at": "2026-01-01T00:00:00Z", "last_reviewed_at": "2026-11-30T12:00:00Z", "pinned": false, "snoozed_until": null, "status": "active", "tier": "working"},
  "tr0000000004": {"created_at": "2026-01-01T00:00:00Z", "last_reviewed_at": "2026-11-20T12:00:00Z", "pinned": false, "snoozed_until": null, "status": "active", "tier": "working"},
  "tr00000000aa": {"created_at": "2026-01-01T00:00:00Z", "last_reviewed_at": "2026-11-01T00:00:00Z", "pinned": false, "snoozed_until": null, "status": "superseded", "tier": "register"},
  "tr00000000bb": {"created_at": "2026-01-01T00:00:00Z", "last_reviewed_at": "2026-11-01T00:00:00Z", "pinned": false, "snoozed_until": null, "status": "active", "tier": "register"}
}
)";

void write_vault(const Sandbox& sandbox) {
  sandbox.write("CLAUDE.local.md", k_working);
  sandbox.write("memory/registers/tech-stack.md", k_tech_stack);
  sandbox.write("memory/.recall/metadata.json", k_metadata);
}

std::string head(const Sandbox& sandbox) { return sandbox.git({"rev-parse", "HEAD"}).out; }

bool contains(const std::string& haystack, std::string_view needle) {
  return haystack.find(needle) != std::string::npos;
}

}  // namespace

TEST_CASE("maintain demotes, archives, pins and snoozes in one commit, moving whole lines",
          "[e2e][recall][maintain]") {
  Sandbox sandbox;
  write_vault(sandbox);
  sandbox.write("README.md", "project\n");
  sandbox.commit_all();
  const std::string before = head(sandbox);
  // A user's unrelated staged change must stay staged and out of the commit.
  sandbox.write("notes.txt", "mine\n");
  REQUIRE(sandbox.git({"add", "notes.txt"}).code == 0);

  const auto result =
      sandbox.vault({"recall", "maintain", "--budget", "1", "--decide", "tr0000000001=demote",
                     "--decide", "^tr0000000002=archive", "--decide", "tr0000000003=pin",
                     "--decide", "tr0000000004=snooze:14", "--apply-all"});
  INFO(result.err);
  REQUIRE(result.code == 0);

  CHECK(sandbox.read("CLAUDE.local.md") ==
        "# Working Memory\n"
        "> Last updated: 2026-11-01\n"
        "\n"
        "## Critical Preferences\n"
        "- Short note ^tr0000000003\n"
        "- Another fact here ^tr0000000004\n");
  CHECK(sandbox.read("memory/registers/_inbox.md") ==
        "# Inbox\n"
        "> Entries demoted from working memory. Review and file into appropriate registers.\n"
        "\n"
        "- Dave prefers concise error messages and no unnecessary logging ^tr0000000001\n");
  CHECK(sandbox.read("memory/archive/ARCHIVE.md") ==
        "# Archive\n"
        "> Archived memory entries. Searchable but never auto-loaded.\n"
        "\n"
        "- Deploy target is AWS us-east-1 with fallback to us-west-2 ^tr0000000002\n"
        "- Using Node 16 in production ^tr00000000aa\n");
  CHECK(sandbox.read("memory/registers/tech-stack.md") ==
        "# Tech Stack\n"
        "\n"
        "- Using Postgres 15 ^tr00000000bb\n");
  CHECK(sandbox.read("memory/.recall/metadata.json") == R"({
  "tr0000000001": {
    "created_at": "2026-01-01T00:00:00Z",
    "last_reviewed_at": "2026-11-30T12:00:00Z",
    "pinned": false,
    "snoozed_until": null,
    "status": "active",
    "tier": "register"
  },
  "tr0000000002": {
    "created_at": "2026-01-01T00:00:00Z",
    "last_reviewed_at": "2026-11-30T12:00:00Z",
    "pinned": false,
    "snoozed_until": null,
    "status": "archived",
    "tier": "archive"
  },
  "tr0000000003": {
    "created_at": "2026-01-01T00:00:00Z",
    "last_reviewed_at": "2026-11-30T12:00:00Z",
    "pinned": true,
    "snoozed_until": null,
    "status": "active",
    "tier": "working"
  },
  "tr0000000004": {
    "created_at": "2026-01-01T00:00:00Z",
    "last_reviewed_at": "2026-11-30T12:00:00Z",
    "pinned": false,
    "snoozed_until": "2026-12-14T12:00:00Z",
    "status": "active",
    "tier": "working"
  },
  "tr00000000aa": {
    "created_at": "2026-01-01T00:00:00Z",
    "last_reviewed_at": "2026-11-30T12:00:00Z",
    "pinned": false,
    "snoozed_until": null,
    "status": "archived",
    "tier": "archive"
  },
  "tr00000000bb": {
    "created_at": "2026-01-01T00:00:00Z",
    "last_reviewed_at": "2026-11-01T00:00:00Z",
    "pinned": false,
    "snoozed_until": null,
    "status": "active",
    "tier": "register"
  }
}
)");

  // Exactly one new commit, holding exactly the recall paths, with the trailers.
  CHECK(sandbox.git({"rev-parse", "HEAD~1"}).out == before);
  CHECK(sandbox.git({"show", "--name-only", "--format=", "HEAD"}).out ==
        "CLAUDE.local.md\n"
        "memory/.recall/metadata.json\n"
        "memory/archive/ARCHIVE.md\n"
        "memory/registers/_inbox.md\n"
        "memory/registers/tech-stack.md\n");
  CHECK(sandbox.git({"log", "-1", "--format=%s"}).out ==
        "vault(recall-maintain): demote 1, archive 2, pin 1, snooze 1\n");
  CHECK(sandbox.git({"log", "-1", "--format=%(trailers:unfold)"}).out ==
        "Vault-Action: recall-maintain\n"
        "Vault-Log-Id: recall_1796040000\n"
        "Vault-Memories: tr0000000001, tr0000000002, tr0000000003, tr0000000004, tr00000000aa\n"
        "\n");
  CHECK(sandbox.git({"diff", "--cached", "--name-only"}).out == "notes.txt\n");
  CHECK(sandbox.git({"status", "--porcelain"}).out == "A  notes.txt\n");

  // The presentation lists the candidates in selection order, then the summary.
  CHECK(contains(result.out, "recall-maintain — 5 candidates\n"));
  CHECK(contains(result.out, "Working memory: 23 words (target: 1, over by 22)\n"));
  CHECK(contains(result.out,
                 "1. [CLAUDE.local.md] 9 words, last reviewed 45 days ago\n"
                 "   \"Dave prefers concise error messages and no unnecessary logging\" "
                 "^tr0000000001\n"));
  CHECK(contains(result.out, "3. [CLAUDE.local.md] 3 words, last reviewed 10 days ago\n"));
  CHECK(contains(result.out, "5. [registers/tech-stack.md] status: superseded\n"));
  CHECK(contains(result.out,
                 "Working memory: 23 -> 5 words (target: 1)\n\n"
                 "Actions taken:\n"
                 "  Kept (reviewed): 0\n"
                 "  Pinned: 1\n"
                 "  Snoozed: 1 (until 2026-12-14)\n"
                 "  Demoted to _inbox.md: 1\n"
                 "  Archived: 2\n"
                 "  Marked superseded: 0\n"));
  CHECK(contains(result.out, "Metadata: 6 entries in memory/.recall/metadata.json\n"));

  // The commit is named with the command that takes it back, and that command does.
  const std::string commit = sandbox.git({"rev-parse", "HEAD"}).out;
  CHECK(contains(result.out, "Committed " + commit.substr(0, 12) + "\nUndo with: git revert " +
                                 commit.substr(0, 12) + "\n"));
  REQUIRE(sandbox.git({"commit", "-qm", "notes"}).code == 0);  // git revert wants a clean index
  const auto undo = sandbox.git({"revert", "--no-edit", commit.substr(0, 12)});
  INFO(undo.err);
  REQUIRE(undo.code == 0);
  CHECK(sandbox
            .git({"diff", "--name-only", before.substr(0, 40), "HEAD", "--", "CLAUDE.local.md",
                  "memory"})
            .out.empty());
}

TEST_CASE("two maintain commits in one second get distinct log ids", "[e2e][recall][maintain]") {
  Sandbox sandbox;
  write_vault(sandbox);
  sandbox.commit_all();
  REQUIRE(
      sandbox.vault({"recall", "maintain", "--budget", "1", "--decide", "tr0000000003=pin"}).code ==
      0);
  REQUIRE(
      sandbox.vault({"recall", "maintain", "--budget", "1", "--decide", "tr0000000004=snooze:14"})
          .code == 0);
  CHECK(sandbox.git({"log", "-2", "--format=%(trailers:key=Vault-Log-Id,valueonly)"}).out ==
        "recall_1796040000_2\n\nrecall_1796040000\n\n");
}

TEST_CASE("a dirty CLAUDE.local.md is refused and nothing changes", "[e2e][recall][maintain]") {
  Sandbox sandbox;
  write_vault(sandbox);
  sandbox.commit_all();
  const std::string before = head(sandbox);
  const std::string edited = std::string{k_working} + "- typed by hand ^tr0000000005\n";
  sandbox.write("CLAUDE.local.md", edited);

  const auto refused = sandbox.vault({"recall", "maintain", "--budget", "1", "--apply-all"});
  CHECK(refused.code == 128);
  CHECK(contains(refused.err, "uncommitted changes in vault paths"));
  CHECK(contains(refused.err, "CLAUDE.local.md"));
  CHECK(refused.out.empty());  // refused before the candidates are shown
  // A dry run writes nothing, so it still shows them.
  CHECK_FALSE(sandbox.vault({"recall", "maintain", "--budget", "1", "--dry-run"}).out.empty());
  CHECK(sandbox.read("CLAUDE.local.md") == edited);
  CHECK(sandbox.read("memory/.recall/metadata.json") == k_metadata);
  CHECK_FALSE(sandbox.exists("memory/registers/_inbox.md"));
  CHECK(head(sandbox) == before);

  const auto allowed =
      sandbox.vault({"recall", "maintain", "--budget", "100", "--apply-all", "--allow-dirty"});
  INFO(allowed.err);
  CHECK(allowed.code == 0);
  CHECK(sandbox.read("memory/registers/tech-stack.md") ==
        "# Tech Stack\n\n- Using Postgres 15 ^tr00000000bb\n");
  // The hand edit is not rewritten, so it stays out of the commit, and the run says so.
  CHECK(contains(allowed.err,
                 "note: --allow-dirty: uncommitted changes stay out of the commit, as they are: "
                 "CLAUDE.local.md\n"));
  CHECK(sandbox.read("CLAUDE.local.md") == edited);
  CHECK(sandbox.git({"status", "--porcelain", "CLAUDE.local.md"}).out == " M CLAUDE.local.md\n");
}

TEST_CASE("the undo line says what git revert leaves when CLAUDE.local.md is ignored",
          "[e2e][recall][maintain]") {
  Sandbox sandbox;
  sandbox.write(".gitignore", "CLAUDE.local.md\n");
  write_vault(sandbox);
  sandbox.commit_all();
  const auto result = sandbox.vault(
      {"recall", "maintain", "--budget", "1", "--decide", "tr0000000001=demote", "--apply-all"});
  INFO(result.err);
  REQUIRE(result.code == 0);
  const std::string commit = sandbox.git({"rev-parse", "HEAD"}).out.substr(0, 12);
  CHECK(contains(result.out, "Undo with: git revert " + commit +
                                 " (it restores the committed files only: CLAUDE.local.md is "
                                 "ignored by git and keeps this run's changes)\n"));
}

TEST_CASE("recall files that git ignores are written to the work tree without a commit",
          "[e2e][recall][maintain]") {
  Sandbox sandbox;
  sandbox.write(".gitignore", "CLAUDE.local.md\nmemory/\n");
  sandbox.commit_all();
  write_vault(sandbox);
  const std::string before = head(sandbox);

  const auto result = sandbox.vault({"recall", "maintain", "--apply-all"});
  INFO(result.err);
  CHECK(result.code == 0);
  CHECK(contains(result.err, "not tracked by git"));
  CHECK(head(sandbox) == before);
  // Under budget: only the superseded entry is archived.
  CHECK(sandbox.read("memory/archive/ARCHIVE.md") ==
        "# Archive\n"
        "> Archived memory entries. Searchable but never auto-loaded.\n"
        "\n"
        "- Using Node 16 in production ^tr00000000aa\n");
  CHECK(sandbox.read("CLAUDE.local.md") == k_working);
  CHECK(sandbox.git({"status", "--porcelain"}).out.empty());
}

TEST_CASE("option --no-commit leaves the changes in the work tree", "[e2e][recall][maintain]") {
  Sandbox sandbox;
  write_vault(sandbox);
  sandbox.commit_all();
  const std::string before = head(sandbox);
  const auto result =
      sandbox.vault({"recall", "maintain", "--decide", "tr00000000aa=keep", "--no-commit"});
  INFO(result.err);
  CHECK(result.code == 0);
  CHECK(head(sandbox) == before);
  CHECK(sandbox.git({"status", "--porcelain"}).out == " M memory/.recall/metadata.json\n");
  CHECK(contains(sandbox.read("memory/.recall/metadata.json"),
                 "  \"tr00000000aa\": {\n"
                 "    \"created_at\": \"2026-01-01T00:00:00Z\",\n"
                 "    \"last_reviewed_at\": \"2026-11-30T12:00:00Z\",\n"
                 "    \"pinned\": false,\n"
                 "    \"snoozed_until\": null,\n"
                 "    \"status\": \"superseded\",\n"));
}

TEST_CASE("CRLF working memory demotes into a new LF inbox; a missing final newline stays safe",
          "[e2e][recall][maintain][edge-13][edge-14]") {
  Sandbox sandbox;
  sandbox.write("CLAUDE.local.md", "# W\r\n- one two ^tr0000000001\r\n- four five ^tr0000000002");
  sandbox.commit_all();
  const auto result = sandbox.vault({"recall", "maintain", "--budget", "1", "--decide",
                                     "tr0000000001=demote", "--decide", "tr0000000002=archive"});
  INFO(result.err);
  REQUIRE(result.code == 0);
  CHECK(sandbox.read("CLAUDE.local.md") == "# W\r\n");
  CHECK(sandbox.read("memory/registers/_inbox.md") ==
        "# Inbox\n"
        "> Entries demoted from working memory. Review and file into appropriate registers.\n"
        "\n"
        "- one two ^tr0000000001\n");
  CHECK(sandbox.read("memory/archive/ARCHIVE.md").ends_with("\n\n- four five ^tr0000000002\n"));
  // New records: created and reviewed now, moved to their new tiers.
  const auto metadata = nlohmann::json::parse(sandbox.read("memory/.recall/metadata.json"));
  CHECK(metadata["tr0000000001"]["tier"] == "register");
  CHECK(metadata["tr0000000001"]["created_at"] == "2026-11-30T12:00:00Z");
  CHECK(metadata["tr0000000002"]["status"] == "archived");
}

TEST_CASE("maintain refuses entries without ids, naming init-ids, and writes nothing",
          "[e2e][recall][maintain][edge-5][edge-8]") {
  Sandbox sandbox;
  sandbox.write("CLAUDE.local.md",
                "- [ ] Call Sam ^tr0123456789\n- [x] Done thing\n- foo ^tr0000000001 bar\n");
  const auto result = sandbox.vault({"recall", "maintain", "--apply-all"});
  CHECK(result.code == 1);
  CHECK(result.err ==
        "Cannot run maintain: 2 entries are missing IDs.\n"
        "Run git vault recall init-ids --yes first to tag all entries.\n"
        "  malformed: CLAUDE.local.md line 3\n");
  CHECK_FALSE(sandbox.exists("memory/.recall/metadata.json"));
}

TEST_CASE("ids in the older spelling send maintain and check to doctor --fix, which clears them",
          "[e2e][recall][maintain]") {
  Sandbox sandbox;
  sandbox.write("CLAUDE.local.md",
                "- Use tabs ^tr-0123456789\n- Short ^tr-abcdefabcd\n- New one\n");
  sandbox.commit_all("older working memory");
  const auto maintain = sandbox.vault({"recall", "maintain", "--dry-run"});
  CHECK(maintain.code == 1);
  CHECK(maintain.err ==
        "Cannot run maintain: 3 entries are missing IDs.\n"
        "Run git vault recall init-ids --yes first to tag all entries.\n"
        "Before that, run git vault recall doctor --fix: 2 of them already have an id, in the "
        "older spelling or on another line, that init-ids would not keep.\n"
        "  malformed: CLAUDE.local.md line 1 (the older spelling; git vault recall doctor --fix "
        "respells it)\n"
        "  malformed: CLAUDE.local.md line 2 (the older spelling; git vault recall doctor --fix "
        "respells it)\n");

  const auto check = sandbox.vault({"check"});
  CHECK(check.code == 1);
  CHECK_THAT(check.out,
             Catch::Contains("CLAUDE.local.md:1: error: `^tr-0123456789` is the older spelling of "
                             "`^tr0123456789` [malformed-id]") &&
                 Catch::Contains("  fix: git vault recall doctor --fix\n") &&
                 Catch::Contains("Before that, run git vault recall doctor --fix: some of them "
                                 "already have an id, in the older spelling or on another line, "
                                 "that init-ids would not keep.\n"));

  // Following the advice, in its order, clears the gate.
  REQUIRE(sandbox.vault({"recall", "doctor", "--fix"}).code == 0);
  REQUIRE(sandbox.vault({"recall", "init-ids", "--yes"}).code == 0);
  CHECK_THAT(sandbox.read("CLAUDE.local.md"),
             Catch::StartsWith("- Use tabs ^tr0123456789\n- Short ^trabcdefabcd\n- New one ^tr"));
  REQUIRE(sandbox.git({"add", "-A"}).code == 0);  // init-ids leaves its files to be staged
  const auto after = sandbox.vault({"check"});
  INFO(after.out << after.err);
  CHECK(after.code == 0);
  CHECK(sandbox.vault({"recall", "maintain", "--dry-run"}).code == 0);
}

TEST_CASE("an entry whose id sits on its heading is sent to doctor --fix, which keeps the id",
          "[e2e][recall][maintain]") {
  Sandbox sandbox;
  sandbox.write("memory/registers/tech-stack.md",
                "# Tech Stack\n\n## Database ^tr7c3e9f1d2a\n- PostgreSQL 16\n");
  sandbox.write("memory/.recall/metadata.json",
                "{\n  \"tr7c3e9f1d2a\": {\"created_at\": \"2026-01-02T03:04:05Z\", "
                "\"last_reviewed_at\": \"2026-01-02T03:04:05Z\", \"status\": \"active\", "
                "\"tier\": \"register\"}\n}\n");
  sandbox.commit_all("ids on headings");
  const auto maintain = sandbox.vault({"recall", "maintain", "--dry-run"});
  CHECK(maintain.code == 1);
  CHECK_THAT(maintain.err, Catch::Contains("Before that, run git vault recall doctor --fix: 1 of "
                                           "them already has an id"));
  const auto check = sandbox.vault({"check"});
  CHECK_THAT(check.out, Catch::Contains("memory/registers/tech-stack.md:4: error: entry has no id: "
                                        "\"PostgreSQL 16\"; its id is on line 3 [missing-id]\n"
                                        "  fix: git vault recall doctor --fix\n"));
  REQUIRE(sandbox.vault({"recall", "doctor", "--fix"}).code == 0);
  CHECK_THAT(sandbox.read("memory/registers/tech-stack.md"),
             Catch::Contains("- PostgreSQL 16 ^tr7c3e9f1d2a\n"));
  CHECK(sandbox.vault({"check"}).code == 0);
  CHECK(sandbox.vault({"recall", "maintain", "--dry-run"}).code == 0);
}

TEST_CASE("maintain refuses duplicate ids across tiers, listing every location",
          "[e2e][recall][maintain][edge-16][edge-17]") {
  Sandbox sandbox;
  sandbox.write("CLAUDE.local.md", "# W\n- a ^tr8f2a1c3d7e\n");
  sandbox.write("memory/archive/2025/q4/old.md", "# Old\n\n- a again ^tr8f2a1c3d7e\n");
  sandbox.write("memory/registers/sub/x.md", "- not scanned ^tr8f2a1c3d7e\n");
  const auto result = sandbox.vault({"recall", "maintain", "--dry-run"});
  CHECK(result.code == 1);
  CHECK(result.err ==
        "Cannot run maintain: duplicate ID found.\n"
        "ID: ^tr8f2a1c3d7e\n"
        "  1. CLAUDE.local.md line 2\n"
        "  2. archive/2025/q4/old.md line 3\n"
        "Resolve manually before running maintain.\n");
}

TEST_CASE("invalid metadata JSON stops maintain and stays byte-identical",
          "[e2e][recall][maintain][edge-18]") {
  Sandbox sandbox;
  sandbox.write("CLAUDE.local.md", "- a ^tr0000000001\n");
  const std::string broken = "{\n  \"tr0000000001\": {,\n}\n";
  sandbox.write("memory/.recall/metadata.json", broken);
  const auto result = sandbox.vault({"recall", "maintain", "--apply-all"});
  CHECK(result.code == 128);
  CHECK(contains(result.err, "git-vault: error: memory/.recall/metadata.json:2: invalid JSON"));
  CHECK(sandbox.read("memory/.recall/metadata.json") == broken);
}

TEST_CASE("option --dry-run writes nothing and --json gives the fixed shape",
          "[e2e][recall][maintain][edge-19]") {
  Sandbox sandbox;
  write_vault(sandbox);
  sandbox.commit_all();
  const auto json = sandbox.vault({"--json", "recall", "maintain", "--dry-run", "--budget", "10"});
  REQUIRE(json.code == 0);
  // The one JSON printer: indented, one trailing newline.
  CHECK(json.out.starts_with("{\n  \"budget\": 10,\n"));
  CHECK(json.out.ends_with("}\n"));
  CHECK(
      nlohmann::json::parse(json.out).dump() ==
      R"({"budget":10,"pressure_candidates":[{"id":"tr0000000001","line":5,"path":"CLAUDE.local.md","score":13.5,"words":9},)"
      R"({"id":"tr0000000002","line":6,"path":"CLAUDE.local.md","score":12.0,"words":9}],"schema":1,)"
      R"("superseded":[{"id":"tr00000000aa","line":3,"path":"memory/registers/tech-stack.md"}],"working_words":23})");
  const auto text = sandbox.vault({"recall", "maintain", "--dry-run"});
  CHECK(text.code == 0);
  CHECK(text.out.starts_with("recall-maintain — 1 candidate\n"));
  CHECK(contains(text.out, "\nStale entries: none.\n"));
  CHECK(sandbox.git({"status", "--porcelain"}).out.empty());
}

TEST_CASE("without a terminal or decision flags nothing changes and the flags are named",
          "[e2e][recall][maintain]") {
  Sandbox sandbox;
  write_vault(sandbox);
  sandbox.commit_all();
  const auto result = sandbox.vault({"recall", "maintain"});
  CHECK(result.code == 1);
  CHECK(contains(result.out, "recall-maintain — 1 candidate\n"));
  CHECK(contains(result.err, "--decide ID=ACTION[:days]"));
  CHECK(contains(result.err, "--apply-all"));
  CHECK(sandbox.git({"status", "--porcelain"}).out.empty());
}

TEST_CASE("option --decide for an entry that is not a candidate is a usage error",
          "[e2e][recall][maintain]") {
  Sandbox sandbox;
  write_vault(sandbox);
  sandbox.commit_all();
  const auto result = sandbox.vault({"recall", "maintain", "--decide", "tr00000000bb=archive"});
  CHECK(result.code == 129);
  CHECK(contains(result.err, "^tr00000000bb is not a candidate"));
  CHECK(sandbox.git({"status", "--porcelain"}).out.empty());
}

TEST_CASE("keep twice at the same instant gives byte-identical metadata and no second commit",
          "[e2e][recall][maintain][edge-19]") {
  Sandbox sandbox;
  write_vault(sandbox);
  sandbox.commit_all();
  REQUIRE(sandbox.vault({"recall", "maintain", "--decide", "tr00000000aa=keep"}).code == 0);
  const std::string metadata = sandbox.read("memory/.recall/metadata.json");
  const std::string after_first = head(sandbox);
  const auto again = sandbox.vault({"recall", "maintain", "--decide", "tr00000000aa=keep"});
  CHECK(again.code == 0);
  CHECK(sandbox.read("memory/.recall/metadata.json") == metadata);
  CHECK(head(sandbox) == after_first);
}

TEST_CASE("the budget comes from git config vault.recallBudget", "[e2e][recall][maintain]") {
  Sandbox sandbox;
  write_vault(sandbox);
  sandbox.commit_all();
  REQUIRE(sandbox.git({"config", "vault.recallBudget", "20"}).code == 0);
  const auto result = sandbox.vault({"--json", "recall", "maintain", "--dry-run"});
  REQUIRE(result.code == 0);
  const auto document = nlohmann::json::parse(result.out);
  CHECK(document["budget"] == 20);
  CHECK(document["pressure_candidates"].size() == 1);
  // The flag wins over the config.
  const auto flag =
      sandbox.vault({"--json", "recall", "maintain", "--dry-run", "--budget", "1500"});
  CHECK(nlohmann::json::parse(flag.out)["pressure_candidates"].empty());
  REQUIRE(sandbox.git({"config", "vault.recallBudget", "lots"}).code == 0);
  CHECK(sandbox.vault({"recall", "maintain", "--dry-run"}).code == 129);
}

TEST_CASE("an all-clear run reconciles metadata, runs the checks and prints the summary",
          "[e2e][recall][maintain][edge-18][edge-30]") {
  Sandbox sandbox;
  sandbox.write("CLAUDE.local.md", "- a b c ^tr0000000001\n");
  sandbox.write("memory/daily/2026-10-01.md", "# 2026-10-01\n");
  sandbox.write("memory/daily/notes.md", "x\n");
  sandbox.commit_all();
  const auto result = sandbox.vault({"recall", "maintain"});
  INFO(result.err);
  CHECK(result.code == 0);
  CHECK(
      result.out.starts_with("recall-maintain — all clear\n"
                             "━━━━━━━━━━━━━━━━━━━━━━━━━━━\n"
                             "\n"
                             "Working memory: 3 words (target: 1500) - under budget\n"
                             "No superseded entries pending cleanup.\n"
                             "No action needed.\n"
                             "\n"
                             "Stale entries: none.\n"));
  CHECK(
      contains(result.out,
               "Daily logs older than 30 days: 1 — suggest archiving to memory/archive/daily/\n"));
  CHECK(contains(result.out, "Working memory: 3 -> 3 words (target: 1500)\n"));
  CHECK(sandbox.read("memory/.recall/metadata.json") ==
        "{\n"
        "  \"tr0000000001\": {\n"
        "    \"created_at\": \"2026-11-30T12:00:00Z\",\n"
        "    \"last_reviewed_at\": \"2026-11-30T12:00:00Z\",\n"
        "    \"pinned\": false,\n"
        "    \"snoozed_until\": null,\n"
        "    \"status\": \"active\",\n"
        "    \"tier\": \"working\"\n"
        "  }\n"
        "}\n");
  CHECK(sandbox.git({"log", "-1", "--format=%s"}).out ==
        "vault(recall-maintain): reconcile metadata\n");
}

TEST_CASE("maintain outside an initialised memory system says so", "[e2e][recall][maintain]") {
  Sandbox sandbox;
  const auto result = sandbox.vault({"recall", "maintain"});
  CHECK(result.code == 1);
  CHECK(contains(result.err, "Memory system not initialized"));
}

TEST_CASE("on a terminal each candidate is asked for in turn", "[e2e][recall][maintain][tty]") {
  Sandbox sandbox;
  if (sandbox.sh("command -v script").code != 0) {
    WARN("util-linux `script` is not installed; the terminal case is not run");
    return;
  }
  write_vault(sandbox);
  sandbox.commit_all();
  // script(1) gives the command a pseudo-terminal; the answers arrive through it. `x` is not a
  // choice and is asked again.
  const auto result = sandbox.sh(
      "printf 'i\\nd\\nx\\nsnooze 3\\nk\\n' | "
      "script -qec 'git vault recall maintain --budget 10' /dev/null");
  INFO(result.out);
  CHECK(result.code == 0);
  CHECK(contains(result.out, "Apply all / decide individually?"));
  CHECK(sandbox.read("memory/registers/_inbox.md")
            .ends_with("\n- Dave prefers concise error messages and no unnecessary logging "
                       "^tr0000000001\n"));
  CHECK(sandbox.read("memory/registers/tech-stack.md") == k_tech_stack);
  const auto metadata = nlohmann::json::parse(sandbox.read("memory/.recall/metadata.json"));
  CHECK(metadata["tr0000000002"]["snoozed_until"] == "2026-12-03T12:00:00Z");
  CHECK(metadata["tr00000000aa"]["status"] == "superseded");
  CHECK(metadata["tr00000000aa"]["last_reviewed_at"] == "2026-11-30T12:00:00Z");
  CHECK(sandbox.git({"log", "-1", "--format=%s"}).out ==
        "vault(recall-maintain): demote 1, snooze 1, keep 1\n");
}

TEST_CASE("an ignored metadata file is written but kept out of the commit",
          "[e2e][recall][maintain]") {
  Sandbox sandbox;
  sandbox.write(".gitignore", "memory/.recall/\n");
  write_vault(sandbox);
  sandbox.commit_all();
  const auto result = sandbox.vault({"recall", "maintain", "--apply-all"});
  INFO(result.err);
  REQUIRE(result.code == 0);
  CHECK(contains(result.err,
                 "ignored by git, written without a commit: memory/.recall/metadata.json"));
  CHECK(sandbox.git({"show", "--name-only", "--format=", "HEAD"}).out ==
        "memory/archive/ARCHIVE.md\n"
        "memory/registers/tech-stack.md\n");
  CHECK(contains(sandbox.read("memory/.recall/metadata.json"), "\"status\": \"archived\""));
  CHECK(sandbox.git({"status", "--porcelain"}).out.empty());
}

TEST_CASE("recall maintain --decide takes a candidate's list number as well as its id",
          "[e2e][recall][maintain]") {
  Sandbox sandbox;
  write_vault(sandbox);
  sandbox.commit_all();
  // Without a budget the one candidate is superseded ^tr00000000aa, listed as 1.
  const auto listed = sandbox.vault({"recall", "maintain"});
  CHECK(contains(listed.out,
                 "1. [registers/tech-stack.md] status: superseded\n"
                 "   \"Using Node 16 in production\" ^tr00000000aa\n"));
  const auto out_of_range = sandbox.vault({"recall", "maintain", "--decide", "2=keep"});
  CHECK(out_of_range.code == 129);
  CHECK(contains(out_of_range.err, "--decide '2=keep': this run lists one candidate, number 1"));
  const auto by_number = sandbox.vault({"recall", "maintain", "--decide", "1=keep", "--no-commit"});
  INFO(by_number.err);
  CHECK(by_number.code == 0);
  CHECK(contains(sandbox.read("memory/.recall/metadata.json"),
                 "  \"tr00000000aa\": {\n"
                 "    \"created_at\": \"2026-01-01T00:00:00Z\",\n"
                 "    \"last_reviewed_at\": \"2026-11-30T12:00:00Z\",\n"));
}

TEST_CASE("a maintain dry run cuts each list at --limit and counts the rest",
          "[e2e][recall][maintain]") {
  Sandbox sandbox;
  write_vault(sandbox);
  sandbox.commit_all();
  // Budget 10: both working entries are pressure candidates; --limit 1 shows the first.
  const auto cut =
      sandbox.vault({"--limit", "1", "recall", "maintain", "--dry-run", "--budget", "10"});
  REQUIRE(cut.code == 0);
  CHECK(contains(cut.out, "^tr0000000001"));
  CHECK(!contains(cut.out, "^tr0000000002"));
  CHECK(contains(cut.out, "... and 1 more (`--limit 0` lists them all"));
  // Numbering is the one --decide takes: the superseded entry after the cut is still number 3.
  CHECK(contains(cut.out, "3."));
  const auto all =
      sandbox.vault({"--limit", "0", "recall", "maintain", "--dry-run", "--budget", "10"});
  CHECK(contains(all.out, "^tr0000000002"));
  CHECK(!contains(all.out, "... and"));
}

TEST_CASE("maintain --allow-dirty says when its commit takes a hand edit with it",
          "[e2e][recall][maintain]") {
  Sandbox sandbox;
  write_vault(sandbox);
  sandbox.commit_all();
  sandbox.write("CLAUDE.local.md", std::string{k_working} + "- typed by hand ^tr0000000005\n");

  const auto result = sandbox.vault(
      {"recall", "maintain", "--budget", "1", "--decide", "tr0000000001=demote", "--allow-dirty"});
  INFO(result.err);
  REQUIRE(result.code == 0);
  CHECK(contains(result.err,
                 "note: --allow-dirty: the commit includes your uncommitted edits of "
                 "CLAUDE.local.md\n"));
  CHECK(contains(sandbox.git({"show", "HEAD:CLAUDE.local.md"}).out, "typed by hand"));
  CHECK_FALSE(contains(sandbox.git({"show", "HEAD:CLAUDE.local.md"}).out, "concise error"));

  // Quiet runs leave the note out.
  sandbox.write("CLAUDE.local.md", sandbox.read("CLAUDE.local.md") + "- more ^tr0000000006\n");
  const auto quiet = sandbox.vault({"recall", "maintain", "-q", "--budget", "1", "--decide",
                                    "tr0000000002=demote", "--allow-dirty"});
  INFO(quiet.err);
  REQUIRE(quiet.code == 0);
  CHECK_FALSE(contains(quiet.err, "--allow-dirty"));
}

TEST_CASE("a review time that is not one is warned about once, at its line",
          "[e2e][recall][maintain]") {
  Sandbox sandbox;
  sandbox.write("CLAUDE.local.md", "# Working Memory\n\n- one fact here ^tr0000000001\n");
  sandbox.write("memory/.recall/metadata.json",
                "{\n  \"tr0000000001\": {\"created_at\": \"2026-01-01T00:00:00Z\", "
                "\"last_reviewed_at\": \"bogus\", \"pinned\": false, \"snoozed_until\": null, "
                "\"status\": \"active\", \"tier\": \"working\"}\n}\n");
  sandbox.commit_all();
  const auto result = sandbox.vault({"recall", "maintain", "--budget", "1", "--dry-run"});
  INFO(result.err);
  REQUIRE(result.code == 0);
  CHECK(result.err ==
        "git-vault: warning: memory/.recall/metadata.json:2: `last_reviewed_at` is not a "
        "timestamp (`bogus`); treated as missing\n");
  CHECK(contains(result.out, "last reviewed: never (scored as 365 days)"));
}

TEST_CASE("a recall maintain commit is in git vault log, and git vault revert undoes it",
          "[e2e][recall][maintain][revert]") {
  Sandbox sandbox;
  write_vault(sandbox);
  sandbox.commit_all();
  const std::string before_registers = sandbox.read("memory/registers/tech-stack.md");
  const auto run = sandbox.vault({"recall", "maintain", "--decide", "1=archive"});
  INFO(run.out << run.err);
  REQUIRE(run.code == 0);
  const std::string maintained = head(sandbox).substr(0, 40);
  REQUIRE(sandbox.read("memory/registers/tech-stack.md") != before_registers);

  const auto log = sandbox.vault({"log"});
  INFO(log.out << log.err);
  REQUIRE(log.code == 0);
  CHECK(contains(log.out, "recall-maintain"));
  CHECK(contains(log.out, maintained.substr(0, 7)));
  const auto log_json = nlohmann::json::parse(sandbox.vault({"--json", "log"}).out);
  REQUIRE_FALSE(log_json["entries"].empty());
  const auto& entry = log_json["entries"].back();
  CHECK(entry["type"] == "recall-maintain");
  CHECK(entry["commit"] == maintained);
  const std::string id = entry["id"].get<std::string>();
  CHECK(id.starts_with("recall_"));

  // Undone by the id the log shows, as one commit that git vault log lists too.
  const auto revert = sandbox.vault({"revert", id});
  INFO(revert.out << revert.err);
  REQUIRE(revert.code == 0);
  CHECK(contains(revert.err, "Reverted " + maintained.substr(0, 7)));
  CHECK(sandbox.read("memory/registers/tech-stack.md") == before_registers);
  CHECK(sandbox.git({"status", "--porcelain"}).out.empty());
  CHECK(contains(sandbox.git({"log", "-1", "--format=%B"}).out,
                 "This reverts commit " + maintained + "."));
  CHECK(contains(sandbox.vault({"log"}).out, "recall-revert"));
  CHECK_FALSE(sandbox.exists(".memory"));
  CHECK_FALSE(sandbox.exists("specs/state.json"));
  // Undone once: a second revert says so.
  CHECK(sandbox.vault({"revert", id}).code == 1);
}

}  // namespace recall_maintain_test
