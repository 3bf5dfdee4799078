#include <fmt/format.h>

#include <algorithm>
#include <catch2/catch.hpp>
#include <sstream>

#include "core/distill/log.hpp"
#include "core/review/render.hpp"

namespace review_render_test {

using gv::review::Review;

namespace {

std::size_t count_lines_starting(const std::string& text, std::string_view prefix) {
  std::istringstream stream(text);
  std::size_t n = 0;
  for (std::string line; std::getline(stream, line);) {
    n += line.starts_with(prefix) ? 1 : 0;
  }
  return n;
}

Review small_review() {
  Review review;
  review.base = std::string(40, 'a');
  review.head = std::string(40, 'b');
  review.commit_count = 2;
  review.memories.added = {
      {"MEM-n1", "First", "PATTERN", "t", 15, false},
      {"MEM-n2", "Second | piped", "", "", 20, false},
      {"MEM-n3", "Third", "WORKFLOW", "t", 10, false},
  };
  review.memories.tombstoned = {{"MEM-t1", "T1", "purge"}, {"MEM-t2", "T2", "purge"}};
  review.memories.merged = {{"MEM-p", "MEM-s"}};
  review.before.health_score = 64;
  review.after.health_score = 81;
  return review;
}

}  // namespace

TEST_CASE("the summary line counts each kind of change and the health move", "[review]") {
  CHECK(gv::review::summary_line(small_review()) ==
        "+3 memories, 2 tombstoned, 1 merged; health 64 → 81");
  Review empty;
  empty.before.health_score = 90;
  empty.after.health_score = 90;
  CHECK(gv::review::summary_line(empty) == "no vault changes; health 90 → 90");
}

TEST_CASE("the summary line says when the gate fails at HEAD", "[review]") {
  Review review = small_review();
  review.gate.push_back({"missing-id", gv::Severity::error, "CLAUDE.local.md", 3, "", "no id", ""});
  CHECK(gv::review::summary_line(review) ==
        "+3 memories, 2 tombstoned, 1 merged; health 64 → 81; gate fails (1 error)");
}

TEST_CASE("the Markdown shows each section with escaped cells", "[review]") {
  const std::string md = gv::review::render_markdown(small_review());
  CHECK(
      md.starts_with("## git-vault review `aaaaaaaaaaaa..bbbbbbbbbbbb`\n\n"
                     "**+3 memories, 2 tombstoned, 1 merged; health 64 → 81**\n"));
  CHECK_THAT(md, Catch::Contains("### Memories added (3)"));
  CHECK_THAT(md, Catch::Contains("| `MEM-n2` | Second \\| piped | — | — | 20 |"));
  CHECK_THAT(md, Catch::Contains("| `MEM-t1` | T1 | purge |"));
  CHECK_THAT(md, Catch::Contains("| `MEM-p` | ← `MEM-s` |"));
  CHECK_THAT(md, Catch::Contains("No findings: `git vault check` passes."));
  CHECK_THAT(md, !Catch::Contains("Memories changed"));
}

TEST_CASE("a thousand added memories render as a cut table with a breakdown", "[review]") {
  Review review;
  review.base = std::string(40, '1');
  review.head = std::string(40, '2');
  for (int i = 0; i < 1000; ++i) {
    review.memories.added.push_back(
        {fmt::format("MEM-{:04}", i), "t", i % 5 < 3 ? "PATTERN" : "WORKFLOW", "x", 10, false});
  }
  const std::string md = gv::review::render_markdown(review, {20});
  CHECK(count_lines_starting(md, "| `MEM-") == 20);
  CHECK_THAT(md,
             Catch::Contains("…and 980 more (by category, all 1000: PATTERN 600, WORKFLOW 400)."));
  CHECK(md.size() < 4000);
  const auto json = gv::review::review_json(review);
  CHECK(json["memories"]["added"].size() == 1000);
  CHECK(json["schema"] == 1);
}

TEST_CASE("maintenance commits are joined with their log entries through Vault-Log-Id",
          "[review]") {
  gv::git::CommitInfo plain;
  plain.id = std::string(40, 'c');
  plain.summary = "add notes";
  gv::git::CommitInfo purge;
  purge.id = std::string(40, 'd');
  purge.summary = "vault(purge): tombstone MEM-x";
  purge.trailers = {{"Vault-Action", "purge"},
                    {"Vault-Log-Id", "distill_100"},
                    {"Vault-Memories", "MEM-x, MEM-y"}};
  gv::git::CommitInfo lost = purge;
  lost.id = std::string(40, 'e');
  lost.trailers = {{"Vault-Action", "gc"}, {"Vault-Log-Id", "distill_999"}};

  gv::distill::OperationView op;
  op.id = "distill_100";
  op.type = "purge";
  op.raw = {{"id", "distill_100"},
            {"notes", "Tombstoned 2 memories"},
            {"pre_metrics", {{"health_score", 70}}},
            {"post_metrics", {{"health_score", 76}}}};
  const auto commits = gv::review::maintenance_commits({plain, purge, lost}, {op});
  REQUIRE(commits.size() == 2);
  CHECK(commits[0].action == "purge");
  CHECK(commits[0].memories == std::vector<std::string>{"MEM-x", "MEM-y"});
  REQUIRE(commits[0].log.has_value());
  CHECK(commits[0].log->notes == "Tombstoned 2 memories");
  CHECK(commits[0].log->health_before == 70);
  CHECK(commits[0].log->health_after == 76);
  CHECK(commits[1].action == "gc");
  CHECK_FALSE(commits[1].log.has_value());

  Review review;
  review.maintenance = commits;
  const std::string md = gv::review::render_markdown(review);
  CHECK_THAT(md, Catch::Contains("| `dddddddddddd` | purge | vault(purge): tombstone MEM-x | "
                                 "`distill_100`, health 70 → 76: Tombstoned 2 memories |"));
  CHECK_THAT(md, Catch::Contains("`distill_999` (not in the distill log at HEAD)"));
}

}  // namespace review_render_test
