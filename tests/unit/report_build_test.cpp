#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "core/scoring/report.hpp"
#include "tests/unit/scoring_fixtures.hpp"

namespace report_build_test {

using gv::Memory;
using gv::scoring::HealthStatus;
using gv::scoring_test::days_before;
using gv::scoring_test::k_today;
using gv::scoring_test::memory;
using gv::scoring_test::tombstoned;
namespace scoring = gv::scoring;

namespace {

std::vector<std::string> ids(const std::vector<scoring::Candidate>& candidates) {
  std::vector<std::string> result;
  for (const auto& candidate : candidates) {
    result.push_back(candidate.id);
  }
  return result;
}

std::vector<std::string> ids(const std::vector<scoring::PurgeCandidate>& candidates) {
  std::vector<std::string> result;
  for (const auto& candidate : candidates) {
    result.push_back(candidate.id);
  }
  return result;
}

using Ids = std::vector<std::string>;

}  // namespace

TEST_CASE("the health score subtracts 3, 5 and 2 per candidate and clamps at 0", "[report]") {
  CHECK(scoring::health_score(0, 0, 0) == 100);
  CHECK(scoring::health_score(1, 1, 1) == 90);
  CHECK(scoring::health_score(4, 2, 1) == 76);
  CHECK(scoring::health_score(20, 8, 0) == 0);  // exactly 100 off
  CHECK(scoring::health_score(40, 0, 0) == 0);  // 120 off, clamped
  CHECK(scoring::health_score(0, 0, 50) == 0);
}

TEST_CASE("health status thresholds are 80, 60 and 40", "[report]") {
  CHECK(scoring::health_status(100) == HealthStatus::healthy);
  CHECK(scoring::health_status(80) == HealthStatus::healthy);
  CHECK(scoring::health_status(79) == HealthStatus::manageable);
  CHECK(scoring::health_status(60) == HealthStatus::manageable);
  CHECK(scoring::health_status(59) == HealthStatus::concerning);
  CHECK(scoring::health_status(40) == HealthStatus::concerning);
  CHECK(scoring::health_status(39) == HealthStatus::critical);
  CHECK(scoring::health_status(0) == HealthStatus::critical);
  CHECK(scoring::health_status_label(HealthStatus::manageable) == "manageable");
  CHECK(scoring::health_status_label(HealthStatus::critical) == "critical");
}

TEST_CASE("report candidate lists follow the composite, duplicate and size thresholds",
          "[report]") {
  // Composites, each built from exact parts (never retrieved unless stated, 100 tokens):
  std::vector<Memory> vault;
  // 0.7: staleness 1 + zero 1 + duplicate 3/5 (shares a,b,c with MEM-share).
  vault.push_back(memory("MEM-at-07", 120, {"a", "b", "c", "d", "e"}));
  vault.push_back(memory("MEM-share", 0, {"a", "b", "c"}));  // duplicate 1 -> merge
  // 0.55: staleness 1 + zero 1, 0 duplicate.
  vault.push_back(memory("MEM-055", 90, {"solo1"}));
  // 0.3: created today, 1200 tokens (size 1 -> 0.2), duplicate 2/5 with MEM-pq (0.1).
  Memory at_03 = memory("MEM-at-03", 0, {"p", "q", "r", "s", "t"});
  at_03.token_count = 1200;
  vault.push_back(at_03);
  vault.push_back(memory("MEM-pq", 0, {"p", "q"}));  // duplicate 1 -> merge; composite 0.25
  // 0.29: just under review (staleness 26/90*0.3 = 0.0867 + size 1.0167*0.2 = 0.2033).
  Memory under = memory("MEM-029", 26, {"solo2"});
  under.token_count = 1210;
  vault.push_back(under);
  // Size 0.5 exactly (900 tokens) is not a compress candidate; 901 is.
  Memory at_900 = memory("MEM-900", 0, {"solo3"});
  at_900.token_count = 900;
  vault.push_back(at_900);
  Memory at_901 = memory("MEM-901", 0, {"solo4"});
  at_901.token_count = 901;
  vault.push_back(at_901);

  const auto report = scoring::build_report(vault, k_today);
  CHECK(ids(report.candidates.purge) == Ids{"MEM-at-07"});
  CHECK(ids(report.candidates.review) == Ids{"MEM-055", "MEM-at-03"});
  CHECK(ids(report.candidates.merge) == Ids{"MEM-pq", "MEM-share"});
  CHECK(ids(report.candidates.compress) == Ids{"MEM-029", "MEM-901", "MEM-at-03"});
  // 100 - 1*3 - 2*5 - 3*2
  CHECK(report.health_score == 81);
  CHECK(report.status == HealthStatus::healthy);

  SECTION("a duplicate of exactly 0.6 is not a merge candidate") {
    const auto& at_07 = report.scores[5];
    REQUIRE(at_07.id == "MEM-at-07");
    CHECK(at_07.duplicate == 0.6);
  }
  SECTION("candidate items carry the composite") {
    CHECK(report.candidates.purge[0].composite == Approx(0.7));
  }
  SECTION("log metrics repeat the candidate counts") {
    const auto metrics = scoring::vault_metrics(report);
    CHECK(metrics.total_memories == 8);
    CHECK(metrics.total_tokens == 4 * 100 + 1200 + 1210 + 900 + 901);
    CHECK(metrics.health_score == 81);
    CHECK(metrics.purge_candidates == 1);
    CHECK(metrics.merge_candidates == 2);
    CHECK(metrics.compress_candidates == 3);
  }
  SECTION("recommended actions are what each action's dry run would act on, by its own rule") {
    // purge takes the never retrieved or stale (not the composite); merge pairs within a topic
    // at 60% overlap or more, 0.6 included; nothing recommends refine for review candidates.
    REQUIRE(report.actions.size() == 3);
    CHECK(report.actions[0].flag == "--purge");
    CHECK(report.actions[0].ids == Ids{"MEM-055", "MEM-at-07"});
    CHECK(ids(scoring::purge_candidates(report.scores, k_today)) ==
          Ids{"MEM-at-07", "MEM-055"});  // the dry run's order: past TTL, composite
    CHECK(report.actions[1].flag == "--merge");
    CHECK(report.actions[1].ids == Ids{"MEM-at-07", "MEM-pq", "MEM-share"});
    CHECK(report.actions[2].flag == "--compress");
    CHECK(report.actions[2].count == 3);
  }
}

TEST_CASE("tombstoned memories are listed with days until gc clamped at 0", "[report]") {
  std::vector<Memory> vault{tombstoned("MEM-d", 10), tombstoned("MEM-a", 0), tombstoned("MEM-c", 7),
                            tombstoned("MEM-b", 3, "merged_into:MEM-x"), memory("MEM-live", 1)};
  Memory undated = tombstoned("MEM-e", 0);
  undated.tombstoned_at.reset();
  vault.push_back(undated);

  const auto report = scoring::build_report(vault, k_today);
  REQUIRE(report.tombstoned.size() == 5);
  CHECK(report.tombstoned[0].id == "MEM-a");
  CHECK(report.tombstoned[0].days_until_gc == 7);
  CHECK_FALSE(report.tombstoned[0].gc_eligible);
  CHECK(report.tombstoned[1].id == "MEM-b");
  CHECK(report.tombstoned[1].days_until_gc == 4);
  CHECK(report.tombstoned[1].tombstone_reason == "merged_into:MEM-x");
  CHECK(report.tombstoned[2].id == "MEM-c");
  CHECK(report.tombstoned[2].days_until_gc == 0);
  CHECK(report.tombstoned[2].gc_eligible);
  CHECK(report.tombstoned[3].id == "MEM-d");
  CHECK(report.tombstoned[3].days_until_gc == 0);
  CHECK(report.tombstoned[3].gc_eligible);
  CHECK(report.tombstoned[4].id == "MEM-e");
  CHECK(report.tombstoned[4].days_until_gc == 7);
  CHECK_FALSE(report.tombstoned[4].gc_eligible);
  CHECK(report.gc_eligible_count == 2);

  SECTION("log metrics count tombstoned files and their tokens") {
    const auto metrics = scoring::vault_metrics(report);
    CHECK(metrics.total_memories == 6);
    CHECK(metrics.total_tokens == 600);
    CHECK(metrics.never_retrieved == 1);
  }
  SECTION("tombstoned memories stay out of every statistic") {
    CHECK(report.overview.total_count == 1);
    CHECK(report.scores.size() == 1);
    CHECK(report.retrieval.never_retrieved == 1);
  }
  SECTION("gc-eligible memories get a recommended action") {
    REQUIRE(report.actions.size() == 1);
    CHECK(report.actions[0].flag == "--gc");
    CHECK(report.actions[0].count == 2);
  }
}

TEST_CASE("the overview totals tokens and breaks date ties by id", "[report]") {
  Memory b = memory("MEM-b", 100);
  b.token_count = 10;
  Memory a = memory("MEM-a", 100);
  a.token_count = 11;
  Memory d = memory("MEM-d", 5);
  d.token_count = 0;
  Memory c = memory("MEM-c", 5);
  c.token_count = 0;
  const auto report = scoring::build_report({b, d, a, c}, k_today);
  CHECK(report.overview.total_count == 4);
  CHECK(report.overview.total_tokens == 21);
  CHECK(report.overview.average_tokens == 5);  // 5.25
  REQUIRE(report.overview.oldest);
  CHECK(report.overview.oldest->id == "MEM-a");
  CHECK(report.overview.oldest->created == days_before(k_today, 100));
  REQUIRE(report.overview.newest);
  CHECK(report.overview.newest->id == "MEM-c");

  SECTION("the average rounds half up") {
    Memory e = memory("MEM-e", 1);
    e.token_count = 1;
    Memory f = memory("MEM-f", 1);
    f.token_count = 2;
    CHECK(scoring::build_report({e, f}, k_today).overview.average_tokens == 2);
  }
}

TEST_CASE("an empty vault reports zeros, no rows and a perfect score", "[report]") {
  const auto report = scoring::build_report({tombstoned("MEM-gone", 1)}, k_today);
  CHECK(report.overview.total_count == 0);
  CHECK(report.overview.average_tokens == 0);
  CHECK_FALSE(report.overview.oldest);
  CHECK(report.categories.empty());
  CHECK(report.clusters.empty());
  CHECK(report.retrieval.never_retrieved_percent == 0);
  CHECK_FALSE(report.retrieval.most_retrieved_id);
  CHECK(report.health_score == 100);
  CHECK(report.actions.empty());
}

TEST_CASE("a one-memory vault scores duplicate 0", "[report]") {
  const auto report = scoring::build_report({memory("MEM-only", 0, {"a", "b"})}, k_today);
  REQUIRE(report.scores.size() == 1);
  CHECK(report.scores[0].duplicate == 0.0);
  CHECK(report.candidates.merge.empty());
}

TEST_CASE("retrieval statistics bucket counts and round the never-retrieved share", "[report]") {
  Memory never = memory("MEM-a", 1);
  Memory once = memory("MEM-b", 1);
  once.retrieval_count = 1;
  Memory three = memory("MEM-c", 1);
  three.retrieval_count = 3;
  Memory four = memory("MEM-d", 1);
  four.retrieval_count = 4;
  Memory also_four = memory("MEM-0", 1);
  also_four.retrieval_count = 4;
  Memory never_too = memory("MEM-e", 1);

  const auto report =
      scoring::build_report({never, once, three, four, also_four, never_too}, k_today);
  CHECK(report.retrieval.never_retrieved == 2);
  CHECK(report.retrieval.never_retrieved_percent == 33);
  CHECK(report.retrieval.retrieved_one_to_three == 2);
  CHECK(report.retrieval.retrieved_four_or_more == 2);
  REQUIRE(report.retrieval.most_retrieved_id);
  CHECK(*report.retrieval.most_retrieved_id == "MEM-0");
  CHECK(report.retrieval.most_retrieved_count == 4);

  SECTION("two thirds round to 67 percent") {
    const auto two_of_three = scoring::build_report({never, never_too, once}, k_today);
    CHECK(two_of_three.retrieval.never_retrieved_percent == 67);
  }
  SECTION("a half rounds up to the whole percent") {
    std::vector<Memory> vault;
    for (int i = 0; i < 200; ++i) {
      Memory m = memory("MEM-" + std::to_string(i), 1);
      m.retrieval_count = i < 199 ? 1 : 0;
      vault.push_back(m);
    }
    CHECK(scoring::build_report(vault, k_today).retrieval.never_retrieved_percent == 1);  // 0.5%
  }
}

TEST_CASE("categories group upper-cased and clusters group by first topic segment", "[report]") {
  Memory a = memory("MEM-a", 45);  // composite 0.15 + 0.25
  a.category = "pattern";
  a.topic = "python/libs";
  a.token_count = 100;
  Memory b = memory("MEM-b", 0);  // composite 0
  b.category = "PATTERN";
  b.topic = "python";
  b.token_count = 300;
  Memory c = memory("MEM-c", 90);  // composite 0.3 + 0.25
  c.topic = "";
  c.token_count = 50;

  const auto report = scoring::build_report({a, b, c}, k_today);
  REQUIRE(report.categories.size() == 2);
  CHECK(report.categories[0].category.empty());
  CHECK(report.categories[0].count == 1);
  CHECK(report.categories[0].average_composite == Approx(0.55));
  CHECK(report.categories[1].category == "PATTERN");
  CHECK(report.categories[1].count == 2);
  CHECK(report.categories[1].tokens == 400);
  CHECK(report.categories[1].average_composite == Approx(0.2));

  REQUIRE(report.clusters.size() == 2);
  CHECK(report.clusters[0].cluster == "python");
  CHECK(report.clusters[0].count == 2);
  CHECK(report.clusters[0].average_staleness == Approx(0.25));
  CHECK(report.clusters[1].cluster == "uncategorized");
  CHECK(report.clusters[1].average_staleness == 1.0);
}

TEST_CASE("category TTLs are the documented table, compared upper-cased", "[report][purge]") {
  CHECK(scoring::category_ttl_days("CONFIG") == 180);
  CHECK(scoring::category_ttl_days("config") == 180);
  CHECK(scoring::category_ttl_days("WORKFLOW") == 365);
  CHECK(scoring::category_ttl_days("PATTERN") == 540);
  CHECK(scoring::category_ttl_days("TECHNIQUE") == 270);
  CHECK_FALSE(scoring::category_ttl_days("INSIGHT"));
  CHECK_FALSE(scoring::category_ttl_days("ENFORCEMENT"));
  CHECK_FALSE(scoring::category_ttl_days(""));
}

TEST_CASE("purge selects never-retrieved or very stale memories outside email preferences",
          "[report][purge]") {
  Memory zero = memory("MEM-zero", 31);             // zero_retrieval 1
  Memory young = memory("MEM-young", 30);           // zero_retrieval 0, staleness 1/3
  Memory retrieved = memory("MEM-retrieved", 200);  // staleness 1 - 0.3 (FSRS), zero 0
  retrieved.retrieval_count = 1;
  Memory exempt = memory("MEM-exempt", 400);  // staleness 1, zero 0 by the exemption
  exempt.topic = "email/preferences/tone";

  const auto scores =
      scoring::score_memories({zero, young, retrieved, exempt, tombstoned("MEM-t", 100)}, k_today);
  CHECK(ids(scoring::purge_candidates(scores, k_today)) == Ids{"MEM-zero"});

  SECTION("staleness above 0.8 selects a retrieved memory") {
    // Without the FSRS adjustment (age <= 60) and with a retrieval, staleness passes 0.8 only
    // when the last retrieval predates creation, as data imported from an old index can.
    Memory at = memory("MEM-at", 55);
    at.retrieval_count = 1;
    at.last_retrieved = days_before(k_today, 72);  // staleness 0.8 exactly: not selected
    Memory over = memory("MEM-over", 55);
    over.retrieval_count = 1;
    over.last_retrieved = days_before(k_today, 73);  // staleness 0.811: selected
    const auto scored = scoring::score_memories({at, over}, k_today);
    CHECK(scored[0].staleness == Approx(0.8));
    CHECK(ids(scoring::purge_candidates(scored, k_today)) == Ids{"MEM-over"});
  }
  SECTION("an exempt memory with maximal staleness is never selected") {
    Memory old = memory("MEM-old-pref", 55);
    old.topic = "email/preferences/signature";
    old.retrieval_count = 1;
    old.last_retrieved = days_before(k_today, 300);
    const auto scored = scoring::score_memories({old}, k_today);
    REQUIRE(scored[0].staleness == 1.0);
    CHECK(scoring::purge_candidates(scored, k_today).empty());
  }
}

TEST_CASE("purge candidates rank past-TTL first by excess days, then composite, then id",
          "[report][purge]") {
  // All never retrieved and 100 tokens, so each is a candidate.
  Memory config_old = memory("MEM-config-old", 200);  // CONFIG 180: 20 days past
  config_old.category = "CONFIG";
  Memory config_older = memory("MEM-config-older", 230);  // 50 days past
  config_older.category = "config";
  Memory pattern = memory("MEM-pattern", 230);  // PATTERN 540: not past
  pattern.category = "PATTERN";
  Memory insight = memory("MEM-insight", 1000);  // no TTL
  insight.category = "INSIGHT";
  Memory big = memory("MEM-big", 40);  // not past; composite 40/300 + 0.25 + 0.2 > 0.55
  big.category = "TECHNIQUE";
  big.token_count = 1200;
  Memory twin_b = memory("MEM-twin-b", 230);  // WORKFLOW 365: not past; ties MEM-pattern
  twin_b.category = "WORKFLOW";
  Memory at_ttl = memory("MEM-at-ttl", 180);  // exactly at the CONFIG TTL: not past
  at_ttl.category = "CONFIG";

  const auto scores = scoring::score_memories(
      {config_old, config_older, pattern, insight, big, twin_b, at_ttl}, k_today);
  const auto candidates = scoring::purge_candidates(scores, k_today);
  CHECK(ids(candidates) == Ids{"MEM-config-older", "MEM-config-old", "MEM-big", "MEM-at-ttl",
                               "MEM-insight", "MEM-pattern", "MEM-twin-b"});
  REQUIRE(candidates.size() == 7);
  CHECK(candidates[0].past_ttl);
  CHECK(candidates[0].ttl_excess_days == 50);
  CHECK(candidates[0].category == "CONFIG");
  CHECK(candidates[1].ttl_excess_days == 20);
  CHECK_FALSE(candidates[2].past_ttl);
  CHECK(candidates[2].ttl_excess_days == 0);
  CHECK(candidates[2].composite == Approx(40.0 / 300.0 + 0.25 + 0.2));
  CHECK(candidates[3].composite == Approx(0.55));
}

}  // namespace report_build_test
