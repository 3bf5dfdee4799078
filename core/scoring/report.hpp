#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/dates.hpp"
#include "core/finding.hpp"
#include "core/memory/memory.hpp"
#include "core/scoring/score.hpp"

// The /distill health report (doc/decisions.md D5) as a value: everything the
// Markdown and JSON renderings show, computed once from the scored vault.
namespace gv::scoring {

enum class HealthStatus { healthy, manageable, concerning, critical };

// `healthy`, `manageable`, `concerning` or `critical` (the state.json vocabulary).
[[nodiscard]] std::string_view health_status_label(HealthStatus status);

// clamp(100 - 3*purge - 5*merge - 2*compress, 0, 100).
[[nodiscard]] int health_score(std::size_t purge_count, std::size_t merge_count,
                               std::size_t compress_count);

// 80-100 healthy, 60-79 manageable, 40-59 concerning, 0-39 critical.
[[nodiscard]] HealthStatus health_status(int score);

inline constexpr std::int64_t k_gc_grace_days = 7;

struct MemoryAtDate {
  std::string id;
  Date created;
};

struct Overview {
  std::size_t total_count = 0;  // active memories
  std::int64_t total_tokens = 0;
  std::int64_t average_tokens = 0;     // rounded to the nearest whole token; 0 for an empty vault
  std::optional<MemoryAtDate> oldest;  // earliest created, ties to the smallest id
  std::optional<MemoryAtDate> newest;  // latest created, ties to the smallest id
};

struct CategoryRow {
  std::string category;  // upper-cased; empty for memories with neither category nor tags
  std::size_t count = 0;
  std::int64_t tokens = 0;
  double average_composite = 0.0;
};

struct ClusterRow {
  std::string cluster;
  std::size_t count = 0;
  double average_staleness = 0.0;
  double average_duplicate = 0.0;
};

struct RetrievalStatistics {
  std::size_t never_retrieved = 0;
  int never_retrieved_percent = 0;  // of active memories, rounded half up; 0 for an empty vault
  std::size_t retrieved_one_to_three = 0;
  std::size_t retrieved_four_or_more = 0;
  // The memory with the highest count (ties to the smallest id); absent when nothing was ever
  // retrieved.
  std::optional<std::string> most_retrieved_id;
  std::int64_t most_retrieved_count = 0;
};

struct Candidate {
  std::string id;
  double composite = 0.0;
  // The score the list's heading names, when it is not the composite: duplicate for merge,
  // size for compress (the Markdown report prints both, labelled).
  std::optional<double> named;
};

// The four report lists (D5), each sorted by id. A memory can be in several.
struct Candidates {
  std::vector<Candidate> purge;     // composite >= 0.7
  std::vector<Candidate> merge;     // duplicate > 0.6
  std::vector<Candidate> compress;  // size_penalty > 0.5
  std::vector<Candidate> review;    // 0.3 <= composite < 0.7
};

struct TombstonedRow {
  std::string id;
  std::optional<Date> tombstoned_at;  // absent only for a malformed memory
  std::string tombstone_reason;
  std::int64_t token_count = 0;
  // max(0, 7 - days since tombstoned_at); 7 when the date is unknown.
  std::int64_t days_until_gc = k_gc_grace_days;
  // Tombstoned at least 7 days ago. A memory without a date is never eligible: its grace period
  // cannot be checked, and gc deletes files.
  bool gc_eligible = false;
};

// What the report recommends, one item per non-empty reason, in a fixed order.
struct RecommendedAction {
  std::string flag;  // `--purge`, `--merge`, `--compress`, `--refine`, `--gc`
  std::size_t count = 0;
  std::string reason;  // e.g. `memories score >= 0.7`
};

// A memory file the vault could not read (no frontmatter, the older layout, a missing field):
// it is in no score, no index and no search.
struct UnreadableRow {
  std::string path;
  std::string id;
  std::optional<int> line;
  std::string message;
  std::string fix;
};

// Whether the signals the scores read are recorded in this repository at all (doc/sub-modes.md,
// "Where the signals come from"). While no retrieval was ever recorded, "never retrieved" says
// nothing about a memory: the report and the purge dry run say so, and the scores stay as they
// are defined.
struct Recording {
  bool retrievals = false;  // a memory carries a retrieval (count, date or journal)
  // The range of the memories' last retrievals: the earliest and the latest date on record.
  std::optional<Date> first_retrieval;
  std::optional<Date> last_retrieval;
  bool events = false;                     // the event store or journal holds an event
  std::optional<std::string> first_event;  // the timestamp of the first one
  std::vector<std::string> recorded_by;    // agents whose hooks record both here
};

// The retrieval half of a Recording, from the scored vault: any memory, active or tombstoned,
// retrieved at least once (after the index carry-over and the journal's counts).
[[nodiscard]] Recording retrieval_recording(const std::vector<Memory>& memories,
                                            const std::vector<Score>& scores);

struct Report {
  Date today;
  std::vector<Score> scores;  // active memories, by id
  Overview overview;
  std::vector<CategoryRow> categories;  // by category
  std::vector<ClusterRow> clusters;     // by cluster
  RetrievalStatistics retrieval;
  Candidates candidates;
  int health_score = 100;
  HealthStatus status = HealthStatus::healthy;
  std::vector<TombstonedRow> tombstoned;  // by id
  std::size_t gc_eligible_count = 0;
  std::vector<RecommendedAction> actions;
  std::vector<UnreadableRow> unreadable;  // by path
  // Set by the command, which reads the journals and the agents' settings; absent, the report
  // says nothing about where its signals come from.
  std::optional<Recording> recording;
};

// Names the memory files that could not be read: one row per file (its first error finding), and
// a status no better than concerning while there is one, since the scores leave those memories
// out.
void add_unreadable(Report& report, const std::vector<Finding>& findings);

// Scores the vault (tombstoned memories skipped, see score_memories) and builds the report.
[[nodiscard]] Report build_report(const std::vector<Memory>& memories, Date today,
                                  const RetrievalOverrides& overrides = {});

// The numbers a distill log entry records as pre_metrics/post_metrics and memory_health keeps
// (D5, D8): files on disk count, tombstoned ones included; candidate counts are the report's.
struct VaultMetrics {
  std::size_t total_memories = 0;
  std::int64_t total_tokens = 0;
  int health_score = 100;
  HealthStatus status = HealthStatus::healthy;
  std::size_t never_retrieved = 0;  // active memories only
  std::size_t purge_candidates = 0;
  std::size_t merge_candidates = 0;
  std::size_t compress_candidates = 0;
};

[[nodiscard]] VaultMetrics vault_metrics(const Report& report);

// The tombstoned-memories table row for one tombstoned memory.
[[nodiscard]] TombstonedRow tombstoned_row(const Memory& memory, Date today);

// The purge TTL of a category (compared upper-cased): CONFIG 180, WORKFLOW 365, PATTERN 540,
// TECHNIQUE 270; INSIGHT and unknown categories have none.
[[nodiscard]] std::optional<std::int64_t> category_ttl_days(std::string_view category);

// The purge rule's staleness bar: a memory staler than this is a candidate (doc/sub-modes.md,
// "purge").
inline constexpr double k_purge_staleness_threshold = 0.8;

struct PurgeCandidate {
  std::string id;
  double composite = 0.0;
  std::string category;  // upper-cased
  Date created;
  std::int64_t retrieval_count = 0;
  std::int64_t token_count = 0;
  bool past_ttl = false;
  std::int64_t ttl_excess_days = 0;  // days past the category TTL; 0 when not past it
  double staleness = 0.0;            // the two components the rule selects by
  double zero_retrieval = 0.0;
};

// The purge sub-mode's own selection (not the report's composite rule): active memories outside
// the exempt email-preferences topics whose zero_retrieval is 1 or whose staleness is above 0.8.
// Ranked: past-TTL first by excess days descending, then composite descending, then id.
[[nodiscard]] std::vector<PurgeCandidate> purge_candidates(const std::vector<Score>& scores,
                                                           Date today);

}  // namespace gv::scoring
