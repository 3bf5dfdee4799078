// Hostile repositories: symbolic links where git-vault writes, JSON nested absurdly deep or
// holding numbers no double can hold, file names no index line or JSON document can carry, one
// bad memory in a batch, and merge drivers handed paths they were never routed. Every case ends
// in a clear message naming the file, never a crash, a raw library message or a write outside
// the repository.
#include <catch2/catch.hpp>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>

#include "tests/e2e/sandbox.hpp"
#include "tests/e2e/vault_fixture.hpp"

namespace hostile_test {

using gv::test::Sandbox;
using nlohmann::json;

namespace {

std::string nested(std::size_t depth) {
  return std::string(depth, '[') + std::string(depth, ']') + "\n";
}

// No crash (a signal gives 128 + its number, above 128) and no message straight from a library.
void check_clean_failure(const gv::test::Result& result, std::string_view path) {
  INFO(result.err);
  CHECK(result.code == 128);
  CHECK_THAT(result.err, Catch::Contains(std::string(path)));
  CHECK_THAT(result.err, !Catch::Contains("json.exception"));
}

}  // namespace

TEST_CASE("a symlinked vault folder is refused and nothing is written through it", "[hostile]") {
  Sandbox sandbox;
  gv::test::write_scored_vault(sandbox);
  sandbox.write("outside/keep.txt", "not the vault\n");
  REQUIRE(sandbox.sh("rm -rf .memory/20-Indices && ln -s ../outside .memory/20-Indices").code == 0);
  const auto result = sandbox.vault({"index"});
  INFO(result.err);
  CHECK(result.code == 128);
  CHECK_THAT(result.err, Catch::Contains(".memory/20-Indices: is a symbolic link"));
  CHECK_FALSE(sandbox.exists("outside/index.md"));
  CHECK(sandbox.sh("ls outside").out == "keep.txt\n");
}

// specs/ as a tracked symbolic link: the repository keeps no specs/state.json of its own (git
// holds the link, not the file behind it), so an action refreshes none and writes nothing through
// the link (D8).
TEST_CASE("a tracked symlink where specs/ would be is never written through", "[hostile]") {
  Sandbox sandbox;
  gv::test::write_scored_vault(sandbox);
  REQUIRE(sandbox
              .sh("mkdir -p elsewhere && git mv specs/state.json elsewhere/state.json && "
                  "ln -s elsewhere specs && git add -A && git commit -qm 'specs is a link'")
              .code == 0);
  const auto result = sandbox.vault({"distill", "--purge", "--all"});
  INFO(result.err);
  CHECK(result.code == 0);
  CHECK(sandbox.git({"show", "--name-only", "--format=", "HEAD", "--", "specs", "elsewhere"})
            .out.empty());
  CHECK(sandbox.sh("ls -A elsewhere").out == "state.json\n");
  CHECK(sandbox.read("elsewhere/state.json") == "{}\n");
  CHECK(sandbox.git({"status", "--porcelain"}).out.empty());
}

TEST_CASE("a distill log nested 100,000 deep is an error naming the file, not a crash",
          "[hostile]") {
  Sandbox sandbox;
  gv::test::write_scored_vault(sandbox);
  sandbox.write(".memory/distill-log.json", nested(100'000));
  sandbox.commit_all("deep log");
  check_clean_failure(sandbox.vault({"log"}), ".memory/distill-log.json:1:");
  check_clean_failure(sandbox.vault({"distill", "--purge", "--all"}), ".memory/distill-log.json");
  CHECK_THAT(sandbox.vault({"log"}).err, Catch::Contains("nested more than"));
}

TEST_CASE("recall metadata nested 100,000 deep is an error naming the file", "[hostile]") {
  Sandbox sandbox;
  sandbox.write("CLAUDE.local.md", "# Working Memory\n\n## Notes\n- a fact\n");
  sandbox.write("memory/.recall/metadata.json", nested(100'000));
  sandbox.commit_all();
  const auto result = sandbox.vault({"recall", "init-ids"});
  check_clean_failure(result, "memory/.recall/metadata.json:1:");
  CHECK(sandbox.read("CLAUDE.local.md") == "# Working Memory\n\n## Notes\n- a fact\n");
}

TEST_CASE("a memory index nested deep or holding 1e400 is named with its line and repaired",
          "[hostile]") {
  Sandbox sandbox;
  gv::test::write_scored_vault(sandbox);
  const std::string good = sandbox.read(".memory/memory-index.json");
  SECTION("1e400") {
    std::string bad = good;
    const std::size_t version = bad.find("\"version\": ");
    REQUIRE(version != std::string::npos);
    const std::size_t end = bad.find(',', version);
    bad.replace(version, end - version, "\"version\": 1e400");
    sandbox.write(".memory/memory-index.json", bad);
    const auto check = sandbox.vault({"check", "--worktree"});
    INFO(check.err << check.out);
    CHECK(check.code == 1);
    const std::string report = check.out + check.err;
    CHECK_THAT(report, Catch::Contains(".memory/memory-index.json:2:"));
    CHECK_THAT(report, Catch::Contains("1e400"));
    CHECK_THAT(report, !Catch::Contains("json.exception"));
  }
  SECTION("nested 100,000 deep") {
    sandbox.write(".memory/memory-index.json", "{\"entries\": " + nested(100'000) + "}\n");
    const auto check = sandbox.vault({"check", "--worktree"});
    CHECK(check.code == 1);
    CHECK_THAT(check.out + check.err, Catch::Contains(".memory/memory-index.json:1:"));
  }
  const auto index = sandbox.vault({"index"});
  INFO(index.err);
  CHECK(index.code == 0);
  CHECK(sandbox.read(".memory/memory-index.json") == good);
  CHECK(sandbox.vault({"check", "--worktree"}).code == 0);
}

TEST_CASE("both JSON merge drivers merge a file they cannot read line by line", "[hostile]") {
  Sandbox sandbox;
  sandbox.write("base.json", "{}\n");
  sandbox.write("ours.json", nested(100'000));
  sandbox.write("theirs.json", "{}\n");
  for (const auto& [kind, path] : {std::pair{"log", ".memory/distill-log.json"},
                                   std::pair{"recall-metadata", "memory/.recall/metadata.json"}}) {
    const auto result =
        sandbox.vault({"merge-driver", kind, "--", "base.json", "ours.json", "theirs.json", path});
    INFO(result.err);
    // Theirs did not change the file, so git's own merge keeps ours, cleanly.
    CHECK(result.code == 0);
    CHECK_THAT(result.err, Catch::Contains("merging it line by line, as git would"));
  }
  CHECK(sandbox.read("ours.json") == nested(100'000));
}

TEST_CASE("merge drivers act only on the paths init routes to them", "[hostile]") {
  Sandbox sandbox;
  sandbox.write("base.c", "int a;\n");
  sandbox.write("ours.c", "int b;\n");
  sandbox.write("theirs.c", "int c;\n");
  // Both sides changed the line: git's conflict, with markers, never ours passed off as merged.
  const auto conflicted = [&] {
    const std::string merged = sandbox.read("ours.c");
    CHECK_THAT(merged, Catch::Contains("<<<<<<< ") &&
                           Catch::Contains("int b;\n=======\nint c;\n") &&
                           Catch::Contains(">>>>>>> "));
  };
  SECTION("a source file routed to the generated-file driver by a broad attribute") {
    const auto result =
        sandbox.vault({"merge-driver", "generated", "--", "base.c", "ours.c", "theirs.c", "a.c"});
    CHECK(result.code == 1);
    CHECK_THAT(result.err, Catch::Contains("does not handle `a.c`"));
    conflicted();
  }
  SECTION("a path that starts with a dash is a path, not an option") {
    const auto result = sandbox.vault(
        {"merge-driver", "generated", "--", "base.c", "ours.c", "theirs.c", "--help"});
    CHECK(result.code == 1);
    CHECK_THAT(result.err, Catch::Contains("does not handle `--help`"));
    conflicted();
  }
  SECTION("theirs alone changed the file: merged cleanly to theirs") {
    sandbox.write("ours.c", "int a;\n");
    const auto result =
        sandbox.vault({"merge-driver", "generated", "--", "base.c", "ours.c", "theirs.c", "a.c"});
    CHECK(result.code == 0);
    CHECK(sandbox.read("ours.c") == "int c;\n");
  }
  SECTION("init routes the drivers through `--`") {
    REQUIRE(sandbox.vault({"init"}).code == 0);
    CHECK_THAT(sandbox.git({"config", "merge.vault-log.driver"}).out,
               Catch::Contains("merge-driver log -- %O %A %B %P"));
  }
}

TEST_CASE("file names with a backslash, a newline or invalid UTF-8 never break a run",
          "[hostile]") {
  Sandbox sandbox;
  gv::test::write_scored_vault(sandbox);
  const std::string memory = sandbox.read(".memory/10-Memories/MEM-alpha.md");
  sandbox.write(".memory/10-Memories/MEM-back\\slash.md", memory);
  sandbox.write(".memory/10-Memories/MEM-new\nline.md", memory);
  sandbox.write(".memory/10-Memories/MEM-bad\xff.md", memory);
  sandbox.commit_all("hostile names");

  const auto index = sandbox.vault({"index"});
  INFO(index.err);
  CHECK(index.code == 0);
  const std::string lines = sandbox.read(".memory/20-Indices/index.md");
  CHECK(lines.find("line](") == std::string::npos);  // no line made from half a file name
  CHECK(lines.find("back\\slash") == std::string::npos);
  CHECK(lines.find('\xff') == std::string::npos);

  const auto report = sandbox.vault({"distill", "--json"});
  INFO(report.err);
  REQUIRE(report.code == 0);
  CHECK_NOTHROW(json::parse(report.out));
  const auto check = sandbox.vault({"check", "--worktree", "--json"});
  const json findings = json::parse(check.out);
  std::size_t named = 0;
  for (const json& finding : findings["findings"]) {
    if (finding["message"].get<std::string>().find("rename it") != std::string::npos) {
      ++named;
    }
  }
  CHECK(named == 3);

  CHECK(sandbox.git({"status", "--porcelain"}).out.empty());  // nothing to regenerate
  const auto purge = sandbox.vault({"distill", "--purge", "--all"});
  INFO(purge.err);
  CHECK(purge.code == 0);
}

TEST_CASE("one memory the summarizer fails on is named and skipped in a compress batch",
          "[hostile]") {
  Sandbox sandbox;
  gv::test::write_scored_vault(sandbox);
  // A second long memory, so the batch has two; the summarizer fails on its text.
  sandbox.write(
      ".memory/10-Memories/MEM-long.md",
      gv::test::memory_file("Long", "2026-08-01", "a, b, c, x", 2, "2026-10-31", {}, 700) +
          "POISON\n");
  REQUIRE(sandbox.vault({"index"}).code == 0);
  sandbox.commit_all("two long memories");
  sandbox.write("summarize.sh",
                "#!/bin/sh\ninput=$(cat)\ncase \"$input\" in *POISON*) exit 3;; esac\n"
                "echo 'Short summary.'\n");
  REQUIRE(sandbox.sh("chmod +x summarize.sh && git config vault.summarizer \"$PWD/summarize.sh\"")
              .code == 0);
  const auto dry = sandbox.vault({"distill", "--compress", "--dry-run", "--json"});
  REQUIRE(dry.code == 0);
  CHECK_THAT(dry.out, Catch::Contains("MEM-long") && Catch::Contains("MEM-beta"));
  const auto result = sandbox.vault({"distill", "--compress", "--all"});
  INFO(result.out << result.err);
  CHECK(result.code == 0);
  CHECK_THAT(result.out, Catch::Contains("Skipped MEM-long"));
  CHECK(sandbox.git({"log", "-1", "--format=%s"}).out == "vault(compress): compress MEM-beta\n");
  CHECK_THAT(sandbox.read(".memory/10-Memories/MEM-beta.md"), Catch::Contains("Short summary."));
  CHECK_THAT(sandbox.read(".memory/10-Memories/MEM-long.md"), Catch::Contains("POISON"));
}

TEST_CASE("check reports an index left behind HEAD by an action, which a commit would revert",
          "[hostile]") {
  Sandbox sandbox;
  gv::test::write_scored_vault(sandbox);
  REQUIRE(sandbox.vault({"distill", "--purge", "--select", "MEM-delta"}).code == 0);
  // The state an interrupted older git-vault left: HEAD moved, the index still the old vault.
  REQUIRE(sandbox.git({"reset", "-q", "HEAD~1", "--", ".memory", "specs"}).code == 0);
  const auto check = sandbox.vault({"check", "--json"});
  INFO(check.out << check.err);
  CHECK(check.code == 1);
  const json findings = json::parse(check.out);
  bool found = false;
  for (const json& finding : findings["findings"]) {
    found = found || finding["check"] == "index-behind-head";
  }
  CHECK(found);
  REQUIRE(sandbox.git({"reset", "-q", "--", ".memory", "specs"}).code == 0);
  CHECK(sandbox.vault({"check"}).code == 0);
}

}  // namespace hostile_test
