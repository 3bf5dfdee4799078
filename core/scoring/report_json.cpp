#include "core/scoring/report_json.hpp"

#include <nlohmann/json.hpp>

namespace gv::scoring {

namespace {

nlohmann::json candidate_ids(const std::vector<Candidate>& candidates) {
  nlohmann::json ids = nlohmann::json::array();
  for (const Candidate& candidate : candidates) {
    ids.push_back(candidate.id);
  }
  return ids;
}

}  // namespace

nlohmann::json report_json(const Report& report) {
  nlohmann::json memories = nlohmann::json::array();
  for (const Score& score : report.scores) {
    memories.push_back(nlohmann::json{
        {"id", score.id},
        {"cluster", score.cluster},
        {"category", score.category},
        {"token_count", score.token_count},
        {"staleness", score.staleness},
        {"zero_retrieval", score.zero_retrieval},
        {"size_penalty", score.size_penalty},
        {"duplicate", score.duplicate},
        {"composite", score.composite},
        {"classification", std::string(classification_label(score.classification))},
    });
  }

  nlohmann::json tombstoned = nlohmann::json::array();
  for (const TombstonedRow& row : report.tombstoned) {
    tombstoned.push_back(nlohmann::json{
        {"id", row.id},
        {"tombstoned_at",
         row.tombstoned_at ? nlohmann::json(format_date(*row.tombstoned_at)) : nlohmann::json()},
        {"tombstone_reason", row.tombstone_reason},
        {"days_until_gc", row.days_until_gc},
    });
  }

  nlohmann::json unreadable = nlohmann::json::array();
  for (const UnreadableRow& row : report.unreadable) {
    unreadable.push_back(nlohmann::json{
        {"path", row.path},
        {"id", row.id},
        {"line", row.line ? nlohmann::json(*row.line) : nlohmann::json()},
        {"message", row.message},
        {"fix", row.fix},
    });
  }

  nlohmann::json document = {
      {"schema", 1},
      {"today", format_date(report.today)},
      {"health_score", report.health_score},
      {"status", std::string(health_status_label(report.status))},
      {"memories", std::move(memories)},
      {"candidates",
       {
           {"purge", candidate_ids(report.candidates.purge)},
           {"merge", candidate_ids(report.candidates.merge)},
           {"compress", candidate_ids(report.candidates.compress)},
           {"review", candidate_ids(report.candidates.review)},
       }},
      {"tombstoned", std::move(tombstoned)},
      {"unreadable", std::move(unreadable)},
  };
  if (report.recording) {
    const Recording& recording = *report.recording;
    document["recording"] = {
        {"retrievals", recording.retrievals},
        {"first_retrieval", recording.first_retrieval
                                ? nlohmann::json(format_date(*recording.first_retrieval))
                                : nlohmann::json()},
        {"last_retrieval", recording.last_retrieval
                               ? nlohmann::json(format_date(*recording.last_retrieval))
                               : nlohmann::json()},
        {"never_retrieved_is_evidence", recording.retrievals},
        {"events", recording.events},
        {"first_event",
         recording.first_event ? nlohmann::json(*recording.first_event) : nlohmann::json()},
        {"recorded_by", recording.recorded_by},
    };
  }
  return document;
}

}  // namespace gv::scoring
