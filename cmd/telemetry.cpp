#include "cmd/telemetry.hpp"

#include <fmt/format.h>

#include <cstdlib>
#include <memory>

#include "core/agent/learn.hpp"
#include "core/distill/memory_write.hpp"
#include "core/error.hpp"
#include "core/events/event_store.hpp"
#include "core/events/history.hpp"
#include "core/snapshot/snapshot.hpp"
#include "core/util/message.hpp"

namespace gv::cmd {
namespace telemetry_command {

std::optional<std::string> environment(const char* name) {
  const char* value = std::getenv(name);
  return value == nullptr ? std::nullopt : std::optional<std::string>(value);
}

void report_invalid(std::string_view file, const std::vector<events::InvalidLine>& invalid,
                    std::size_t count) {
  for (const events::InvalidLine& line : invalid) {
    util::print_warning(fmt::format("{}:{}: {}; line skipped", line.file.empty() ? file : line.file,
                                    line.line, line.reason));
  }
  if (count > invalid.size()) {
    util::print_warning(
        fmt::format("{}: {} more invalid lines skipped", file, count - invalid.size()));
  }
}

}  // namespace telemetry_command

distill::TelemetryInputs telemetry_inputs(const git::Repo& repo,
                                          const std::optional<std::string>& history) {
  using namespace telemetry_command;  // this file's own helpers
  distill::TelemetryInputs inputs;
  std::string root = repo.workdir().string();
  while (root.size() > 1 && root.back() == '/') {
    root.pop_back();
  }
  inputs.repo_root = root;
  // The committed store and this clone's event journal, read as one (doc/decisions.md, D20).
  const events::StoreFiles events_files = events::store_files(repo.workdir(), repo.common_dir());
  // A sub-mode may read a source twice (its candidates, then its execution): warn once.
  auto warned_events = std::make_shared<bool>(false);
  inputs.read_events = [events_files, warned_events](const events::EventFilter& filter) {
    events::EventQuery query = events::query_store(events_files, filter);
    if (!*warned_events) {
      report_invalid(events::k_events_path, query.invalid, query.stats.invalid);
      *warned_events = true;
    }
    return query;
  };
  const std::optional<std::filesystem::path> history_file =
      events::history_location(history, repo.config_string("vault.history"), environment("HOME"));
  inputs.history_path =
      history_file ? history_file->string() : std::string("$HOME/.claude/history.jsonl");
  // A file named on the command line that is not there is a mistake, not an empty history.
  if (history && !history->empty() && history_file) {
    std::error_code error;
    const bool there = std::filesystem::exists(*history_file, error);
    if (error) {
      throw Error("--history {}: {}", history_file->string(), error.message());
    }
    if (!there) {
      throw UsageError("--history {}: no such file", history_file->string());
    }
  }
  auto warned_history = std::make_shared<bool>(false);
  inputs.read_history = [history_file, root, warned_history](std::optional<std::int64_t> since_ms) {
    if (!history_file) {
      return events::HistoryQuery{};
    }
    events::HistoryQuery query = events::read_history(*history_file, root, since_ms);
    if (!*warned_history) {
      report_invalid(history_file->string(), query.invalid, query.invalid_count);
      *warned_history = true;
    }
    return query;
  };
  inputs.terms = agent::learn_term_scoring();
  inputs.write_memory = [terms = inputs.terms](const Snapshot& before,
                                               const distill::MemoryWrite& write, Date today) {
    return distill::write_memory(before, write, today, terms);
  };
  inputs.otel_enabled = environment("CLAUDE_CODE_ENABLE_TELEMETRY").value_or("") == "1";
  return inputs;
}

}  // namespace gv::cmd
