#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/distill/sub_mode.hpp"
#include "core/distill/telemetry_inputs.hpp"
#include "core/events/archive.hpp"

// What the five telemetry sub-modes share (doc/telemetry.md).
namespace gv::distill {

// The context's telemetry inputs. Throws gv::Error when the command passed none.
[[nodiscard]] const TelemetryInputs& telemetry_of(const SubModeContext& context,
                                                  std::string_view sub_mode);

// The events of the context's store that pass `filter` (an `event_id` seen twice counts once,
// its first line), and this repository's prompts newer than `since_ms`, each with every secret
// withheld from its text (core/distill/withhold.hpp): the only way the sub-modes read them, so
// nothing they print or write holds a secret.
[[nodiscard]] events::EventQuery read_events(const TelemetryInputs& inputs,
                                             const events::EventFilter& filter);
[[nodiscard]] events::HistoryQuery read_history(const TelemetryInputs& inputs,
                                                std::optional<std::int64_t> since_ms);

// `memory_health.last_<cursor>` of the snapshot's specs/state.json, or nullopt.
[[nodiscard]] std::optional<std::string> health_cursor(const SubModeContext& context,
                                                       std::string_view cursor);

// Every archived task of the snapshot (specs/archive/state.json, specs/vault/*/state.json), in
// path order, and every path under specs/ (for the tasks' folders).
struct ArchivedTasks {
  std::vector<events::ArchivedTask> tasks;
  std::vector<std::string> spec_paths;
};
[[nodiscard]] ArchivedTasks read_archived_tasks(const Snapshot& snapshot);

// The notice every run that reads events prints: no OTel outcome records are ever joined.
[[nodiscard]] std::string otel_notice(bool otel_enabled);

}  // namespace gv::distill
