#include "core/distill/telemetry_log.hpp"

#include <fmt/format.h>

#include "core/distill/withhold.hpp"
#include "core/error.hpp"
#include "core/memory/lines.hpp"

namespace gv::distill {
namespace {

using Json = nlohmann::ordered_json;

}  // namespace

TelemetryLog::TelemetryLog(const std::vector<std::string>& counters)
    : m_doc{{"version", "1.0.0"}, {"operations", Json::array()}, {"summary", Json::object()}} {
  for (const std::string& counter : counters) {
    m_doc["summary"][counter] = 0;
  }
  m_doc["summary"]["last_operation"] = nullptr;
}

TelemetryLog TelemetryLog::parse(std::string_view path, std::optional<std::string_view> text,
                                 const std::vector<std::string>& counters) {
  TelemetryLog log(counters);
  if (!text) {
    return log;
  }
  Json doc;
  try {
    doc = Json::parse(*text);
  } catch (const nlohmann::json::parse_error& e) {
    throw Error("{}:{}: not valid JSON ({})", path,
                line_of_offset(*text, e.byte > 0 ? e.byte - 1 : 0), e.what());
  }
  if (!doc.is_object() || !doc.contains("operations") || !doc["operations"].is_array()) {
    throw Error("{}:1: not a log (no `operations` array)", path);
  }
  if (!doc.contains("summary") || !doc["summary"].is_object()) {
    doc["summary"] = Json::object();
  }
  for (const std::string& counter : counters) {
    if (!doc["summary"].contains(counter) || !doc["summary"][counter].is_number_integer()) {
      doc["summary"][counter] = 0;
    }
  }
  if (!doc["summary"].contains("last_operation")) {
    doc["summary"]["last_operation"] = nullptr;
  }
  log.m_doc = std::move(doc);
  return log;
}

std::string TelemetryLog::append(std::string_view prefix, std::string_view type, Instant timestamp,
                                 const Json& fields) {
  const std::string base = fmt::format("{}_{}", prefix, timestamp.seconds);
  std::string id = base;
  for (int n = 2;; ++n) {
    bool taken = false;
    for (const Json& operation : m_doc["operations"]) {
      taken = taken || (operation.is_object() && operation.value("id", "") == id);
    }
    if (!taken) {
      break;
    }
    id = fmt::format("{}_{}", base, n);
  }
  Json operation{{"id", id}, {"timestamp", format_instant(timestamp)}, {"type", type}};
  for (const auto& [key, value] : fields.items()) {
    operation[key] = value;
  }
  withhold_secrets(operation);  // what a run read from the agent's records (D24)
  m_doc["operations"].push_back(std::move(operation));
  m_doc["summary"]["last_operation"] = format_instant(timestamp);
  return id;
}

void TelemetryLog::add(std::string_view counter, std::int64_t amount) {
  Json& value = m_doc["summary"][std::string(counter)];
  value = (value.is_number_integer() ? value.get<std::int64_t>() : 0) + amount;
}

std::string TelemetryLog::serialize() const {
  return m_doc.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
}

}  // namespace gv::distill
