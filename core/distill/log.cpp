#include "core/distill/log.hpp"

#include <fmt/format.h>

#include "core/distill/withhold.hpp"
#include "core/error.hpp"
#include "core/json/parse.hpp"
#include "core/json/text.hpp"
#include "core/memory/lines.hpp"

namespace gv::distill {
namespace {

using Json = nlohmann::ordered_json;

constexpr std::string_view k_total_operations = "total_operations";

// The registry comes from the caller so that reading a log links no sub-mode.
Json empty_summary(const SubModeRegistry& sub_modes) {
  Json summary = Json::object();
  summary[std::string{k_total_operations}] = 0;
  for (const LogCounter& counter : sub_modes.log_counters()) {
    summary[std::string{counter.counter}] = 0;
  }
  summary["last_operation"] = nullptr;
  return summary;
}

std::optional<std::string> optional_string(const Json& object, const char* key) {
  const auto it = object.find(key);
  if (it == object.end() || !it->is_string()) {
    return std::nullopt;
  }
  return it->get<std::string>();
}

}  // namespace

Json metrics_json(const scoring::VaultMetrics& metrics) {
  return Json{{"total_memories", metrics.total_memories},
              {"total_tokens", metrics.total_tokens},
              {"health_score", metrics.health_score},
              {"purge_candidates", metrics.purge_candidates},
              {"merge_candidates", metrics.merge_candidates},
              {"compress_candidates", metrics.compress_candidates}};
}

DistillLog::DistillLog(const SubModeRegistry& sub_modes)
    : m_doc(Json{{"version", "1.0.0"},
                 {"operations", Json::array()},
                 {"summary", empty_summary(sub_modes)}}) {}

DistillLog DistillLog::parse(std::string_view path, std::string_view text,
                             const SubModeRegistry& sub_modes) {
  DistillLog log(sub_modes);
  auto parsed = json_text::parse<Json>(text);
  if (const auto* failure = std::get_if<json_text::ParseFailure>(&parsed)) {
    throw Error("{}:{}: distill log is not valid JSON ({})", path, failure->line, failure->reason);
  }
  log.m_doc = std::move(std::get<Json>(parsed));
  if (!log.m_doc.is_object() || !log.m_doc.contains("operations") ||
      !log.m_doc["operations"].is_array()) {
    throw Error("{}:1: distill log has no `operations` array", path);
  }
  if (!log.m_doc.contains("summary") || !log.m_doc["summary"].is_object()) {
    log.m_doc["summary"] = empty_summary(sub_modes);
  }
  return log;
}

std::string DistillLog::append(const NewOperation& operation, const SubModeRegistry& sub_modes) {
  Json& operations = m_doc["operations"];
  const std::string base = fmt::format("distill_{}", operation.timestamp.seconds);
  std::string id = base;
  for (int suffix = 2;; ++suffix) {
    const bool taken = std::any_of(operations.begin(), operations.end(), [&](const Json& entry) {
      return entry.is_object() && entry.value("id", std::string{}) == id;
    });
    if (!taken) {
      break;
    }
    id = fmt::format("{}_{}", base, suffix);
  }
  const std::string timestamp = format_instant(operation.timestamp);
  // Stable per run without a random source: the same action replayed gives the same log.
  const std::string session_id =
      fmt::format("sess_{}_{:06x}", operation.timestamp.seconds,
                  std::hash<std::string>{}(operation.parent_commit.value_or("")) & 0xffffff);

  Json entry = Json::object();
  entry["id"] = id;
  entry["timestamp"] = timestamp;
  entry["type"] = operation.type;
  entry["session_id"] = session_id;
  entry["pre_metrics"] = metrics_json(operation.pre);
  entry["post_metrics"] = metrics_json(operation.post);
  entry["affected_memories"] = operation.affected_memories;
  entry["notes"] = operation.notes;
  for (const auto& [key, value] : operation.extra.items()) {
    entry[key] = value;
  }
  // Notes and extras may quote what a telemetry run read from the agent's records (D24).
  withhold_secrets(entry);
  entry["parent_commit"] = operation.parent_commit ? Json(*operation.parent_commit) : Json(nullptr);
  entry["commit"] = nullptr;
  operations.push_back(std::move(entry));

  Json& summary = m_doc["summary"];
  const std::vector<LogCounter> counters = sub_modes.log_counters();
  std::vector<std::string_view> keys{k_total_operations};
  for (const LogCounter& counter : counters) {
    keys.push_back(counter.counter);
  }
  for (std::string_view key : keys) {
    if (!summary.contains(key) || !summary[std::string{key}].is_number_integer()) {
      summary[std::string{key}] = 0;
    }
  }
  summary["total_operations"] = summary["total_operations"].get<std::int64_t>() + 1;
  for (const LogCounter& counter : counters) {
    if (counter.type == operation.type) {
      const std::string key{counter.counter};
      summary[key] = summary[key].get<std::int64_t>() +
                     static_cast<std::int64_t>(operation.affected_memories.size());
    }
  }
  summary["last_operation"] = timestamp;
  return id;
}

void DistillLog::set_commit(std::string_view id, std::string_view commit) {
  for (Json& entry : m_doc["operations"]) {
    if (entry.is_object() && entry.value("id", std::string{}) == id) {
      entry["commit"] = std::string{commit};
    }
  }
}

void DistillLog::forget_read_text(std::string_view id) {
  for (Json& entry : m_doc["operations"]) {
    if (!entry.is_object() || entry.value("id", std::string{}) != id) {
      continue;
    }
    if (entry.value("type", std::string{}) == "dream" && entry.contains("themes") &&
        entry["themes"].is_array()) {
      for (Json& theme : entry["themes"]) {
        if (theme.is_object()) {
          for (const char* key : {"summary", "terms", "samples"}) {
            theme.erase(key);
          }
        }
      }
    }
    withhold_secrets(entry);
  }
}

std::vector<OperationView> DistillLog::operations() const {
  std::vector<OperationView> views;
  for (const Json& entry : m_doc["operations"]) {
    if (!entry.is_object()) {
      continue;
    }
    views.push_back(
        OperationView{entry.value("id", std::string{}), entry.value("type", std::string{}),
                      entry.value("timestamp", std::string{}), optional_string(entry, "commit"),
                      optional_string(entry, "parent_commit"), entry});
  }
  return views;
}

std::string DistillLog::serialize() const {
  return m_doc.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
}

}  // namespace gv::distill
