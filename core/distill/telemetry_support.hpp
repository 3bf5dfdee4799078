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
