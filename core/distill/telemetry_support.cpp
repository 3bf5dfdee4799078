#include "core/distill/telemetry_support.hpp"

#include <set>
#include <string>
#include <unordered_set>
#include <vector>

#include "core/distill/log.hpp"
#include "core/distill/memory_health.hpp"
#include "core/distill/withhold.hpp"
#include "core/error.hpp"
#include "core/snapshot/snapshot.hpp"

namespace gv::distill {

const TelemetryInputs& telemetry_of(const SubModeContext& context, std::string_view sub_mode) {
  if (context.telemetry == nullptr) {
    throw Error("--{} needs the event store and history readers", sub_mode);
  }
  return *context.telemetry;
}

namespace {

// The last run of sub-mode `type` the distill log records and no later revert undid: the
// cursor of a repository without specs/state.json, which git-vault never creates (D8).
std::optional<std::string> cursor_from_log(const Snapshot& snapshot, std::string_view type) {
  const std::optional<std::string> text = snapshot.read(k_log_path);
  if (!text) {
    return std::nullopt;
  }
  std::vector<OperationView> operations;
  try {
    operations = DistillLog::parse(k_log_path, *text).operations();
  } catch (const Error&) {
    return std::nullopt;  // the gate names a log no command can read
  }
  std::set<std::string> reverted;
  for (const OperationView& operation : operations) {
    const auto reverts = operation.raw.find("reverts");
    if (operation.type == "revert" && reverts != operation.raw.end() && reverts->is_string()) {
      reverted.insert(reverts->get<std::string>());
    }
  }
  for (auto it = operations.rbegin(); it != operations.rend(); ++it) {
    if (it->type == type && !reverted.contains(it->id)) {
      return it->timestamp;
    }
  }
  return std::nullopt;
}

}  // namespace

events::EventQuery read_events(const TelemetryInputs& inputs, const events::EventFilter& filter) {
  events::EventQuery query = inputs.read_events(filter);
  // An event appended twice (a retried write, two branches' stores joined) is one event: a
  // repeat must not add a strike. The first line with an id stands.
  std::unordered_set<std::string> seen;
  std::erase_if(query.events,
                [&](const events::Event& event) { return !seen.insert(event.event_id).second; });
  for (events::Event& event : query.events) {
    withhold_secrets(event);
  }
  return query;
}

events::HistoryQuery read_history(const TelemetryInputs& inputs,
                                  std::optional<std::int64_t> since_ms) {
  events::HistoryQuery query = inputs.read_history(since_ms);
  for (events::Prompt& prompt : query.prompts) {
    withhold_secrets(prompt);
  }
  return query;
}

std::optional<std::string> health_cursor(const SubModeContext& context, std::string_view cursor) {
  const std::optional<std::string> state = context.snapshot.read(k_state_path);
  if (!state) {
    return cursor_from_log(context.snapshot, cursor);
  }
  return read_health_cursor(*state, cursor);
}

ArchivedTasks read_archived_tasks(const Snapshot& snapshot) {
  ArchivedTasks out;
  for (const SnapshotEntry& entry : snapshot.list("specs/")) {
    out.spec_paths.push_back(entry.path);
  }
  std::sort(out.spec_paths.begin(), out.spec_paths.end());
  for (const std::string& path : out.spec_paths) {
    if (!events::is_archive_record_path(path)) {
      continue;
    }
    if (const std::optional<std::string> text = snapshot.read(path)) {
      std::vector<events::ArchivedTask> tasks = events::parse_archived_tasks(path, *text);
      out.tasks.insert(out.tasks.end(), std::make_move_iterator(tasks.begin()),
                       std::make_move_iterator(tasks.end()));
    }
  }
  return out;
}

std::string otel_notice(bool otel_enabled) {
  return otel_enabled
             ? "OTel is enabled, but git-vault has no OTel query surface -- outcome evidence "
               "unavailable. Correlation proceeds using events.jsonl alone (Tier 2), with zero "
               "OTel-sourced corroboration this run."
             : "OTel not enabled for this session -- outcome evidence unavailable. Correlation "
               "proceeds using events.jsonl alone (Tier 2), with zero OTel-sourced corroboration "
               "this run.";
}

}  // namespace gv::distill
