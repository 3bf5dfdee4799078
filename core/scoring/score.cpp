#include "core/scoring/score.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>

#include "core/util/trace.hpp"

namespace gv::scoring {

namespace {

constexpr double k_staleness_weight = 0.3;
constexpr double k_zero_retrieval_weight = 0.25;
constexpr double k_size_weight = 0.2;
constexpr double k_duplicate_weight = 0.25;

constexpr double k_stale_days = 90.0;
constexpr std::int64_t k_fsrs_min_age_days = 60;
constexpr double k_fsrs_reduction = 0.3;
constexpr std::int64_t k_zero_retrieval_grace_days = 30;
constexpr double k_size_free_tokens = 600.0;

constexpr double k_merge_or_compress_threshold = 0.5;

// Dates after today (clock skew, hand edits) count as today rather than making a score negative.
std::int64_t days_since(Date today, Date earlier) {
  return std::max<std::int64_t>(0, days_between(today, earlier));
}

}  // namespace

std::string_view classification_label(Classification classification) {
  switch (classification) {
    case Classification::purge:
      return "purge";
    case Classification::merge_or_compress:
      return "merge_or_compress";
    case Classification::review:
      return "review";
    case Classification::healthy:
      return "healthy";
  }
  return "healthy";
}

bool is_exempt_topic(std::string_view topic) { return topic.starts_with(k_exempt_topic_prefix); }

double staleness_score(Date created, std::optional<Date> last_retrieved,
                       std::int64_t retrieval_count, Date today) {
  const std::int64_t days_since_last = days_since(today, last_retrieved.value_or(created));
  double staleness = std::min(1.0, static_cast<double>(days_since_last) / k_stale_days);
  // The FSRS adjustment: an old memory that has proven useful is not stale just for its age.
  if (retrieval_count > 0 && days_since(today, created) > k_fsrs_min_age_days) {
    staleness = std::max(0.0, staleness - k_fsrs_reduction);
  }
  return staleness;
}

double zero_retrieval_penalty(std::string_view topic, Date created, std::int64_t retrieval_count,
                              Date today) {
  if (is_exempt_topic(topic)) {
    return 0.0;
  }
  if (retrieval_count == 0 && days_since(today, created) > k_zero_retrieval_grace_days) {
    return 1.0;
  }
  return 0.0;
}

double size_penalty(std::int64_t token_count) {
  return std::max(0.0,
                  (static_cast<double>(token_count) - k_size_free_tokens) / k_size_free_tokens);
}

double composite_score(double staleness, double zero_retrieval, double size, double duplicate) {
  const double sum = staleness * k_staleness_weight + zero_retrieval * k_zero_retrieval_weight +
                     size * k_size_weight + duplicate * k_duplicate_weight;
  return std::clamp(sum, 0.0, 1.0);
}

Classification classify(double composite) {
  if (at_least(composite, k_purge_threshold)) {
    return Classification::purge;
  }
  if (at_least(composite, k_merge_or_compress_threshold)) {
    return Classification::merge_or_compress;
  }
  if (at_least(composite, k_review_threshold)) {
    return Classification::review;
  }
  return Classification::healthy;
}

std::string cluster_key(std::string_view topic) {
  const std::string_view first = topic.substr(0, topic.find('/'));
  if (first.empty()) {
    return "uncategorized";
  }
  return std::string(first);
}

std::vector<Score> score_memories(const std::vector<Memory>& memories, Date today,
                                  const RetrievalOverrides& overrides) {
  std::vector<const Memory*> active;
  active.reserve(memories.size());
  for (const Memory& memory : memories) {
    if (memory.active()) {
      active.push_back(&memory);
    }
  }
  // Vaults are listed by path and a memory's file is named after its id, so the order is almost
  // always right already: checking it is one pass in memory order, while sorting jumps between
  // memories for every comparison.
  const auto by_id = [](const Memory* a, const Memory* b) { return a->id < b->id; };
  if (!std::is_sorted(active.begin(), active.end(), by_id)) {
    std::sort(active.begin(), active.end(), by_id);
  }

  std::vector<double> duplicates;
  {
    const util::TracedRegion traced(fmt::format("duplicate scoring of {} memories", active.size()));
    duplicates = duplicate_scores(active);
  }

  std::vector<Score> scores;
  scores.reserve(active.size());
  for (std::size_t i = 0; i < active.size(); ++i) {
    const Memory& memory = *active[i];
    Score score;
    score.id = memory.id;
    score.topic = memory.topic;
    score.cluster = cluster_key(memory.topic);
    score.category = category_key(memory);
    score.created = memory.created;
    score.token_count = memory.token_count;
    score.retrieval_count = memory.retrieval_count;
    score.last_retrieved = memory.last_retrieved;
    if (const auto found = overrides.find(memory.id); found != overrides.end()) {
      const RetrievalOverride& from_index = found->second;
      score.retrieval_count = std::max(score.retrieval_count, from_index.retrieval_count);
      if (from_index.last_retrieved &&
          (!score.last_retrieved || *score.last_retrieved < *from_index.last_retrieved)) {
        score.last_retrieved = from_index.last_retrieved;
      }
      score.retrieval_count += from_index.pending_count;
      if (from_index.pending_last_retrieved &&
          (!score.last_retrieved || *score.last_retrieved < *from_index.pending_last_retrieved)) {
        score.last_retrieved = from_index.pending_last_retrieved;
      }
    }

    score.staleness =
        staleness_score(score.created, score.last_retrieved, score.retrieval_count, today);
    score.zero_retrieval =
        zero_retrieval_penalty(score.topic, score.created, score.retrieval_count, today);
    score.size_penalty = size_penalty(score.token_count);
    score.duplicate = duplicates[i];
    score.composite =
        composite_score(score.staleness, score.zero_retrieval, score.size_penalty, score.duplicate);
    score.classification = classify(score.composite);
    scores.push_back(std::move(score));
  }
  return scores;
}

}  // namespace gv::scoring
