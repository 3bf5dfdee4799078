#include <algorithm>
#include <catch2/catch.hpp>
#include <cstdint>
#include <random>
#include <string>
#include <unordered_set>
#include <vector>

#include "core/scoring/score.hpp"
#include "tests/unit/scoring_fixtures.hpp"

namespace scoring_score_test {

using gv::Date;
using gv::Memory;
using gv::scoring::Classification;
using gv::scoring_test::days_before;
using gv::scoring_test::k_today;
using gv::scoring_test::memory;
using gv::scoring_test::tombstoned;
using gv::scoring_test::ymd;
namespace scoring = gv::scoring;

namespace {

const scoring::Score& find_score(const std::vector<scoring::Score>& scores, const std::string& id) {
  const auto found = std::find_if(scores.begin(), scores.end(),
                                  [&](const scoring::Score& score) { return score.id == id; });
  REQUIRE(found != scores.end());
  return *found;
}

std::vector<double> duplicates_of(const std::vector<Memory>& memories) {
  std::vector<const Memory*> pointers;
  for (const Memory& memory : memories) {
    pointers.push_back(&memory);
  }
  return scoring::duplicate_scores(pointers);
}

std::vector<std::string> numbered(const std::string& prefix, int count) {
  std::vector<std::string> words;
  for (int i = 0; i < count; ++i) {
    words.push_back(prefix + std::to_string(i));
  }
  return words;
}

}  // namespace

TEST_CASE("the test calendar helper counts days from 1970-01-01", "[scoring]") {
  CHECK(ymd(1970, 1, 1).days == 0);
  CHECK(ymd(2000, 3, 1).days == 11017);
  CHECK(k_today.days == 20787);
}

TEST_CASE("staleness grows by days since last retrieval over 90 and caps at 1", "[scoring]") {
  const auto staleness = [](std::int64_t created_days_ago, std::optional<std::int64_t> retrieved,
                            std::int64_t count) {
    std::optional<Date> last;
    if (retrieved) {
      last = days_before(k_today, *retrieved);
    }
    return scoring::staleness_score(days_before(k_today, created_days_ago), last, count, k_today);
  };
  CHECK(staleness(0, std::nullopt, 0) == 0.0);
  CHECK(staleness(45, std::nullopt, 0) == Approx(0.5));
  CHECK(staleness(30, std::nullopt, 0) == Approx(1.0 / 3.0));
  CHECK(staleness(90, std::nullopt, 0) == 1.0);
  CHECK(staleness(400, std::nullopt, 0) == 1.0);

  SECTION("the last retrieval date counts instead of the creation date") {
    CHECK(staleness(50, 9, 1) == Approx(0.1));
  }
  SECTION("the FSRS adjustment needs an age above 60 days") {
    // 60 days old: no adjustment; 61 days old: lowered by 0.3.
    CHECK(staleness(60, std::nullopt, 1) == Approx(60.0 / 90.0));
    CHECK(staleness(61, std::nullopt, 1) == Approx(61.0 / 90.0 - 0.3));
  }
  SECTION("the FSRS adjustment needs at least one retrieval") {
    CHECK(staleness(61, std::nullopt, 0) == Approx(61.0 / 90.0));
  }
  SECTION("the FSRS adjustment does not go below 0") {
    CHECK(staleness(200, 0, 5) == 0.0);
    CHECK(staleness(200, 18, 5) == 0.0);  // 0.2 - 0.3
  }
  SECTION("an adjusted staleness of a long-unretrieved memory is 0.7") {
    CHECK(staleness(500, 200, 2) == Approx(0.7));
  }
  SECTION("dates in the future count as today") {
    CHECK(staleness(-10, std::nullopt, 0) == 0.0);
    CHECK(staleness(5, -3, 1) == 0.0);
  }
}

TEST_CASE("zero retrieval penalises a never-retrieved memory older than 30 days", "[scoring]") {
  const auto penalty = [](std::string_view topic, std::int64_t age, std::int64_t count) {
    return scoring::zero_retrieval_penalty(topic, days_before(k_today, age), count, k_today);
  };
  CHECK(penalty("python", 30, 0) == 0.0);
  CHECK(penalty("python", 31, 0) == 1.0);
  CHECK(penalty("python", 400, 1) == 0.0);
  CHECK(penalty("", 31, 0) == 1.0);

  SECTION("email preference memories are exempt") {
    CHECK(penalty("email/preferences/tone", 400, 0) == 0.0);
    CHECK(penalty("email/preferences/", 400, 0) == 0.0);
  }
  SECTION("only the exact email/preferences/ prefix is exempt") {
    CHECK(penalty("email/preferences", 400, 0) == 1.0);
    CHECK(penalty("email/preferencesX/a", 400, 0) == 1.0);
    CHECK(penalty("work/email/preferences/a", 400, 0) == 1.0);
  }
}

TEST_CASE("size penalty is zero up to 600 tokens and grows without bound", "[scoring]") {
  CHECK(scoring::size_penalty(0) == 0.0);
  CHECK(scoring::size_penalty(300) == 0.0);
  CHECK(scoring::size_penalty(600) == 0.0);
  CHECK(scoring::size_penalty(900) == 0.5);
  CHECK(scoring::size_penalty(1200) == 1.0);
  CHECK(scoring::size_penalty(2400) == 3.0);
}

TEST_CASE("the composite is the weighted sum clamped to 0..1", "[scoring]") {
  CHECK(scoring::composite_score(0, 0, 0, 0) == 0.0);
  CHECK(scoring::composite_score(0.5, 0, 0, 0.25) == Approx(0.2125));
  CHECK(scoring::composite_score(1, 0, 0, 0) == Approx(0.3));
  CHECK(scoring::composite_score(0, 1, 0, 0) == Approx(0.25));
  CHECK(scoring::composite_score(0, 0, 1, 0) == Approx(0.2));
  CHECK(scoring::composite_score(0, 0, 0, 1) == Approx(0.25));
  CHECK(scoring::composite_score(1, 1, 1, 1) == Approx(1.0));
  CHECK(scoring::composite_score(1, 1, 5, 1) == 1.0);
  CHECK(scoring::composite_score(0, 0, 4, 0) == Approx(0.8));
  CHECK(scoring::composite_score(0, 0, 6, 0) == 1.0);
}

TEST_CASE("classification thresholds are inclusive at 0.3, 0.5 and 0.7", "[scoring]") {
  CHECK(scoring::classify(1.0) == Classification::purge);
  CHECK(scoring::classify(0.7) == Classification::purge);
  CHECK(scoring::classify(0.69) == Classification::merge_or_compress);
  CHECK(scoring::classify(0.5) == Classification::merge_or_compress);
  CHECK(scoring::classify(0.49) == Classification::review);
  CHECK(scoring::classify(0.3) == Classification::review);
  CHECK(scoring::classify(0.29) == Classification::healthy);
  CHECK(scoring::classify(0.0) == Classification::healthy);

  SECTION("floating-point noise below a threshold still counts as the threshold") {
    CHECK(scoring::classify(0.7 - 1e-13) == Classification::purge);
    CHECK(scoring::classify(0.5 - 1e-13) == Classification::merge_or_compress);
    CHECK(scoring::classify(0.3 - 1e-13) == Classification::review);
    CHECK(scoring::classify(0.7 - 1e-6) == Classification::merge_or_compress);
  }
  SECTION("labels") {
    CHECK(scoring::classification_label(Classification::purge) == "purge");
    CHECK(scoring::classification_label(Classification::merge_or_compress) == "merge_or_compress");
    CHECK(scoring::classification_label(Classification::review) == "review");
    CHECK(scoring::classification_label(Classification::healthy) == "healthy");
  }
}

TEST_CASE("a composite exactly on a threshold on paper classifies at that threshold", "[scoring]") {
  SECTION("0.7: staleness 1, never retrieved, duplicate 3/5") {
    std::vector<Memory> vault{memory("MEM-a", 120, {"a", "b", "c", "d", "e"}),
                              memory("MEM-b", 0, {"a", "b", "c", "x", "y"})};
    const auto scores = scoring::score_memories(vault, k_today);
    const auto& a = find_score(scores, "MEM-a");
    CHECK(a.composite == Approx(0.7));
    CHECK(a.classification == Classification::purge);
  }
  SECTION("0.5 whose binary sum is 0.49999999999999994") {
    // staleness 50/90, never retrieved, 600 tokens, duplicate 1/3:
    // 50/300 + 1/4 + 0 + 1/12 = 1/2 exactly.
    std::vector<Memory> vault{memory("MEM-a", 50, {"a", "b", "c"}), memory("MEM-b", 0, {"a"})};
    vault[0].token_count = 600;
    const auto scores = scoring::score_memories(vault, k_today);
    const auto& a = find_score(scores, "MEM-a");
    CHECK(a.composite < 0.5);  // the noise this test is about
    CHECK(a.composite == Approx(0.5));
    CHECK(a.classification == Classification::merge_or_compress);
  }
  SECTION("0.3 whose binary sum is 0.29999999999999993") {
    // FSRS-adjusted staleness 49/90 - 0.3, retrieved, 780 tokens (0.3), duplicate 2/3:
    // (49/300 - 9/100) + 6/100 + 1/6 = 3/10 exactly.
    std::vector<Memory> vault{memory("MEM-a", 100, {"a", "b", "c"}),
                              memory("MEM-b", 0, {"a", "b"})};
    vault[0].retrieval_count = 2;
    vault[0].last_retrieved = days_before(k_today, 49);
    vault[0].token_count = 780;
    const auto scores = scoring::score_memories(vault, k_today);
    const auto& a = find_score(scores, "MEM-a");
    CHECK(a.composite < 0.3);
    CHECK(a.composite == Approx(0.3));
    CHECK(a.classification == Classification::review);
  }
}

TEST_CASE("the cluster is the first topic segment", "[scoring]") {
  CHECK(scoring::cluster_key("python/libs/requests") == "python");
  CHECK(scoring::cluster_key("lua/patterns") == "lua");
  CHECK(scoring::cluster_key("lua") == "lua");
  CHECK(scoring::cluster_key("") == "uncategorized");
  CHECK(scoring::cluster_key("/leading") == "uncategorized");
}

TEST_CASE("duplicate is the largest share of a memory's keywords found in one other memory",
          "[scoring][duplicate]") {
  SECTION("asymmetric: a subset scores 1, its superset scores its own share") {
    const auto scores = duplicates_of(
        {memory("MEM-a", 0, {"http"}), memory("MEM-b", 0, {"http", "retry", "backoff", "x"})});
    CHECK(scores[0] == 1.0);
    CHECK(scores[1] == 0.25);
  }
  SECTION("the maximum over others, not the sum") {
    const auto scores =
        duplicates_of({memory("MEM-a", 0, {"a", "b", "c", "d"}), memory("MEM-b", 0, {"a"}),
                       memory("MEM-c", 0, {"a", "b", "c"}), memory("MEM-d", 0, {"d"})});
    CHECK(scores[0] == 0.75);
  }
  SECTION("keywords compare trimmed and case-insensitively") {
    const auto scores = duplicates_of(
        {memory("MEM-a", 0, {"Python", "HTTP"}), memory("MEM-b", 0, {" python ", "http"})});
    CHECK(scores[0] == 1.0);
    CHECK(scores[1] == 1.0);
  }
  SECTION("repeated keywords count once") {
    const auto scores =
        duplicates_of({memory("MEM-a", 0, {"a", "A", "a ", "b"}), memory("MEM-b", 0, {"a"})});
    CHECK(scores[0] == 0.5);
    CHECK(scores[1] == 1.0);
  }
  SECTION("an empty keyword list scores 0 and matches nothing") {
    const auto scores = duplicates_of({memory("MEM-a", 0, {}), memory("MEM-b", 0, {"a"})});
    CHECK(scores[0] == 0.0);
    CHECK(scores[1] == 0.0);
  }
  SECTION("blank keywords are ignored") {
    const auto scores = duplicates_of({memory("MEM-a", 0, {"a", " "}), memory("MEM-b", 0, {"a"})});
    CHECK(scores[0] == 1.0);
  }
  SECTION("a vault of one memory scores 0") {
    CHECK(duplicates_of({memory("MEM-a", 0, {"a", "b"})}) == std::vector<double>{0.0});
  }
  SECTION("no shared keywords scores 0") {
    const auto scores =
        duplicates_of({memory("MEM-a", 0, {"a", "b"}), memory("MEM-b", 0, {"c", "d"})});
    CHECK(scores[0] == 0.0);
    CHECK(scores[1] == 0.0);
  }
  SECTION("identical keyword sets in two memories score 1 each") {
    const auto scores =
        duplicates_of({memory("MEM-a", 0, {"a", "b"}), memory("MEM-b", 0, {"b", "a"})});
    CHECK(scores[0] == 1.0);
    CHECK(scores[1] == 1.0);
  }
}

TEST_CASE("the inverted-index duplicate score equals the all-pairs definition",
          "[scoring][duplicate]") {
  std::mt19937 random(12345);
  std::uniform_int_distribution<int> word(0, 59);
  std::uniform_int_distribution<int> length(0, 8);
  std::vector<Memory> vault;
  for (int i = 0; i < 150; ++i) {
    std::vector<std::string> keywords;
    const int n = length(random);
    for (int k = 0; k < n; ++k) {
      keywords.push_back("w" + std::to_string(word(random)));
    }
    vault.push_back(memory("MEM-" + std::to_string(i), 0, keywords));
  }
  const auto scores = duplicates_of(vault);
  for (std::size_t i = 0; i < vault.size(); ++i) {
    const std::unordered_set<std::string> mine(vault[i].keywords.begin(), vault[i].keywords.end());
    double expected = 0.0;
    for (std::size_t j = 0; j < vault.size(); ++j) {
      if (j == i || mine.empty()) {
        continue;
      }
      const std::unordered_set<std::string> theirs(vault[j].keywords.begin(),
                                                   vault[j].keywords.end());
      const auto shared = std::count_if(mine.begin(), mine.end(),
                                        [&](const std::string& k) { return theirs.count(k) > 0; });
      expected = std::max(expected, static_cast<double>(shared) / static_cast<double>(mine.size()));
    }
    INFO(vault[i].id);
    CHECK(scores[i] == expected);
  }
}

TEST_CASE("duplicate thresholds: 3 of 5 and 60 of 100 are exactly 0.6, 61 of 100 is above",
          "[scoring][duplicate]") {
  auto base = numbered("k", 100);
  std::vector<std::string> sixty(base.begin(), base.begin() + 60);
  std::vector<std::string> sixty_one(base.begin(), base.begin() + 61);
  const auto at_sixty = duplicates_of({memory("MEM-a", 0, base), memory("MEM-b", 0, sixty)});
  const auto at_sixty_one =
      duplicates_of({memory("MEM-a", 0, base), memory("MEM-b", 0, sixty_one)});
  const auto three_of_five = duplicates_of(
      {memory("MEM-a", 0, {"a", "b", "c", "d", "e"}), memory("MEM-b", 0, {"a", "b", "c"})});
  CHECK_FALSE(scoring::above(at_sixty[0], 0.6));
  CHECK_FALSE(scoring::above(three_of_five[0], 0.6));
  CHECK(scoring::above(at_sixty_one[0], 0.6));
  CHECK(at_sixty_one[0] == Approx(0.61));
}

TEST_CASE("tombstoned memories are neither scored nor counted as others", "[scoring]") {
  std::vector<Memory> vault{memory("MEM-b", 10, {"a", "b"}), tombstoned("MEM-a", 1),
                            memory("MEM-c", 10, {"c"})};
  vault[1].keywords = {"a", "b"};
  const auto scores = scoring::score_memories(vault, k_today);
  REQUIRE(scores.size() == 2);
  CHECK(scores[0].id == "MEM-b");
  CHECK(scores[1].id == "MEM-c");
  CHECK(scores[0].duplicate == 0.0);
}

TEST_CASE("score_memories fills every component and sorts by id", "[scoring]") {
  Memory pattern = memory("MEM-z", 45, {"http", "retry"});
  pattern.topic = "python/libs/requests";
  pattern.category = "pattern";
  pattern.token_count = 1200;
  Memory other = memory("MEM-a", 5, {"http", "cache", "redis", "ttl"});
  other.topic = "";
  other.retrieval_count = 3;
  other.last_retrieved = k_today;

  const auto scores = scoring::score_memories({pattern, other}, k_today);
  REQUIRE(scores.size() == 2);
  CHECK(scores[0].id == "MEM-a");
  CHECK(scores[1].id == "MEM-z");

  const auto& z = scores[1];
  CHECK(z.cluster == "python");
  CHECK(z.category == "PATTERN");
  CHECK(z.token_count == 1200);
  CHECK(z.staleness == Approx(0.5));
  CHECK(z.zero_retrieval == 1.0);
  CHECK(z.size_penalty == 1.0);
  CHECK(z.duplicate == 0.5);
  // 0.15 + 0.25 + 0.2 + 0.125
  CHECK(z.composite == Approx(0.725));
  CHECK(z.classification == Classification::purge);

  const auto& a = scores[0];
  CHECK(a.cluster == "uncategorized");
  CHECK(a.category.empty());
  CHECK(a.staleness == 0.0);
  CHECK(a.zero_retrieval == 0.0);
  CHECK(a.duplicate == 0.25);
  CHECK(a.composite == Approx(0.0625));
  CHECK(a.classification == Classification::healthy);
}

TEST_CASE("retrieval data from the existing index raises counts and dates but never lowers them",
          "[scoring]") {
  Memory a = memory("MEM-a", 200);  // frontmatter: never retrieved
  Memory b = memory("MEM-b", 200);
  b.retrieval_count = 9;
  b.last_retrieved = days_before(k_today, 10);

  scoring::RetrievalOverrides overrides;
  overrides["MEM-a"] = {72, days_before(k_today, 45)};
  overrides["MEM-b"] = {3, days_before(k_today, 90)};
  overrides["MEM-gone"] = {5, k_today};

  const auto scores = scoring::score_memories({a, b}, k_today, overrides);
  const auto& scored_a = find_score(scores, "MEM-a");
  CHECK(scored_a.retrieval_count == 72);
  CHECK(scored_a.last_retrieved == days_before(k_today, 45));
  CHECK(scored_a.zero_retrieval == 0.0);
  CHECK(scored_a.staleness == Approx(0.5 - 0.3));

  const auto& scored_b = find_score(scores, "MEM-b");
  CHECK(scored_b.retrieval_count == 9);
  CHECK(scored_b.last_retrieved == days_before(k_today, 10));

  SECTION("an index date without a frontmatter date is taken") {
    Memory c = memory("MEM-c", 200);
    c.retrieval_count = 4;
    scoring::RetrievalOverrides only_date;
    only_date["MEM-c"] = {0, days_before(k_today, 9)};
    const auto scored = scoring::score_memories({c}, k_today, only_date);
    CHECK(scored[0].retrieval_count == 4);
    CHECK(scored[0].last_retrieved == days_before(k_today, 9));
  }
}

}  // namespace scoring_score_test
