#include <fmt/format.h>

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "core/scoring/render.hpp"
#include "core/scoring/report.hpp"
#include "core/scoring/report_json.hpp"
#include "tests/unit/scoring_fixtures.hpp"

namespace report_render_test {

using gv::Memory;
using gv::scoring_test::k_today;
using gv::scoring_test::tombstoned;
using gv::scoring_test::ymd;
namespace scoring = gv::scoring;

namespace {

Memory make(std::string id, gv::Date created, std::string topic, std::string category,
            std::vector<std::string> keywords, std::int64_t tokens) {
  Memory m;
  m.id = std::move(id);
  m.title = m.id;
  m.created = created;
  m.modified = created;
  m.topic = std::move(topic);
  m.category = std::move(category);
  m.keywords = std::move(keywords);
  m.token_count = tokens;
  return m;
}

// Three active memories and one tombstoned, with scores worked out by hand (today 2026-11-30):
// MEM-http-cache   120 days old, never retrieved, keywords ⊂ MEM-http-retry's:
//                  staleness 1, zero 1, size 0, duplicate 1 -> composite 0.8 (purge, merge)
// MEM-http-retry   60 days old (no FSRS), retrieved 15 days ago, 1000 tokens:
//                  staleness 1/6, zero 0, size 2/3, duplicate 2/3
//                  -> 0.05 + 0.1333 + 0.1667 = 0.35 (review, merge, compress)
// MEM-lua-patterns 10 days old, retrieved yesterday: staleness 1/90 -> composite 1/300 (healthy)
std::vector<Memory> small_vault() {
  Memory cache =
      make("MEM-http-cache", ymd(2026, 8, 2), "python/cache", "technique", {"HTTP", "retry"}, 300);
  Memory retry = make("MEM-http-retry", ymd(2026, 10, 1), "python/libs/requests", "PATTERN",
                      {"http", "retry", "backoff"}, 1000);
  retry.retrieval_count = 2;
  retry.last_retrieved = ymd(2026, 11, 15);
  Memory lua = make("MEM-lua-patterns", ymd(2026, 11, 20), "lua/patterns", "PATTERN",
                    {"lua", "patterns"}, 200);
  lua.retrieval_count = 5;
  lua.last_retrieved = ymd(2026, 11, 29);
  Memory old = tombstoned("MEM-old-notes", 10);
  return {retry, old, lua, cache};
}

const char* const k_expected_report = R"(## Memory Vault Health Report

**Generated**: 2026-11-30
**Vault**: .memory/

---

### Overview

| Metric | Value |
|--------|-------|
| Total memories | 3 |
| Total tokens | 1500 |
| Average tokens/memory | 500 |
| Oldest memory | 2026-08-02 (MEM-http-cache) |
| Newest memory | 2026-11-20 (MEM-lua-patterns) |

---

### Category Distribution

| Category | Count | Tokens | Avg Score |
|----------|-------|--------|-----------|
| PATTERN | 2 | 1200 | 0.18 |
| TECHNIQUE | 1 | 300 | 0.80 |

---

### Topic Clusters

| Cluster | Memories | Avg Staleness | Avg Duplicate |
|---------|----------|---------------|---------------|
| lua | 1 | 0.01 | 0.00 |
| python | 2 | 0.58 | 0.83 |

---

### Retrieval Statistics

| Metric | Value |
|--------|-------|
| Never retrieved | 1 (33%) |
| Retrieved 1-3 times | 1 |
| Retrieved 4+ times | 1 |
| Most retrieved | MEM-lua-patterns (5 times) |

---

### Maintenance Candidates

#### Purge Candidates (score >= 0.7)
- MEM-http-cache (score: 0.80)

#### Merge Candidates (duplicate > 0.6)
- MEM-http-cache (duplicate: 1.00, score: 0.80)
- MEM-http-retry (duplicate: 0.67, score: 0.35)

#### Compress Candidates (size > 0.5)
- MEM-http-retry (size: 0.67, score: 0.35)

#### Review Candidates (score 0.3-0.7)
- MEM-http-retry (score: 0.35)

---

### Tombstoned Memories

| Memory | Tombstoned Date | Reason | Days Until GC |
|--------|----------------|--------|---------------|
| MEM-old-notes | 2026-11-20 | purge | 0 |

**Total tombstoned**: 1
**Eligible for GC**: 1 (past 7-day grace period)

---

### Health Score

**Score**: 85/100
**Status**: 🟢 Healthy

Formula: `100 - (purge_count * 3) - (merge_count * 5) - (compress_count * 2)`

| Threshold | Status |
|-----------|--------|
| 80-100 | Healthy |
| 60-79 | Manageable |
| 40-59 | Concerning |
| 0-39 | Critical |

---

### Recommended Actions

- `git vault distill --purge`: 1 memory (never retrieved, or staleness > 0.8): MEM-http-cache
- `git vault distill --merge`: 2 memories (60% or more of their keywords shared with another of their topic): MEM-http-cache, MEM-http-retry
- `git vault distill --compress`: 1 memory (size > 0.5): MEM-http-retry
- `git vault distill --gc`: 1 memory (tombstoned past the 7-day grace period): MEM-old-notes
)";

const char* const k_expected_verbose_tail = R"(
---

### Memory Scores

| Memory | Cluster | Category | Tokens | Staleness | Zero Retrieval | Size | Duplicate | Composite | Classification |
|--------|---------|----------|--------|-----------|----------------|------|-----------|-----------|----------------|
| MEM-http-cache | python | TECHNIQUE | 300 | 1.00 | 1.00 | 0.00 | 1.00 | 0.80 | purge |
| MEM-http-retry | python | PATTERN | 1000 | 0.17 | 0.00 | 0.67 | 0.67 | 0.35 | review |
| MEM-lua-patterns | lua | PATTERN | 200 | 0.01 | 0.00 | 0.00 | 0.00 | 0.00 | healthy |
)";

}  // namespace

TEST_CASE("a three-memory vault renders the health report template", "[report][render]") {
  const auto report = scoring::build_report(small_vault(), k_today);
  CHECK(scoring::render_markdown(report) == k_expected_report);
}

TEST_CASE("verbose rendering appends the per-memory score table", "[report][render]") {
  const auto report = scoring::build_report(small_vault(), k_today);
  CHECK(scoring::render_markdown(report, true) ==
        std::string(k_expected_report) + k_expected_verbose_tail);
}

TEST_CASE("an empty vault renders None in place of lists and tables", "[report][render]") {
  const auto text = scoring::render_markdown(scoring::build_report({}, k_today));
  CHECK_THAT(text, Catch::Contains("| Total memories | 0 |\n| Total tokens | 0 |\n"
                                   "| Average tokens/memory | 0 |\n| Oldest memory | None |\n"
                                   "| Newest memory | None |\n"));
  CHECK_THAT(text, Catch::Contains("### Category Distribution\n\nNone\n\n---\n"));
  CHECK_THAT(text, Catch::Contains("### Topic Clusters\n\nNone\n\n---\n"));
  CHECK_THAT(text, Catch::Contains("| Never retrieved | 0 (0%) |"));
  CHECK_THAT(text, Catch::Contains("| Most retrieved | None |"));
  CHECK_THAT(text, Catch::Contains("#### Purge Candidates (score >= 0.7)\nNone\n\n"
                                   "#### Merge Candidates (duplicate > 0.6)\nNone\n\n"
                                   "#### Compress Candidates (size > 0.5)\nNone\n\n"
                                   "#### Review Candidates (score 0.3-0.7)\nNone\n\n---\n\n"
                                   "### Tombstoned Memories\n\nNone.\n\n---\n\n"
                                   "### Health Score\n\n**Score**: 100/100\n"
                                   "**Status**: 🟢 Healthy\n"));
  CHECK_THAT(text, Catch::EndsWith("### Recommended Actions\n\nNone\n"));
}

TEST_CASE("the status line shows the emoji and label of each band", "[report][render]") {
  scoring::Report report;
  report.today = k_today;
  const auto status_line = [&](int score) {
    report.health_score = score;
    report.status = scoring::health_status(score);
    const auto text = scoring::render_markdown(report);
    const auto start = text.find("**Status**: ");
    return text.substr(start, text.find('\n', start) - start);
  };
  CHECK(status_line(80) == "**Status**: 🟢 Healthy");
  CHECK(status_line(79) == "**Status**: 🟡 Manageable");
  CHECK(status_line(40) == "**Status**: 🟠 Concerning");
  CHECK(status_line(39) == "**Status**: 🔴 Critical");
}

TEST_CASE("table cells escape pipes and line breaks from reasons", "[report][render]") {
  Memory odd = tombstoned("MEM-odd", 2, "merged | into\nsomething");
  odd.tombstoned_at.reset();
  const auto text = scoring::render_markdown(scoring::build_report({odd}, k_today));
  CHECK_THAT(text, Catch::Contains("| MEM-odd | unknown | merged \\| into something | 7 |\n"));
  CHECK_THAT(text, Catch::Contains("**Eligible for GC**: 0 (past 7-day grace period)"));
}

TEST_CASE("the JSON report has the documented shape", "[report][json]") {
  const auto report = scoring::build_report(small_vault(), k_today);
  const auto json = nlohmann::json::parse(scoring::render_json(report));
  CHECK(json == scoring::report_json(report));

  CHECK(json["schema"] == 1);
  CHECK(json["today"] == "2026-11-30");
  CHECK(json["health_score"] == 85);
  CHECK(json["status"] == "healthy");

  REQUIRE(json["memories"].size() == 3);
  const auto& cache = json["memories"][0];
  CHECK(cache["id"] == "MEM-http-cache");
  CHECK(cache["cluster"] == "python");
  CHECK(cache["category"] == "TECHNIQUE");
  CHECK(cache["token_count"] == 300);
  CHECK(cache["staleness"] == 1.0);
  CHECK(cache["zero_retrieval"] == 1.0);
  CHECK(cache["size_penalty"] == 0.0);
  CHECK(cache["duplicate"] == 1.0);
  CHECK(cache["composite"].get<double>() == Approx(0.8));
  CHECK(cache["classification"] == "purge");
  CHECK(cache.size() == 10);
  CHECK(json["memories"][1]["id"] == "MEM-http-retry");
  CHECK(json["memories"][1]["classification"] == "review");
  CHECK(json["memories"][2]["id"] == "MEM-lua-patterns");

  using Ids = std::vector<std::string>;
  CHECK(json["candidates"]["purge"].get<Ids>() == Ids{"MEM-http-cache"});
  CHECK(json["candidates"]["merge"].get<Ids>() == Ids{"MEM-http-cache", "MEM-http-retry"});
  CHECK(json["candidates"]["compress"].get<Ids>() == Ids{"MEM-http-retry"});
  CHECK(json["candidates"]["review"].get<Ids>() == Ids{"MEM-http-retry"});

  REQUIRE(json["tombstoned"].size() == 1);
  CHECK(json["tombstoned"][0] == nlohmann::json{{"id", "MEM-old-notes"},
                                                {"tombstoned_at", "2026-11-20"},
                                                {"tombstone_reason", "purge"},
                                                {"days_until_gc", 0}});
  CHECK(json["unreadable"] == nlohmann::json::array());
  CHECK(json.size() == 8);
}

TEST_CASE("the JSON report of an empty vault has empty lists and a null unknown date",
          "[report][json]") {
  Memory undated = tombstoned("MEM-x", 1);
  undated.tombstoned_at.reset();
  const auto json = scoring::report_json(scoring::build_report({undated}, k_today));
  CHECK(json["memories"] == nlohmann::json::array());
  CHECK(json["candidates"]["purge"] == nlohmann::json::array());
  CHECK(json["tombstoned"][0]["tombstoned_at"].is_null());
  CHECK(json["tombstoned"][0]["days_until_gc"] == 7);
}

TEST_CASE("the JSON report is streamed byte for byte as the document prints", "[report][json]") {
  // render_json writes the text without building report_json's document; both must agree on
  // every byte: key order, indentation, number forms, escapes and empty lists.
  Memory undated = tombstoned("MEM-undated", 1);
  undated.tombstoned_at.reset();
  Memory quoted = make("MEM-\"quoted\"\\é", ymd(2026, 1, 3), "a/b", "pattern", {"x"}, 1234);
  std::vector<Memory> vault = small_vault();
  vault.push_back(undated);
  vault.push_back(quoted);
  vault.push_back(tombstoned("MEM-tab\tname", 30, "merged_into:MEM-a \"b\""));
  const std::vector<std::vector<Memory>> vaults{{}, {undated}, small_vault(), vault};
  for (const auto& memories : vaults) {
    const auto report = scoring::build_report(memories, k_today);
    CHECK(scoring::render_json(report) == scoring::report_json(report).dump(2));
  }
  auto unreadable = scoring::build_report(small_vault(), k_today);
  unreadable.unreadable.push_back({".memory/10-Memories/MEM-a.md", "MEM-a", 3, "bad \"yaml\"",
                                   "end the value on line 3 with \""});
  unreadable.unreadable.push_back(
      {".memory/10-Memories/MEM-b.md", "MEM-b", std::nullopt, "no frontmatter", ""});
  CHECK(scoring::render_json(unreadable) == scoring::report_json(unreadable).dump(2));
}

TEST_CASE("each report list stops at the limit and counts the rest", "[report][render]") {
  scoring::Report report;
  report.today = k_today;
  for (int i = 0; i < 30; ++i) {
    report.candidates.purge.push_back({fmt::format("MEM-{:02}", i), 0.8, std::nullopt});
  }
  const auto cut = scoring::render_markdown(report, false, 20);
  CHECK_THAT(cut, Catch::Contains("- MEM-19 (score: 0.80)\n\n... and 10 more (`--limit 0` lists "
                                  "them all; `--json` has every one)\n\n#### Merge Candidates"));
  CHECK_THAT(cut, !Catch::Contains("MEM-20"));
  const auto all = scoring::render_markdown(report, false, 0);
  CHECK_THAT(all, Catch::Contains("- MEM-29 (score: 0.80)\n\n#### Merge Candidates"));
  CHECK(scoring::render_markdown(report, false, 30) == all);  // nothing left out, no count line
}

}  // namespace report_render_test
