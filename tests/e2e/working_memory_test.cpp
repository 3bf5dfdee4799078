#include <catch2/catch.hpp>
#include <string>

#include "tests/e2e/sandbox.hpp"
#include "tests/e2e/vault_fixture.hpp"

namespace working_memory_test {

// Working memory is reported beside the vault, and on its own where it is all a repository
// keeps.

using gv::test::Result;
using gv::test::Sandbox;

namespace {

bool contains(const std::string& text, std::string_view part) {
  return text.find(part) != std::string::npos;
}

void write_working_memory(const Sandbox& sandbox) {
  sandbox.write("CLAUDE.local.md",
                "# Working memory\n\n- Prefers tabs over spaces ^tr0000000001\n- No id yet\n");
  sandbox.write("memory/registers/decisions.md",
                "# Decisions\n\n- Use uv ^tr0000000002\n- Pin toolchains ^tr0000000003\n");
}

}  // namespace

TEST_CASE("distill reports the working memory beside the vault", "[e2e][distill][recall]") {
  Sandbox sandbox;
  write_working_memory(sandbox);
  gv::test::write_scored_vault(sandbox);
  const Result report = sandbox.vault({"distill"});
  INFO(report.out << report.err);
  REQUIRE(report.code == 0);
  CHECK(contains(report.out, "\n### Working Memory\n"));
  CHECK(contains(report.out, "| working (CLAUDE.local.md) | 2 |\n| registers | 2 |\n"));
  CHECK(contains(report.out, "**Entries**: 4 in 2 files\n"));
  CHECK(contains(report.out, "**Working tier**: 4 words of a 1500-word budget\n"));
  CHECK(contains(report.out,
                 "**Without a valid id**: 1 entry (`git vault recall init-ids --yes` "
                 "tags them"));
  CHECK(contains(report.out, "git vault recall maintain --dry-run"));
}

TEST_CASE("distill in a repository that keeps only a working memory reports that",
          "[e2e][distill][recall]") {
  Sandbox sandbox;
  write_working_memory(sandbox);
  sandbox.commit_all();
  const Result report = sandbox.vault({"distill"});
  INFO(report.out << report.err);
  REQUIRE(report.code == 0);
  CHECK(contains(report.out, "## Working Memory Report\n\nNo memory vault here"));
  CHECK(contains(report.out, "**Entries**: 4 in 2 files\n"));
  // Nothing at all to report on is still an error.
  Sandbox empty;
  CHECK(empty.vault({"distill"}).code == 128);
}

TEST_CASE("an action in a repository without specs/ creates no specs/state.json, nor its revert",
          "[e2e][distill][revert]") {
  Sandbox sandbox;
  sandbox.write(".memory/10-Memories/MEM-old.md",
                gv::test::memory_file("Old", "2026-01-01", "k", 0, "null"));
  REQUIRE(sandbox.vault({"index"}).code == 0);
  sandbox.commit_all("a vault, no specs/");
  const Result purge = sandbox.vault({"distill", "--purge", "--select", "MEM-old"});
  INFO(purge.out << purge.err);
  REQUIRE(purge.code == 0);
  CHECK_FALSE(sandbox.exists("specs"));
  CHECK(sandbox.git({"show", "--name-only", "--format=", "HEAD"}).out.find("specs/") ==
        std::string::npos);
  const std::string log = sandbox.read(".memory/distill-log.json");
  const std::size_t at = log.rfind("\"id\": \"distill_");
  REQUIRE(at != std::string::npos);
  const std::string id = log.substr(at + 7, log.find('"', at + 7) - at - 7);
  const Result revert = sandbox.vault({"revert", id});
  INFO(revert.out << revert.err);
  REQUIRE(revert.code == 0);
  CHECK_FALSE(sandbox.exists("specs"));
  CHECK(sandbox.git({"status", "--porcelain"}).out.empty());
}

}  // namespace working_memory_test
