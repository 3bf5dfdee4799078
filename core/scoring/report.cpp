#include "core/scoring/report.hpp"

#include <algorithm>
#include <array>
#include <map>
#include <utility>

namespace gv::scoring {

namespace {

constexpr double k_merge_duplicate_threshold = 0.6;
constexpr double k_compress_size_threshold = 0.5;

struct CategoryTtl {
  std::string_view category;
  std::int64_t days;
};
constexpr std::array<CategoryTtl, 4> k_category_ttls{{
    {"CONFIG", 180},
    {"WORKFLOW", 365},
    {"PATTERN", 540},
    {"TECHNIQUE", 270},
}};

std::string upper_ascii(std::string_view text) {
  std::string upper(text);
  for (char& c : upper) {
    if (c >= 'a' && c <= 'z') {
      c = static_cast<char>(c - 'a' + 'A');
    }
  }
  return upper;
}

Overview make_overview(const std::vector<Score>& scores) {
  Overview overview;
  overview.total_count = scores.size();
  for (const Score& score : scores) {
    overview.total_tokens += score.token_count;
    // Scores are in id order, so keeping the first of equal dates breaks ties by smallest id.
    if (!overview.oldest || score.created < overview.oldest->created) {
      overview.oldest = MemoryAtDate{score.id, score.created};
    }
    if (!overview.newest || score.created > overview.newest->created) {
      overview.newest = MemoryAtDate{score.id, score.created};
    }
  }
  if (!scores.empty()) {
    const auto count = static_cast<std::int64_t>(scores.size());
    overview.average_tokens = (2 * overview.total_tokens + count) / (2 * count);
  }
  return overview;
}

std::vector<CategoryRow> make_categories(const std::vector<Score>& scores) {
  std::map<std::string, CategoryRow> rows;
  std::map<std::string, double> composite_sums;
  for (const Score& score : scores) {
    CategoryRow& row = rows[score.category];
    row.category = score.category;
    row.count += 1;
    row.tokens += score.token_count;
    composite_sums[score.category] += score.composite;
  }
  std::vector<CategoryRow> result;
  result.reserve(rows.size());
  for (auto& [category, row] : rows) {
    row.average_composite = composite_sums[category] / static_cast<double>(row.count);
    result.push_back(std::move(row));
  }
  return result;
}

std::vector<ClusterRow> make_clusters(const std::vector<Score>& scores) {
  std::map<std::string, ClusterRow> rows;
  for (const Score& score : scores) {
    ClusterRow& row = rows[score.cluster];
    row.cluster = score.cluster;
    row.count += 1;
    // Sums for now; divided below.
    row.average_staleness += score.staleness;
    row.average_duplicate += score.duplicate;
  }
  std::vector<ClusterRow> result;
  result.reserve(rows.size());
  for (auto& [cluster, row] : rows) {
    row.average_staleness /= static_cast<double>(row.count);
    row.average_duplicate /= static_cast<double>(row.count);
    result.push_back(std::move(row));
  }
  return result;
}

RetrievalStatistics make_retrieval(const std::vector<Score>& scores) {
  RetrievalStatistics stats;
  for (const Score& score : scores) {
    if (score.retrieval_count <= 0) {
      stats.never_retrieved += 1;
    } else if (score.retrieval_count <= 3) {
      stats.retrieved_one_to_three += 1;
    } else {
      stats.retrieved_four_or_more += 1;
    }
    if (score.retrieval_count > stats.most_retrieved_count) {
      stats.most_retrieved_count = score.retrieval_count;
      stats.most_retrieved_id = score.id;
    }
  }
  if (!scores.empty()) {
    const auto total = scores.size();
    stats.never_retrieved_percent =
        static_cast<int>((200 * stats.never_retrieved + total) / (2 * total));
  }
  return stats;
}

Candidates make_candidates(const std::vector<Score>& scores) {
  Candidates candidates;
  for (const Score& score : scores) {
    const Candidate candidate{score.id, score.composite, std::nullopt};
    if (at_least(score.composite, k_purge_threshold)) {
      candidates.purge.push_back(candidate);
    } else if (at_least(score.composite, k_review_threshold)) {
      candidates.review.push_back(candidate);
    }
    if (above(score.duplicate, k_merge_duplicate_threshold)) {
      candidates.merge.push_back({score.id, score.composite, score.duplicate});
    }
    if (above(score.size_penalty, k_compress_size_threshold)) {
      candidates.compress.push_back({score.id, score.composite, score.size_penalty});
    }
  }
  return candidates;
}

// The memories whose keywords are 60% or more another's of their cluster: the merge action
// pairs within a cluster by that overlap (core/distill/merge.cpp), so a list here is empty
// exactly when its dry run finds no pair.
std::vector<std::string> merge_action_ids(const std::vector<Memory>& memories,
                                          const std::vector<Score>& scores) {
  std::map<std::string, std::vector<const Memory*>> clusters;
  for (const Memory& memory : memories) {
    if (memory.active()) {
      clusters[cluster_key(memory.topic)].push_back(&memory);
    }
  }
  std::vector<std::string> ids;
  if (clusters.size() == 1) {
    // One cluster: the scores' duplicate already compares within it.
    for (const Score& score : scores) {
      if (at_least(score.duplicate, k_merge_duplicate_threshold)) {
        ids.push_back(score.id);
      }
    }
    return ids;
  }
  for (const auto& [cluster, members] : clusters) {
    const std::vector<double> duplicate = duplicate_scores(members);
    for (std::size_t i = 0; i < members.size(); ++i) {
      if (at_least(duplicate[i], k_merge_duplicate_threshold)) {
        ids.push_back(members[i]->id);
      }
    }
  }
  std::sort(ids.begin(), ids.end());
  return ids;
}

// What each action's dry run would act on, with the action's own rule as the reason, so the
// report never recommends an action that finds nothing, nor leaves out one that would act.
std::vector<RecommendedAction> make_actions(const std::vector<Memory>& memories,
                                            const std::vector<Score>& scores, Date today,
                                            const Candidates& candidates,
                                            const std::vector<TombstonedRow>& tombstoned) {
  std::vector<RecommendedAction> actions;
  const auto add = [&actions](std::string flag, std::string reason, std::vector<std::string> ids) {
    if (!ids.empty()) {
      std::sort(ids.begin(), ids.end());
      const std::size_t count = ids.size();
      actions.push_back(
          RecommendedAction{std::move(flag), count, std::move(reason), std::move(ids)});
    }
  };
  std::vector<std::string> purge;
  for (const PurgeCandidate& candidate : purge_candidates(scores, today)) {
    purge.push_back(candidate.id);
  }
  add("--purge", "never retrieved, or staleness > 0.8", std::move(purge));
  add("--merge", "60% or more of their keywords shared with another of their topic",
      merge_action_ids(memories, scores));
  std::vector<std::string> compress;
  for (const Candidate& candidate : candidates.compress) {
    compress.push_back(candidate.id);
  }
  add("--compress", "size > 0.5", std::move(compress));
  std::vector<std::string> gc;
  for (const TombstonedRow& row : tombstoned) {
    if (row.gc_eligible) {
      gc.push_back(row.id);
    }
  }
  add("--gc", "tombstoned past the 7-day grace period", std::move(gc));
  return actions;
}

}  // namespace

std::string_view health_status_label(HealthStatus status) {
  switch (status) {
    case HealthStatus::healthy:
      return "healthy";
    case HealthStatus::manageable:
      return "manageable";
    case HealthStatus::concerning:
      return "concerning";
    case HealthStatus::critical:
      return "critical";
  }
  return "critical";
}

int health_score(std::size_t purge_count, std::size_t merge_count, std::size_t compress_count) {
  // Counts can exceed what fits the formula in int; saturate before subtracting.
  const std::size_t penalty = purge_count * 3 + merge_count * 5 + compress_count * 2;
  if (penalty >= 100) {
    return 0;
  }
  return 100 - static_cast<int>(penalty);
}

void add_unreadable(Report& report, const std::vector<Finding>& findings) {
  for (const Finding& finding : findings) {
    if (finding.severity != Severity::error ||
        (!report.unreadable.empty() && report.unreadable.back().path == finding.path)) {
      continue;
    }
    report.unreadable.push_back(
        {finding.path, finding.id, finding.line, finding.message, finding.fix});
  }
  std::sort(report.unreadable.begin(), report.unreadable.end(),
            [](const UnreadableRow& a, const UnreadableRow& b) { return a.path < b.path; });
  if (!report.unreadable.empty() && report.status < HealthStatus::concerning) {
    report.status = HealthStatus::concerning;
  }
}

HealthStatus health_status(int score) {
  if (score >= 80) {
    return HealthStatus::healthy;
  }
  if (score >= 60) {
    return HealthStatus::manageable;
  }
  if (score >= 40) {
    return HealthStatus::concerning;
  }
  return HealthStatus::critical;
}

TombstonedRow tombstoned_row(const Memory& memory, Date today) {
  TombstonedRow row;
  row.id = memory.id;
  row.tombstoned_at = memory.tombstoned_at;
  row.tombstone_reason = memory.tombstone_reason;
  row.token_count = memory.token_count;
  if (memory.tombstoned_at) {
    const std::int64_t days = days_between(today, *memory.tombstoned_at);
    row.days_until_gc = std::max<std::int64_t>(0, k_gc_grace_days - days);
    row.gc_eligible = days >= k_gc_grace_days;
  }
  return row;
}

Report build_report(const std::vector<Memory>& memories, Date today,
                    const RetrievalOverrides& overrides) {
  Report report;
  report.today = today;
  report.scores = score_memories(memories, today, overrides);
  report.overview = make_overview(report.scores);
  report.categories = make_categories(report.scores);
  report.clusters = make_clusters(report.scores);
  report.retrieval = make_retrieval(report.scores);
  report.candidates = make_candidates(report.scores);
  report.health_score = health_score(report.candidates.purge.size(), report.candidates.merge.size(),
                                     report.candidates.compress.size());
  report.status = health_status(report.health_score);

  for (const Memory& memory : memories) {
    if (memory.tombstoned) {
      report.tombstoned.push_back(tombstoned_row(memory, today));
      if (report.tombstoned.back().gc_eligible) {
        report.gc_eligible_count += 1;
      }
    }
  }
  std::sort(report.tombstoned.begin(), report.tombstoned.end(),
            [](const TombstonedRow& a, const TombstonedRow& b) { return a.id < b.id; });

  report.actions =
      make_actions(memories, report.scores, today, report.candidates, report.tombstoned);
  return report;
}

Recording retrieval_recording(const std::vector<Memory>& memories,
                              const std::vector<Score>& scores) {
  Recording recording;
  const auto seen = [&](std::int64_t count, const std::optional<Date>& last) {
    if (count > 0 || last) {
      recording.retrievals = true;
    }
    if (last && (!recording.first_retrieval || *last < *recording.first_retrieval)) {
      recording.first_retrieval = last;
    }
    if (last && (!recording.last_retrieval || *recording.last_retrieval < *last)) {
      recording.last_retrieval = last;
    }
  };
  for (const Score& score : scores) {
    seen(score.retrieval_count, score.last_retrieved);
  }
  for (const Memory& memory : memories) {
    if (memory.tombstoned) {
      seen(memory.retrieval_count, memory.last_retrieved);
    }
  }
  return recording;
}

VaultMetrics vault_metrics(const Report& report) {
  VaultMetrics metrics;
  metrics.total_memories = report.scores.size() + report.tombstoned.size();
  metrics.total_tokens = report.overview.total_tokens;
  for (const TombstonedRow& row : report.tombstoned) {
    metrics.total_tokens += row.token_count;
  }
  metrics.health_score = report.health_score;
  metrics.status = report.status;
  metrics.never_retrieved = report.retrieval.never_retrieved;
  metrics.purge_candidates = report.candidates.purge.size();
  metrics.merge_candidates = report.candidates.merge.size();
  metrics.compress_candidates = report.candidates.compress.size();
  return metrics;
}

std::optional<std::int64_t> category_ttl_days(std::string_view category) {
  const std::string key = upper_ascii(category);
  for (const CategoryTtl& ttl : k_category_ttls) {
    if (ttl.category == key) {
      return ttl.days;
    }
  }
  return std::nullopt;
}

std::vector<PurgeCandidate> purge_candidates(const std::vector<Score>& scores, Date today) {
  std::vector<PurgeCandidate> candidates;
  for (const Score& score : scores) {
    // The exemption gates the whole rule, so high staleness alone never selects one either.
    if (is_exempt_topic(score.topic)) {
      continue;
    }
    if (!(score.zero_retrieval == 1.0 || above(score.staleness, k_purge_staleness_threshold))) {
      continue;
    }
    PurgeCandidate candidate;
    candidate.id = score.id;
    candidate.composite = score.composite;
    candidate.category = score.category;
    candidate.created = score.created;
    candidate.retrieval_count = score.retrieval_count;
    candidate.token_count = score.token_count;
    candidate.staleness = score.staleness;
    candidate.zero_retrieval = score.zero_retrieval;
    if (const auto ttl = category_ttl_days(score.category)) {
      const std::int64_t age = days_between(today, score.created);
      if (age > *ttl) {
        candidate.past_ttl = true;
        candidate.ttl_excess_days = age - *ttl;
      }
    }
    candidates.push_back(std::move(candidate));
  }
  // Exact comparisons here: a sort needs a strict weak order, which a tolerance would break.
  std::sort(candidates.begin(), candidates.end(),
            [](const PurgeCandidate& a, const PurgeCandidate& b) {
              if (a.past_ttl != b.past_ttl) {
                return a.past_ttl;
              }
              if (a.ttl_excess_days != b.ttl_excess_days) {
                return a.ttl_excess_days > b.ttl_excess_days;
              }
              if (a.composite != b.composite) {
                return a.composite > b.composite;
              }
              return a.id < b.id;
            });
  return candidates;
}

}  // namespace gv::scoring
