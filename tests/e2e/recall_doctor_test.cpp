#include <fmt/format.h>

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>
#include <regex>
#include <set>
#include <string>

#include "tests/e2e/sandbox.hpp"

namespace recall_doctor_test {

using gv::test::Result;
using gv::test::Sandbox;
using Json = nlohmann::json;

// Working memories written by older versions of the plugin, each layout rebuilt here by hand:
// they must reach a committed state that passes the gate with git-vault commands alone, keeping
// the ids their owners already gave them (doc/decisions.md D18).

namespace {

bool contains(const std::string& text, std::string_view part) {
  return text.find(part) != std::string::npos;
}

Result run_ok(const Result& result) {
  INFO(result.out << result.err);
  REQUIRE(result.code == 0);
  return result;
}

// Every `^tr` + 10 hex id in the working-memory files of the commit HEAD.
std::set<std::string> ids_at_head(const Sandbox& sandbox) {
  const std::string text =
      sandbox
          .sh("git grep -h -o '\\^tr[0-9a-f]\\{10\\}' HEAD -- CLAUDE.local.md memory/registers "
              "memory/archive")
          .out;
  std::set<std::string> ids;
  const std::regex id("tr[0-9a-f]{10}");
  for (std::sregex_iterator it(text.begin(), text.end(), id), end; it != end; ++it) {
    ids.insert(it->str());
  }
  return ids;
}

// Installs the hooks and commits the fixture as its owner had it (it does not pass the gate yet).
void adopt(Sandbox& sandbox) {
  run_ok(sandbox.vault({"hooks", "install"}));
  run_ok(sandbox.sh("git add -A && git commit -q --no-verify -m 'as the plugin left it'"));
}

// doctor, doctor --fix, init-ids --yes, then a commit through the pre-commit gate. Returns the
// report doctor printed before fixing.
Result migrate(Sandbox& sandbox) {
  const Result report = sandbox.vault({"recall", "doctor"});
  CHECK(report.code == 1);
  const Result fix = run_ok(sandbox.vault({"recall", "doctor", "--fix"}));
  CHECK(contains(fix.out, "Fixed: "));
  CHECK(contains(fix.out, "Undo with: git revert " +
                              sandbox.git({"rev-parse", "HEAD"}).out.substr(0, 12) + "\n"));
  CHECK_THAT(sandbox.git({"log", "-1", "--format=%s%n%(trailers:key=Vault-Action,valueonly)"}).out,
             Catch::StartsWith("vault(recall-doctor): ") && Catch::Contains("recall-doctor\n"));
  CHECK(sandbox.git({"status", "--porcelain"}).out.empty());
  run_ok(sandbox.vault({"recall", "init-ids", "--yes"}));
  if (!sandbox.git({"status", "--porcelain"}).out.empty()) {
    const Result commit = sandbox.sh("git add -A && git commit -q -m 'tag the remaining entries'");
    INFO(commit.err);
    CHECK(commit.code == 0);
  }
  const Result check = sandbox.vault({"check"});
  INFO(check.out << check.err);
  CHECK(check.code == 0);
  CHECK(sandbox.vault({"recall", "maintain", "--dry-run"}).code == 0);
  CHECK(sandbox.vault({"recall", "doctor"}).out.find("Nothing for doctor to fix.") !=
        std::string::npos);
  return report;
}

}  // namespace

// Dashed ids, ids on headings and on indented lines, a placeholder repeating a heading's id,
// metadata keyed by bare hex with file paths for tiers, date-only timestamps and an orphan.
TEST_CASE("recall doctor migrates a working memory with dashed ids on headings and lines",
          "[recall][doctor]") {
  Sandbox sandbox;
  sandbox.write("CLAUDE.local.md",
                "# Working Memory\n\n## Project State\n\n"
                "- **Branch**: `main` ^tr-a3f8c2e914\n"
                "- 667 tests passing\n\n"
                "## Open Loops\n\n- [none] ^tr-c9e4b2d781\n");
  sandbox.write("memory/registers/decisions.md",
                "# Decisions Register\n\n<!-- Format:\n## [Decision Title] — YYYY-MM-DD\n"
                "- **Decision**: ...\n-->\n\n"
                "## Connection Pool — 2026-02-23 ^tr-a8f3c7e291\n"
                "- **Decision**: one shared pool\n"
                "- **Rationale**: open/close per call is slow\n"
                "- **Alternatives considered**: per-call connections\n"
                "- **Status**: in-effect\n");
  sandbox.write("memory/registers/open-loops.md",
                "# Open Loops Register\n\n"
                "## Code Review — Items 2–5 — CLOSED ^tr-c9e4b2d781\n"
                "- **Type**: follow-up\n"
                "- **Context**: all items fixed.\n"
                "  - Item 2: removed a shadowed variable\n"
                "- **Status**: closed\n"
                "- **Added**: 2026-02-23 | **Resolved**: 2026-02-25\n");
  sandbox.write("memory/registers/projects.md",
                "# Projects Register\n\n## Bookmarker\n"
                "- **Status**: active\n"
                "- **Key files**:\n  - `src/lib/storage.js` — IndexedDB\n"
                "- **Review artefacts** (gitignored): `code_review.md`\n"
                "- **Last updated**: 2026-03-01 ^tr-b7d1f5a923\n\n"
                "## Completed Milestones\n"
                "- 2026-02-23: fixed four unawaited writes ^tr-f1a6e9c458\n");
  sandbox.write("memory/registers/tech-stack.md",
                "# Tech Stack Register\n\n## Testing\n"
                "- **Vitest** v4 — test runner\n"
                "- **Async ordering test** — proves a function awaits:\n"
                "  ```js\n  await functionUnderTest();\n  ```\n"
                "  Added: 2026-02-23 ^tr-e2b8d4c037\n");
  const auto record = [](const std::string& tier, const std::string& status) {
    return "{\"created_at\": \"2026-02-23\", \"last_reviewed_at\": \"2026-02-23\", \"pinned\": "
           "false, \"snoozed_until\": null, \"status\": \"" +
           status + "\", \"tier\": \"" + tier + "\"}";
  };
  sandbox.write("memory/.recall/metadata.json",
                "{\n\"a3f8c2e914\": " + record("CLAUDE.local.md", "active") +
                    ",\n\"a8f3c7e291\": " + record("registers/decisions.md", "active") +
                    ",\n\"c9e4b2d781\": " + record("registers/open-loops.md", "closed") +
                    ",\n\"b7d1f5a923\": " + record("registers/projects.md", "active") +
                    ",\n\"f1a6e9c458\": " + record("registers/projects.md", "active") +
                    ",\n\"e2b8d4c037\": " + record("registers/tech-stack.md", "active") +
                    ",\n\"d2f5c8a1e4\": " + record("registers/decisions.md", "active") + "\n}\n");
  adopt(sandbox);
  const std::set<std::string> before = {"tra3f8c2e914", "tra8f3c7e291", "trc9e4b2d781",
                                        "trb7d1f5a923", "trf1a6e9c458", "tre2b8d4c037"};

  const Result report = migrate(sandbox);
  CHECK(contains(report.out,
                 "memory/registers/decisions.md:8: `^tr-a8f3c7e291` is the older "
                 "spelling of `^tra8f3c7e291`\n"));
  CHECK(contains(report.out,
                 "memory/registers/decisions.md:8: `^tra8f3c7e291` on a heading "
                 "belongs to the entry at line 9\n"));
  CHECK(contains(report.out,
                 "`^trb7d1f5a923` on a later line of a claim block belongs to the "
                 "entry at line 4"));
  CHECK(contains(report.out, "`^tre2b8d4c037` on an indented line belongs to the entry at line 5"));
  CHECK(contains(report.out,
                 "CLAUDE.local.md:10: `^trc9e4b2d781` on a placeholder is a copy: "
                 "the id tags memory/registers/open-loops.md:4; removed here"));
  CHECK(contains(report.out, "key `a3f8c2e914` lacks the `tr` prefix"));
  CHECK(contains(report.out, "tier `registers/decisions.md` is a file path"));
  CHECK(contains(report.out, "record `trd2f5c8a1e4` belongs to no entry"));
  CHECK(contains(report.out, "status `closed` is not active, superseded or archived"));

  // Every id the owner had is still on an entry, now where the grammar reads it.
  const std::set<std::string> after = ids_at_head(sandbox);
  for (const std::string& id : before) {
    CHECK(after.contains(id));
  }
  CHECK(
      contains(sandbox.read("memory/registers/decisions.md"),
               "## Connection Pool — 2026-02-23\n- **Decision**: one shared pool ^tra8f3c7e291\n"));
  CHECK(contains(sandbox.read("memory/registers/projects.md"),
                 "- **Status**: active ^trb7d1f5a923\n"));
  CHECK(contains(sandbox.read("memory/registers/projects.md"), "- **Last updated**: 2026-03-01\n"));
  CHECK(contains(sandbox.read("CLAUDE.local.md"), "- [none]\n"));
  const Json metadata = Json::parse(sandbox.read("memory/.recall/metadata.json"));
  CHECK(metadata["tra8f3c7e291"]["tier"] == "register");
  CHECK(metadata["tra3f8c2e914"]["tier"] == "working");
  CHECK(metadata["tra8f3c7e291"]["created_at"] == "2026-02-23T00:00:00Z");
  CHECK(metadata["trc9e4b2d781"]["status"] == "closed");  // kept as written
  CHECK(metadata.contains("trd2f5c8a1e4"));               // orphans are kept
}

// Lower-case claim blocks with the id on the claim line, records keyed `tr…`, a record for an
// uncommitted working memory (an orphan here) and an id without a record.
TEST_CASE("recall doctor keeps ids on the first line of lower-case claim blocks",
          "[recall][doctor]") {
  Sandbox sandbox;
  sandbox.write(
      "memory/registers/tech-stack.md",
      "# Tech Stack Register\n\n## Chrome MV3\n\n"
      "- **claim**: `chrome.windows.getCurrent()` is unreliable ^tre25b494ffe\n"
      "- **confidence**: high\n- **evidence**: observed\n- **last_verified**: 2026-02-19\n"
      "\n"
      "- **claim**: PIL cannot render color emoji\n"
      "- **confidence**: high\n\n"
      "### Notes\n- ImageMagick must be available\n");
  sandbox.write("memory/registers/preferences.md",
                "# Preferences\n\n- Short answers ^tr6a1f8c3e9d\n");
  sandbox.write("memory/daily/2026-02-19.md", "## [pre-compact 10:00]\n- worked on icons\n");
  sandbox.write("memory/.recall/metadata.json",
                "{\n  \"tre25b494ffe\": {\"created_at\": \"2026-02-19T00:00:00Z\", "
                "\"last_reviewed_at\": \"2026-02-19T00:00:00Z\", \"pinned\": false, "
                "\"snoozed_until\": null, \"status\": \"active\", \"tier\": \"register\"},\n"
                "  \"tr9d8c7b6a55\": {\"created_at\": \"2026-02-19T00:00:00Z\", "
                "\"last_reviewed_at\": \"2026-02-19T00:00:00Z\", \"pinned\": false, "
                "\"snoozed_until\": null, \"status\": \"active\", \"tier\": \"working\"}\n}\n");
  adopt(sandbox);
  // The claim line's id is read; the untagged block and the note line are the two entries
  // without an id, not one per field line.
  const Result check = sandbox.vault({"check"});
  CHECK(contains(check.out, "2 entries are missing IDs."));
  CHECK_FALSE(contains(check.out, "ignored"));

  const Result report = migrate(sandbox);
  CHECK(contains(report.out, "1 id(s) on entries have no record; records are added"));
  CHECK(contains(report.out, "record `tr9d8c7b6a55` belongs to no entry"));
  const std::set<std::string> after = ids_at_head(sandbox);
  CHECK(after.contains("tre25b494ffe"));
  CHECK(after.contains("tr6a1f8c3e9d"));
  // init-ids tagged the untagged block once, on its claim line.
  CHECK(std::regex_search(sandbox.read("memory/registers/tech-stack.md"),
                          std::regex("- \\*\\*claim\\*\\*: PIL cannot render color emoji "
                                     "\\^tr[0-9a-f]{10}\n- \\*\\*confidence\\*\\*: high\n")));
}

// Ids at the end of `##` headings above capitalised claim blocks; metadata keyed by bare hex.
TEST_CASE("recall doctor moves heading ids onto their capitalised claim blocks",
          "[recall][doctor]") {
  Sandbox sandbox;
  sandbox.write("memory/registers/projects.md",
                "# Projects Register\n\n<!-- Format:\n## [Project Name]\n- **Status**: ...\n-->\n\n"
                "## feed-seeker ^trb8d4e2f0c6\n"
                "- **Status**: active\n"
                "- **Goal**: feed discovery library\n"
                "- **Current State** (2026-03-08): 224 tests passing\n"
                "- **Next Steps**: re-run the analysis\n");
  sandbox.write("memory/registers/tech-stack.md",
                "# Tech Stack Register\n\n## Test Runner — 2026-03-08 ^tr7c3e9f1d2a\n"
                "- **Choice**: Vitest\n- **Rationale**: native ESM\n- **Status**: active\n");
  sandbox.write(
      "memory/.recall/metadata.json",
      "{\n  \"b8d4e2f0c6\": {\"created_at\": \"2026-03-08\", \"last_reviewed_at\": "
      "\"2026-03-08\", \"pinned\": false, \"snoozed_until\": null, \"status\": \"active\", "
      "\"tier\": \"registers/projects.md\"},\n"
      "  \"7c3e9f1d2a\": {\"created_at\": \"2026-03-08\", \"last_reviewed_at\": "
      "\"2026-03-08\", \"pinned\": false, \"snoozed_until\": null, \"status\": \"active\", "
      "\"tier\": \"registers/tech-stack.md\"}\n}\n");
  adopt(sandbox);
  const Result before = sandbox.vault({"check"});
  CHECK(contains(before.out, "2 entries are missing IDs."));  // one per block, not per field

  const Result report = migrate(sandbox);
  CHECK(contains(report.out, "`^trb8d4e2f0c6` on a heading belongs to the entry at line 9"));
  CHECK(contains(sandbox.read("memory/registers/projects.md"),
                 "## feed-seeker\n- **Status**: active ^trb8d4e2f0c6\n"));
  CHECK(contains(sandbox.read("memory/registers/tech-stack.md"),
                 "- **Choice**: Vitest ^tr7c3e9f1d2a\n"));
  const Json metadata = Json::parse(sandbox.read("memory/.recall/metadata.json"));
  CHECK(metadata.size() == 2);
  CHECK(metadata["trb8d4e2f0c6"]["tier"] == "register");
  // Nothing was left for init-ids: both blocks kept their owners' ids.
  CHECK(sandbox.git({"log", "-1", "--format=%s"}).out ==
        "vault(recall-doctor): move 2 id(s) onto their entries and normalise 2 metadata "
        "record(s)\n");
}

// A caret in the metadata key, `+00:00` offsets, the id on the last (italic) line of a block,
// and the same id on the daily-log line it was promoted from.
TEST_CASE("recall doctor reports an id a daily log repeats and fixes a caret key",
          "[recall][doctor]") {
  Sandbox sandbox;
  sandbox.write("memory/registers/open-loops.md",
                "# Open Loops Register\n\n"
                "## PoinTTAPI automation — blocked?\n"
                "- **Type**: question\n"
                "- **Due**: when revisiting token capture\n"
                "- **Context**: login kept failing silently\n"
                "- **Status**: open\n"
                "- *Added: 2026-02-25* ^tr4a9c2e81b7\n");
  sandbox.write("memory/daily/2026-02-25.md",
                "# 2026-02-25\n\n[15:42] Promoted to open-loops.md: Playwright blocked "
                "^tr4a9c2e81b7\n");
  sandbox.write("memory/.recall/metadata.json",
                "{\n  \"^tr4a9c2e81b7\": {\n    \"created_at\": \"2026-02-25T15:42:00+00:00\",\n"
                "    \"last_reviewed_at\": \"2026-02-25T15:42:00+00:00\",\n    \"pinned\": false,\n"
                "    \"snoozed_until\": null,\n    \"status\": \"active\",\n"
                "    \"tier\": \"register\"\n  }\n}\n");
  adopt(sandbox);

  const Result report = migrate(sandbox);
  CHECK(contains(report.out,
                 "memory/daily/2026-02-25.md:3: `^tr4a9c2e81b7` also tags "
                 "memory/registers/open-loops.md:4; daily-log lines carry no ids\n"));
  CHECK(contains(report.out, "key `^tr4a9c2e81b7` has a caret"));
  CHECK(contains(sandbox.read("memory/registers/open-loops.md"),
                 "- **Type**: question ^tr4a9c2e81b7\n"));
  CHECK(contains(sandbox.read("memory/registers/open-loops.md"), "- *Added: 2026-02-25*\n"));
  // The daily log is the user's record: reported, never edited.
  CHECK(contains(sandbox.read("memory/daily/2026-02-25.md"), "blocked ^tr4a9c2e81b7\n"));
  const Json metadata = Json::parse(sandbox.read("memory/.recall/metadata.json"));
  CHECK(metadata["tr4a9c2e81b7"]["created_at"] == "2026-02-25T15:42:00+00:00");
}

TEST_CASE("recall doctor --json lists what it found and what --fix does", "[recall][doctor]") {
  Sandbox sandbox;
  sandbox.write("CLAUDE.local.md", "# Working Memory\n\n- Prefers tabs ^tr-0123456789\n");
  const Result result = sandbox.vault({"recall", "doctor", "--json"});
  CHECK(result.code == 1);
  const Json document = Json::parse(result.out);
  CHECK(document["schema"] == 1);
  CHECK(document["respelled"] == 1);
  REQUIRE(document["items"].size() >= 1);
  CHECK(document["items"][0]["kind"] == "old-id-spelling");
  CHECK(document["items"][0]["fixed_by_doctor"] == true);
  CHECK(document["commit"].is_null());
  CHECK(sandbox.read("CLAUDE.local.md") == "# Working Memory\n\n- Prefers tabs ^tr-0123456789\n");
}

TEST_CASE("recall doctor reports an id on several entries, which only a person can settle",
          "[recall][doctor]") {
  Sandbox sandbox;
  sandbox.write("CLAUDE.local.md", "- Use tabs ^tr0123456789\n- Other ^tr0123456789\n");
  sandbox.write("memory/registers/decisions.md", "- Again ^tr0123456789\n");
  sandbox.write("memory/.recall/metadata.json",
                "{\n  \"tr0123456789\": {\n    \"created_at\": \"2026-01-02T03:04:05Z\",\n"
                "    \"last_reviewed_at\": \"2026-01-02T03:04:05Z\",\n    \"pinned\": true,\n"
                "    \"snoozed_until\": null,\n    \"status\": \"active\",\n"
                "    \"tier\": \"working\"\n  }\n}\n");
  adopt(sandbox);
  // The record's tier is left alone: which entry keeps the id is not doctor's to choose.
  const Result fixed = sandbox.vault({"recall", "doctor", "--fix"});
  CHECK_FALSE(contains(fixed.out, "name another tier"));
  CHECK(Json::parse(sandbox.read("memory/.recall/metadata.json"))["tr0123456789"]["tier"] ==
        "working");
  const Result report = sandbox.vault({"recall", "doctor"});
  CHECK(report.code == 1);
  const std::string where =
      "duplicate id ^tr0123456789 on 3 lines: CLAUDE.local.md line 1, CLAUDE.local.md line 2, "
      "memory/registers/decisions.md line 1\n";
  // The fix the two lines share is printed once, under both.
  CHECK(contains(report.out,
                 "CLAUDE.local.md:2: " + where + "memory/registers/decisions.md:1: " + where +
                     "  fix: delete the id from all but one line, then run git vault recall "
                     "init-ids --yes\n"));
  const Json document = Json::parse(sandbox.vault({"recall", "doctor", "--json"}).out);
  int duplicates = 0;
  for (const Json& item : document["items"]) {
    if (item["kind"] == "duplicate-id") {
      ++duplicates;
      CHECK(item["fixed_by_doctor"] == false);
    }
  }
  CHECK(duplicates == 2);
  // Following the fix as printed clears it.
  sandbox.write("CLAUDE.local.md", "- Use tabs ^tr0123456789\n- Other\n");
  sandbox.write("memory/registers/decisions.md", "- Again\n");
  run_ok(sandbox.vault({"recall", "init-ids", "--yes"}));
  CHECK_FALSE(contains(sandbox.vault({"recall", "doctor"}).out, "duplicate id"));
}

TEST_CASE("recall doctor cuts each kind of finding at --limit, and its commit body at 200 lines",
          "[recall][doctor]") {
  Sandbox sandbox;
  std::string working = "# Working\n\n";
  for (int i = 0; i < 205; ++i) {
    working += fmt::format("- entry {} ^tr-{:010x}\n", i, i + 1);
  }
  sandbox.write("CLAUDE.local.md", working);
  adopt(sandbox);
  const Result limited = sandbox.vault({"--limit", "2", "recall", "doctor"});
  CHECK(limited.code == 1);
  CHECK(contains(limited.out, "CLAUDE.local.md:4: `^tr-0000000002` is the older spelling"));
  CHECK_FALSE(contains(limited.out, "CLAUDE.local.md:5:"));
  CHECK(contains(limited.out, "old-id-spelling: ... and 203 more (`--limit 0` lists them all"));
  // Another kind keeps its own rows.
  CHECK(contains(limited.out, "memory/.recall/metadata.json: 205 id(s) on entries have no record"));

  run_ok(sandbox.vault({"recall", "doctor", "--fix"}));
  const std::string body = sandbox.git({"log", "-1", "--format=%b"}).out;
  CHECK(contains(body, "CLAUDE.local.md:3: `^tr-0000000001` is the older spelling"));
  CHECK(contains(body, "... and 6 more (the diff has every one)\n"));  // 205 + 1 metadata item
  CHECK_FALSE(contains(body, "CLAUDE.local.md:207:"));
}

TEST_CASE("recall doctor --fix refuses a hand edit, and with --allow-dirty says what it commits",
          "[recall][doctor]") {
  Sandbox sandbox;
  sandbox.write("CLAUDE.local.md", "# Working Memory\n\n- Prefers tabs ^tr-0123456789\n");
  sandbox.write("memory/registers/people.md", "# People\n\n- Dana owns CI ^tr0000000001\n");
  adopt(sandbox);
  const std::string head = sandbox.git({"rev-parse", "HEAD"}).out;
  sandbox.write("CLAUDE.local.md",
                "# Working Memory\n\n- Prefers tabs ^tr-0123456789\n- typed by hand\n");
  sandbox.write("memory/registers/people.md",
                "# People\n\n- Dana owns CI ^tr0000000001\n- Lee owns docs\n");

  const Result refused = sandbox.vault({"recall", "doctor", "--fix"});
  CHECK(refused.code == 128);
  CHECK(contains(refused.err, "CLAUDE.local.md"));
  CHECK(sandbox.git({"rev-parse", "HEAD"}).out == head);

  const Result fixed = run_ok(sandbox.vault({"recall", "doctor", "--fix", "--allow-dirty"}));
  CHECK(contains(fixed.err,
                 "note: --allow-dirty: the commit includes your uncommitted edits of "
                 "CLAUDE.local.md\n"));
  CHECK(contains(fixed.err,
                 "note: --allow-dirty: uncommitted changes stay out of the commit, as they are: "
                 "memory/registers/people.md\n"));
  CHECK(contains(sandbox.git({"show", "HEAD:CLAUDE.local.md"}).out, "typed by hand"));
  CHECK_FALSE(contains(sandbox.git({"show", "HEAD:memory/registers/people.md"}).out, "Lee"));
  CHECK(contains(sandbox.read("memory/registers/people.md"), "Lee owns docs"));
}

}  // namespace recall_doctor_test
