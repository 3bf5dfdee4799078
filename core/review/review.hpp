#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "core/finding.hpp"
#include "core/git/repo.hpp"
#include "core/review/memory_diff.hpp"
#include "core/review/working_diff.hpp"
#include "core/scoring/report.hpp"

namespace gv::distill {
struct OperationView;
}

// `git vault review`: what a range of commits does to the vault, as one value that the
// Markdown and JSON renderings both show.
namespace gv::review {

// The vault's health at one end of the range (both scored with the same "today", so the
// difference is the branch's doing, not the calendar's).
struct HealthSide {
  int health_score = 100;
  std::string status;  // healthy, manageable, concerning, critical
  std::size_t active = 0;
  std::size_t tombstoned = 0;
  std::int64_t tokens = 0;  // active memories
  std::size_t purge_candidates = 0;
  std::size_t merge_candidates = 0;
  std::size_t compress_candidates = 0;
  std::size_t review_candidates = 0;
};

[[nodiscard]] HealthSide health_side(const scoring::Report& report, std::size_t tombstoned);

// The distill-log entry a maintenance commit points at through `Vault-Log-Id`.
struct LogEntrySummary {
  std::string type;
  std::string notes;
  std::optional<int> health_before;  // pre_metrics.health_score
  std::optional<int> health_after;   // post_metrics.health_score
};

// A commit of the range carrying a `Vault-Action` trailer.
struct MaintenanceCommit {
  std::string commit;  // 40 hex
  std::string summary;
  std::string action;
  std::string log_id;                  // empty when the trailer is absent
  std::vector<std::string> memories;   // Vault-Memories, split on commas
  std::optional<LogEntrySummary> log;  // absent when HEAD's log has no such entry
};

// The maintenance commits among `commits` (in the order given, oldest first), each joined with
// its log entry from `log` (HEAD's distill log; may be empty).
[[nodiscard]] std::vector<MaintenanceCommit> maintenance_commits(
    const std::vector<git::CommitInfo>& commits, const std::vector<distill::OperationView>& log);

struct Review {
  std::string base;  // 40 hex
  std::string head;  // 40 hex
  std::size_t commit_count = 0;
  MemoryDiff memories;
  WorkingDiff working;
  HealthSide before;
  HealthSide after;
  std::vector<MaintenanceCommit> maintenance;
  std::vector<Finding> gate;  // the gate's findings at HEAD
  // The files the range changes (memories, and working-memory files with an entry that moved):
  // a warning elsewhere was there before the branch, and is counted rather than listed.
  std::set<std::string> changed_paths;
};

// One line, e.g. `+3 memories, 2 tombstoned, 1 merged; health 64 → 81`.
[[nodiscard]] std::string summary_line(const Review& review);

}  // namespace gv::review
