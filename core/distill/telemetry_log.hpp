#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/dates.hpp"

// The logs the telemetry sub-modes keep of their own runs (doc/telemetry.md, "Logs"):
// `.memory/revise-log.json`, `meta-log.json`, `learn-harvest-log.json` and `dream-log.json`.
// Each mirrors the distill log's shape: `version`, `operations[]` and a `summary` of counters.
namespace gv::distill {

inline constexpr std::string_view k_revise_log_path = ".memory/revise-log.json";
inline constexpr std::string_view k_meta_log_path = ".memory/meta-log.json";
inline constexpr std::string_view k_learn_log_path = ".memory/learn-harvest-log.json";
inline constexpr std::string_view k_dream_log_path = ".memory/dream-log.json";

class TelemetryLog {
 public:
  // An empty log with the given summary counters at 0 and `last_operation` null.
  explicit TelemetryLog(const std::vector<std::string>& counters);

  // Reads `text` (nullopt: a new log). Missing counters default to 0; unknown keys are kept.
  // Throws gv::Error `path:line: …` when it is not JSON or has no `operations` array.
  [[nodiscard]] static TelemetryLog parse(std::string_view path,
                                          std::optional<std::string_view> text,
                                          const std::vector<std::string>& counters);

  // Appends `{"id": "<prefix>_<epoch seconds>", "timestamp", "type", ...fields}` (suffixed
  // `_2`, `_3`… when the id is taken), sets `summary.last_operation` and returns the id.
  std::string append(std::string_view prefix, std::string_view type, Instant timestamp,
                     const nlohmann::ordered_json& fields);
  void add(std::string_view counter, std::int64_t amount);

  // Two-space indent and a trailing newline.
  [[nodiscard]] std::string serialize() const;

 private:
  nlohmann::ordered_json m_doc;
};

}  // namespace gv::distill
