#include "core/review/review.hpp"

#include <fmt/format.h>

#include "core/distill/log.hpp"

namespace gv::review {
namespace {

std::optional<int> metric(const nlohmann::ordered_json& entry, const char* side) {
  const auto metrics = entry.find(side);
  if (metrics == entry.end() || !metrics->is_object()) {
    return std::nullopt;
  }
  const auto score = metrics->find("health_score");
  if (score == metrics->end() || !score->is_number()) {
    return std::nullopt;
  }
  return score->get<int>();
}

std::vector<std::string> split_ids(std::string_view text) {
  std::vector<std::string> out;
  std::size_t start = 0;
  while (start <= text.size()) {
    std::size_t end = text.find(',', start);
    if (end == std::string_view::npos) {
      end = text.size();
    }
    std::string_view id = text.substr(start, end - start);
    while (!id.empty() && (id.front() == ' ' || id.front() == '\t')) {
      id.remove_prefix(1);
    }
    while (!id.empty() && (id.back() == ' ' || id.back() == '\t')) {
      id.remove_suffix(1);
    }
    if (!id.empty()) {
      out.emplace_back(id);
    }
    start = end + 1;
  }
  return out;
}

void count_part(std::vector<std::string>& parts, std::size_t n, std::string_view what) {
  if (n > 0) {
    parts.push_back(fmt::format("{} {}", n, what));
  }
}

}  // namespace

HealthSide health_side(const scoring::Report& report, std::size_t tombstoned) {
  HealthSide side;
  side.health_score = report.health_score;
  side.status = std::string(scoring::health_status_label(report.status));
  side.active = report.overview.total_count;
  side.tombstoned = tombstoned;
  side.tokens = report.overview.total_tokens;
  side.purge_candidates = report.candidates.purge.size();
  side.merge_candidates = report.candidates.merge.size();
  side.compress_candidates = report.candidates.compress.size();
  side.review_candidates = report.candidates.review.size();
  return side;
}

std::vector<MaintenanceCommit> maintenance_commits(const std::vector<git::CommitInfo>& commits,
                                                   const std::vector<distill::OperationView>& log) {
  std::vector<MaintenanceCommit> out;
  for (const git::CommitInfo& info : commits) {
    const std::optional<std::string> action = find_trailer(info.trailers, k_trailer_action);
    if (!action) {
      continue;
    }
    MaintenanceCommit commit;
    commit.commit = info.id;
    commit.summary = info.summary;
    commit.action = *action;
    commit.log_id = find_trailer(info.trailers, k_trailer_log_id).value_or("");
    commit.memories = split_ids(find_trailer(info.trailers, k_trailer_memories).value_or(""));
    if (!commit.log_id.empty()) {
      for (const distill::OperationView& operation : log) {
        if (operation.id == commit.log_id) {
          const auto notes = operation.raw.find("notes");
          commit.log = LogEntrySummary{
              operation.type,
              notes != operation.raw.end() && notes->is_string() ? notes->get<std::string>() : "",
              metric(operation.raw, "pre_metrics"), metric(operation.raw, "post_metrics")};
          break;
        }
      }
    }
    out.push_back(std::move(commit));
  }
  return out;
}

std::string summary_line(const Review& review) {
  const MemoryDiff& m = review.memories;
  std::vector<std::string> parts;
  if (!m.added.empty()) {
    parts.push_back(
        fmt::format("+{} {}", m.added.size(), m.added.size() == 1 ? "memory" : "memories"));
  }
  count_part(parts, m.changed.size(), "changed");
  count_part(parts, m.tombstoned.size(), "tombstoned");
  count_part(parts, m.merged.size(), "merged");
  count_part(parts, m.compressed.size(), "compressed");
  count_part(parts, m.deleted.size(), "deleted");
  count_part(parts, m.renamed.size(), "renamed");
  count_part(parts, m.restored.size(), "restored");
  if (!m.retrieval.empty()) {
    parts.push_back(fmt::format("{} retrieval {} updated", m.retrieval.size(),
                                m.retrieval.size() == 1 ? "count" : "counts"));
  }
  const WorkingDiff& w = review.working;
  const std::size_t entries = w.added.size() + w.removed.size() + w.edited.size() + w.moved.size();
  if (entries > 0) {
    parts.push_back(
        fmt::format("{} working-memory {}", entries, entries == 1 ? "entry" : "entries"));
  }
  std::string line = parts.empty() ? std::string("no vault changes") : parts.front();
  for (std::size_t i = 1; i < parts.size(); ++i) {
    line += ", " + parts[i];
  }
  line += fmt::format("; health {} → {}", review.before.health_score, review.after.health_score);
  if (!review.gate.empty()) {
    std::size_t errors = 0;
    for (const Finding& finding : review.gate) {
      errors += finding.severity == Severity::error ? 1 : 0;
    }
    line += errors > 0
                ? fmt::format("; gate fails ({} {})", errors, errors == 1 ? "error" : "errors")
                : fmt::format("; gate passes with {} {}", review.gate.size(),
                              review.gate.size() == 1 ? "warning" : "warnings");
  }
  return line;
}

}  // namespace gv::review
