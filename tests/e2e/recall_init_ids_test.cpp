#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>
#include <regex>

#include "tests/e2e/sandbox.hpp"

namespace recall_init_ids_test {

using gv::test::Sandbox;

namespace {

constexpr const char* k_working =
    "# Working Memory\n"
    "\n"
    "## Critical Preferences\n"
    "- Prefers tabs over spaces   \n"
    "- [None captured yet]\n"
    "- Known fact ^tr0000000001\n"
    "- Broken ^tr12\n"
    "<!-- - template example -->\n";

}  // namespace

TEST_CASE("init-ids tags untagged entries and writes their metadata", "[e2e][recall]") {
  Sandbox sandbox;
  sandbox.write("CLAUDE.local.md", k_working);
  sandbox.write("memory/registers/people.md", "# People\r\n- Sam is the PM\r\n- Ana owns CI");
  sandbox.write("memory/daily/2026-11-30.md", "- never tagged\n");

  const auto result = sandbox.vault({"recall", "init-ids", "--yes"});
  CHECK(result.code == 0);
  CHECK(result.out.find("recall-init-ids — complete") != std::string::npos);
  CHECK(result.out.find("Tagged: 3 entries across 2 files\n") != std::string::npos);
  CHECK(result.err.find("CLAUDE.local.md:7: malformed id `^tr12`") != std::string::npos);
  // The summary counts the metadata once, and the files written to the work tree are named with
  // the command that stages them.
  CHECK(result.out.find("Metadata: added") == std::string::npos);
  CHECK(result.err.find("git-vault: note: wrote 3 files: CLAUDE.local.md, "
                        "memory/.recall/metadata.json, memory/registers/people.md; stage them "
                        "with `git add CLAUDE.local.md memory/.recall/metadata.json "
                        "memory/registers/people.md`") != std::string::npos);

  const std::string working = sandbox.read("CLAUDE.local.md");
  const std::regex tagged_working(
      "# Working Memory\n\n## Critical Preferences\n- Prefers tabs over spaces "
      "\\^(tr[0-9a-f]{10})\n"
      "- \\[None captured yet\\]\n- Known fact \\^tr0000000001\n- Broken \\^tr12\n"
      "<!-- - template example -->\n");
  std::smatch match;
  REQUIRE(std::regex_match(working, match, tagged_working));
  const std::string new_id = match[1];

  const std::string people = sandbox.read("memory/registers/people.md");
  CHECK(std::regex_match(people, std::regex("# People\r\n- Sam is the PM \\^tr[0-9a-f]{10}\r\n"
                                            "- Ana owns CI \\^tr[0-9a-f]{10}")));
  CHECK(sandbox.read("memory/daily/2026-11-30.md") == "- never tagged\n");

  const auto metadata = nlohmann::json::parse(sandbox.read("memory/.recall/metadata.json"));
  CHECK(metadata.size() == 4);
  REQUIRE(metadata.contains(new_id));
  CHECK(metadata[new_id]["created_at"] == "2026-11-30T12:00:00Z");
  CHECK(metadata[new_id]["tier"] == "working");
  CHECK(metadata[new_id]["status"] == "active");
  CHECK(metadata[new_id]["pinned"] == false);
  CHECK(metadata[new_id]["snoozed_until"].is_null());
  CHECK(metadata["tr0000000001"]["tier"] == "working");
}

TEST_CASE("a second init-ids run changes nothing", "[e2e][recall]") {
  Sandbox sandbox;
  sandbox.write("CLAUDE.local.md", "- one\n- two\n");
  REQUIRE(sandbox.vault({"recall", "init-ids", "--yes"}).code == 0);
  const std::string working = sandbox.read("CLAUDE.local.md");
  const std::string metadata = sandbox.read("memory/.recall/metadata.json");

  const auto again = sandbox.vault({"recall", "init-ids"});
  CHECK(again.code == 0);
  CHECK(again.out == "All 2 entries already have IDs. Nothing to do.\n");
  CHECK(sandbox.read("CLAUDE.local.md") == working);
  CHECK(sandbox.read("memory/.recall/metadata.json") == metadata);
}

TEST_CASE("init-ids --dry-run previews and writes nothing", "[e2e][recall]") {
  Sandbox sandbox;
  sandbox.write("CLAUDE.local.md", k_working);
  const auto result = sandbox.vault({"recall", "init-ids", "--dry-run"});
  CHECK(result.code == 0);
  CHECK(result.out.find("recall-init-ids — preview") != std::string::npos);
  CHECK(result.out.find("  Will be tagged: 1\n") != std::string::npos);
  CHECK(result.out.find("  Skipped (malformed): 1\n") != std::string::npos);
  CHECK(result.out.find("    Before: - Prefers tabs over spaces   \n") != std::string::npos);
  CHECK(sandbox.read("CLAUDE.local.md") == k_working);
  CHECK_FALSE(sandbox.exists("memory/.recall/metadata.json"));

  // The ids the preview shows are the ones a run over the same files writes.
  const std::size_t after = result.out.find("    After:  - Prefers tabs over spaces ^");
  REQUIRE(after != std::string::npos);
  const std::string shown = result.out.substr(result.out.find('^', after) + 1, 12);
  CHECK(sandbox.vault({"recall", "init-ids", "--dry-run"}).out == result.out);
  REQUIRE(sandbox.vault({"recall", "init-ids", "--yes"}).code == 0);
  CHECK_THAT(sandbox.read("CLAUDE.local.md"),
             Catch::Contains("- Prefers tabs over spaces ^" + shown + "\n"));
}

TEST_CASE("init-ids --json reports the tagged lines", "[e2e][recall]") {
  Sandbox sandbox;
  sandbox.write("CLAUDE.local.md", "- one ^tr0000000001\n- two\n");
  const auto result = sandbox.vault({"recall", "init-ids", "--yes", "--json"});
  CHECK(result.code == 0);
  const auto json = nlohmann::json::parse(result.out);
  CHECK(json["schema"] == 1);
  CHECK(json["dry_run"] == false);
  CHECK(json["already_tagged"] == 1);
  CHECK(json["metadata_added"] == 2);
  REQUIRE(json["tagged"].size() == 1);
  CHECK(json["tagged"][0]["path"] == "CLAUDE.local.md");
  CHECK(json["tagged"][0]["line"] == 2);
  CHECK(sandbox.read("CLAUDE.local.md") ==
        "- one ^tr0000000001\n- two ^" + json["tagged"][0]["id"].get<std::string>() + "\n");
}

TEST_CASE("init-ids -v names each tagged entry on stderr", "[e2e][recall]") {
  Sandbox sandbox;
  sandbox.write("memory/archive/2025/old.md", "- archived fact\n");
  const auto result = sandbox.vault({"recall", "init-ids", "--yes", "-v"});
  CHECK(result.code == 0);
  CHECK(std::regex_search(result.err,
                          std::regex("tagged memory/archive/2025/old.md:1 \\^tr[0-9a-f]{10}")));
  CHECK(result.out.find("  archive/2025/old.md 1 entries tagged") != std::string::npos);
}

TEST_CASE("init-ids refuses invalid metadata and leaves every file untouched", "[e2e][recall]") {
  Sandbox sandbox;
  sandbox.write("CLAUDE.local.md", "- one\n");
  sandbox.write("memory/.recall/metadata.json", "{\n  \"tr0000000001\": {,}\n}\n");
  const auto result = sandbox.vault({"recall", "init-ids"});
  CHECK(result.code == 128);
  CHECK(result.out.empty());
  CHECK(result.err.find("git-vault: error: memory/.recall/metadata.json:2: invalid JSON") !=
        std::string::npos);
  CHECK(sandbox.read("CLAUDE.local.md") == "- one\n");
  CHECK(sandbox.read("memory/.recall/metadata.json") == "{\n  \"tr0000000001\": {,}\n}\n");
}

TEST_CASE("init-ids run from a subdirectory works on the repository root", "[e2e][recall]") {
  Sandbox sandbox;
  sandbox.write("CLAUDE.local.md", "- one\n");
  sandbox.write("src/keep.txt", "x\n");
  const auto result = sandbox.vault({"recall", "init-ids", "--yes"}, {}, "src");
  CHECK(result.code == 0);
  CHECK(std::regex_match(sandbox.read("CLAUDE.local.md"), std::regex("- one \\^tr[0-9a-f]{10}\n")));
}

TEST_CASE("init-ids off a terminal shows what it would tag and needs --yes", "[e2e][recall]") {
  Sandbox sandbox;
  sandbox.write("CLAUDE.local.md", "- one\n");
  const auto result = sandbox.vault({"recall", "init-ids"});
  CHECK(result.code == 1);
  CHECK(result.out.find("recall-init-ids — preview") != std::string::npos);
  CHECK(result.out.find("    Before: - one\n") != std::string::npos);
  CHECK(result.err.find("pass --yes") != std::string::npos);
  CHECK(sandbox.read("CLAUDE.local.md") == "- one\n");
  CHECK_FALSE(sandbox.exists("memory/.recall/metadata.json"));
}

TEST_CASE("init-ids on a terminal asks Apply? [y]es / [c]ancel", "[e2e][recall]") {
  Sandbox sandbox;
  sandbox.write("CLAUDE.local.md", "- one\n");
  const auto cancelled = sandbox.vault_tty({"recall", "init-ids"}, "c\n");
  CHECK(cancelled.code == 1);
  CHECK(cancelled.out.find("Apply? [y]es / [c]ancel") != std::string::npos);
  CHECK(cancelled.out.find("Cancelled. Nothing changed.") != std::string::npos);
  CHECK(sandbox.read("CLAUDE.local.md") == "- one\n");

  const auto applied = sandbox.vault_tty({"recall", "init-ids"}, "y\n");
  CHECK(applied.code == 0);
  CHECK(applied.out.find("recall-init-ids — complete") != std::string::npos);
  CHECK(std::regex_match(sandbox.read("CLAUDE.local.md"), std::regex("- one \\^tr[0-9a-f]{10}\n")));
}

TEST_CASE("recall without a subcommand is a usage error", "[e2e][recall]") {
  Sandbox sandbox;
  CHECK(sandbox.vault({"recall"}).code == 129);
}

}  // namespace recall_init_ids_test
