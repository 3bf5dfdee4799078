// The MANDATORY STOP as a person meets it: the real binary on a pseudo-terminal.
#include <catch2/catch.hpp>

#include "tests/e2e/refine_fixture.hpp"
#include "tests/e2e/sandbox.hpp"
#include "tests/e2e/vault_fixture.hpp"

namespace distill_prompt_test {

using gv::test::Sandbox;

namespace {

// The purge candidates of the shared vault, ranked: neither is past its PATTERN TTL of 540
// days, so composite decides (MEM-delta 0.80, MEM-gamma 0.55).
const std::string k_purge_list =
    "   1. MEM-delta\n"
    "      Score: 0.80 | Created: 2026-01-01 | Retrievals: 0 | Tokens: 15 | Category: PATTERN\n"
    "   2. MEM-gamma\n"
    "      Score: 0.55 | Created: 2026-05-01 | Retrievals: 0 | Tokens: 15 | Category: PATTERN\n";

const std::string k_prompt = "Select (numbers, ranges like 1-3, `a` for all, empty for none): ";

bool tombstoned(const Sandbox& sandbox, const std::string& id) {
  return sandbox.read(".memory/10-Memories/" + id + ".md").find("\nstatus: tombstoned\n") !=
         std::string::npos;
}

std::size_t count(const std::string& text, const std::string& part) {
  std::size_t n = 0;
  for (auto pos = text.find(part); pos != std::string::npos; pos = text.find(part, pos + 1)) {
    ++n;
  }
  return n;
}

}  // namespace

TEST_CASE("the purge prompt lists each candidate with its details and takes a number",
          "[distill][prompt]") {
  Sandbox sandbox;
  gv::test::write_scored_vault(sandbox);
  const auto result = sandbox.vault_tty({"distill", "--purge"}, "1\n");
  INFO(result.out);
  REQUIRE(result.code == 0);
  CHECK_THAT(result.out, Catch::StartsWith("Select memories to tombstone (purge). Tombstoned "
                                           "memories are excluded from retrieval but preserved on "
                                           "disk for 7 days before gc can hard-delete them. (2 "
                                           "found)\n\n" +
                                           k_purge_list + "\n" + k_prompt));
  CHECK(tombstoned(sandbox, "MEM-delta"));
  CHECK_FALSE(tombstoned(sandbox, "MEM-gamma"));
  CHECK_THAT(sandbox.git({"log", "-1", "--format=%s"}).out,
             Catch::StartsWith("vault(purge): tombstone MEM-delta"));
}

TEST_CASE("the prompt lists --limit candidates and takes the number of one it did not show",
          "[distill][prompt]") {
  Sandbox sandbox;
  gv::test::write_scored_vault(sandbox);
  const auto result = sandbox.vault_tty({"--limit", "1", "distill", "--purge"}, "2\n");
  INFO(result.out);
  REQUIRE(result.code == 0);
  CHECK_THAT(result.out,
             Catch::Contains("   1. MEM-delta\n"
                             "      Score: 0.80 | Created: 2026-01-01 | Retrievals: 0 | Tokens: 15 "
                             "| Category: PATTERN\n"
                             "  ... and 1 more, numbered 2 to 2: every number, range or id works "
                             "here; `--limit 0` lists them all, `--dry-run` shows them as a "
                             "table\n\n" +
                             k_prompt));
  CHECK_FALSE(Catch::Contains("   2. MEM-gamma").match(result.out));
  CHECK(tombstoned(sandbox, "MEM-gamma"));
  CHECK_FALSE(tombstoned(sandbox, "MEM-delta"));
}

TEST_CASE("typing a at the purge prompt selects every candidate", "[distill][prompt]") {
  Sandbox sandbox;
  gv::test::write_scored_vault(sandbox);
  const auto result = sandbox.vault_tty({"distill", "--purge"}, "a\n");
  INFO(result.out);
  REQUIRE(result.code == 0);
  CHECK(tombstoned(sandbox, "MEM-delta"));
  CHECK(tombstoned(sandbox, "MEM-gamma"));
  CHECK_FALSE(tombstoned(sandbox, "MEM-alpha"));
}

TEST_CASE("an empty answer at the purge prompt cancels and changes nothing", "[distill][prompt]") {
  Sandbox sandbox;
  gv::test::write_scored_vault(sandbox);
  const std::string before = sandbox.git({"rev-parse", "HEAD"}).out;
  const auto result = sandbox.vault_tty({"distill", "--purge"}, "\n");
  INFO(result.out);
  CHECK(result.code == 0);
  CHECK_THAT(result.out,
             Catch::EndsWith(k_prompt + "No memories selected for purge. Operation cancelled.\n"));
  CHECK(sandbox.git({"rev-parse", "HEAD"}).out == before);
  CHECK(sandbox.git({"status", "--porcelain"}).out.empty());
}

TEST_CASE("an answer the prompt cannot read makes it ask again", "[distill][prompt]") {
  Sandbox sandbox;
  gv::test::write_scored_vault(sandbox);
  const auto result = sandbox.vault_tty({"distill", "--purge"}, "zzz\n2\n");
  INFO(result.out);
  REQUIRE(result.code == 0);
  CHECK_THAT(result.out, Catch::Contains(k_prompt +
                                         "`zzz` is not a candidate: use numbers 1-2, "
                                         "ranges like 1-2, candidate names, or `a` for "
                                         "all\n\n" +
                                         k_prompt));
  CHECK(count(result.out, k_prompt) == 2);
  CHECK(tombstoned(sandbox, "MEM-gamma"));
  CHECK_FALSE(tombstoned(sandbox, "MEM-delta"));
}

TEST_CASE("refine on a terminal shows Tier 1 first, then asks about Tier 2", "[distill][prompt]") {
  Sandbox sandbox;
  gv::test::write_refine_vault(sandbox);
  const auto result = sandbox.vault_tty({"distill", "--refine"}, "\n");
  INFO(result.out);
  REQUIRE(result.code == 0);
  CHECK_THAT(result.out, Catch::StartsWith("## Tier 1 Automatic Fixes\n"));
  CHECK_THAT(result.out,
             Catch::Contains("Select quality improvements to apply (Tier 2 - interactive fixes): "
                             "(3 found)\n\n"
                             "   1. MEM-editor: keyword_enrich\n"
                             "      Add suggested keywords based on content analysis | Current: "
                             "[lazy] | Suggested: [plugin]\n"));
  CHECK_THAT(
      result.out,
      Catch::Contains("No Tier 2 fixes selected. Only Tier 1 automatic fixes were applied.\n"));
  // The table is shown once, before the prompt.
  CHECK(count(result.out, "## Tier 1 Automatic Fixes") == 1);
  CHECK(sandbox.read(".memory/10-Memories/MEM-retry.md") == gv::test::k_refine_retry_fixed);
  CHECK(sandbox.read(".memory/10-Memories/MEM-editor.md") == gv::test::k_refine_editor);
}

}  // namespace distill_prompt_test
