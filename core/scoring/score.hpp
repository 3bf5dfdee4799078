#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "core/dates.hpp"
#include "core/memory/memory.hpp"

// The scoring engine: per-memory maintenance components and their weighted composite
// (doc/sub-modes.md, "Health scoring"; doc/decisions.md, D5). Pure functions over values.
namespace gv::scoring {

// Thresholds are compared with this tolerance so that a composite that is exactly 0.7 on paper
// but 0.6999999999999999 in binary still counts as 0.7. Every component is a rational number:
// staleness*0.3 = d/300, size*0.2 = (t-600)/3000, duplicate*0.25 = k/(4n) for n keywords, so two
// different exact values (or a value and a threshold, denominator 10) differ by at least
// 1/(12000*n). That stays far above 1e-9 unless one memory has more than 83,000 keywords,
// while floating-point noise in a four-term sum near 1 is around 1e-15.
inline constexpr double k_threshold_tolerance = 1e-9;

// The composite score from which a memory is a purge candidate, and a review candidate.
inline constexpr double k_purge_threshold = 0.7;
inline constexpr double k_review_threshold = 0.3;

// value >= threshold, tolerant of floating-point noise (see k_threshold_tolerance).
[[nodiscard]] inline bool at_least(double value, double threshold) {
  return value >= threshold - k_threshold_tolerance;
}

// value > threshold, tolerant of floating-point noise: a value equal to the threshold on paper
// is not above it.
[[nodiscard]] inline bool above(double value, double threshold) {
  return value > threshold + k_threshold_tolerance;
}

// Retrieval bookkeeping held by an existing memory-index.json entry (D4). Until it has been
// carried into frontmatter, scoring uses the larger count and the later date of the two.
struct RetrievalOverride {
  std::int64_t retrieval_count = 0;
  std::optional<Date> last_retrieved;
  // Retrievals the per-clone journal holds that are not yet folded into frontmatter (D16):
  // added on top of the larger count, their last date taken when later.
  std::int64_t pending_count = 0;
  std::optional<Date> pending_last_retrieved{};
};
using RetrievalOverrides = std::unordered_map<std::string, RetrievalOverride>;  // by memory id

// What the retrieval journal holds for one memory (D16), by memory id.
struct PendingRetrievals {
  std::int64_t count = 0;
  std::optional<Date> last_retrieved;
};
using PendingRetrievalMap = std::unordered_map<std::string, PendingRetrievals>;

enum class Classification { purge, merge_or_compress, review, healthy };

// The JSON label: `purge`, `merge_or_compress`, `review` or `healthy`.
[[nodiscard]] std::string_view classification_label(Classification classification);

// One active memory's score. Copies what later steps (report, purge ranking) need, so it does
// not borrow from the Memory it came from.
struct Score {
  std::string id;
  std::string topic;
  std::string cluster;   // cluster_key(topic)
  std::string category;  // upper-cased (category_key); empty when the memory has none
  Date created;
  std::int64_t token_count = 0;
  std::int64_t retrieval_count = 0;    // after the D4 override
  std::optional<Date> last_retrieved;  // after the D4 override

  double staleness = 0.0;
  double zero_retrieval = 0.0;
  double size_penalty = 0.0;
  double duplicate = 0.0;
  double composite = 0.0;
  Classification classification = Classification::healthy;
};

// Topics under this prefix are email preferences: never read back by auto-retrieval, so a zero
// retrieval count means nothing, and the purge sub-mode never selects them.
inline constexpr std::string_view k_exempt_topic_prefix = "email/preferences/";

[[nodiscard]] bool is_exempt_topic(std::string_view topic);

// Component 1 (weight 0.3): min(1, days since last retrieval, else creation, / 90), lowered by
// 0.3 (not below 0) for a memory retrieved at least once and older than 60 days. Dates in the
// future count as today, so the result is always in [0, 1].
[[nodiscard]] double staleness_score(Date created, std::optional<Date> last_retrieved,
                                     std::int64_t retrieval_count, Date today);

// Component 2 (weight 0.25): 1 when never retrieved and older than 30 days, else 0; always 0
// for an exempt topic.
[[nodiscard]] double zero_retrieval_penalty(std::string_view topic, Date created,
                                            std::int64_t retrieval_count, Date today);

// Component 3 (weight 0.2): max(0, (tokens - 600) / 600). Unbounded above.
[[nodiscard]] double size_penalty(std::int64_t token_count);

// The weighted sum of the four components, clamped to [0, 1].
[[nodiscard]] double composite_score(double staleness, double zero_retrieval, double size,
                                     double duplicate);

// >= 0.7 purge, >= 0.5 merge_or_compress, >= 0.3 review, else healthy (tolerant comparison).
[[nodiscard]] Classification classify(double composite);

// The first `/` segment of the topic; `uncategorized` when that segment is empty.
[[nodiscard]] std::string cluster_key(std::string_view topic);

// Component 4 (weight 0.25) for every memory in `memories` (parallel result): the largest
// |K ∩ K'| / |K| over the OTHER memories of the list, where K is the memory's set of keyword
// keys (keyword_key, repeats and empty keys dropped). 0 for an empty K or a list of one.
// Callers pass active memories only. Exact, without comparing every pair: the cost grows with
// the pairs that share an uncommon keyword, plus a few lookups per memory for the common ones
// (core/scoring/duplicate.cpp explains how).
//
// Where the vault is large, part of the work runs on a second core; `side_by_side` lets tests
// take each way.
enum class SideBySide : std::uint8_t { when_worth_it, always, never };
[[nodiscard]] std::vector<double> duplicate_scores(
    const std::vector<const Memory*>& memories,
    SideBySide side_by_side = SideBySide::when_worth_it);

// Scores every active memory (tombstoned ones are skipped and never count as "others" for the
// duplicate score). Result sorted by id.
[[nodiscard]] std::vector<Score> score_memories(const std::vector<Memory>& memories, Date today,
                                                const RetrievalOverrides& overrides = {});

}  // namespace gv::scoring
