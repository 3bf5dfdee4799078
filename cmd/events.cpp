#include <fmt/format.h>

#include <CLI/CLI.hpp>
#include <cstdio>
#include <memory>

#include "cmd/command.hpp"
#include "core/error.hpp"
#include "core/events/event_store.hpp"
#include "core/events/output.hpp"
#include "core/git/repo.hpp"
#include "core/session/session.hpp"
#include "core/util/message.hpp"

namespace gv::cmd {
namespace {

struct Options {
  events::EventFilter filter;
  std::string format = "jsonl";
};

int run(const Options& options, Session& session) {
  const std::optional<events::OutputFormat> format = events::parse_output_format(options.format);
  if (!format) {
    throw UsageError("invalid --format '{}' (must be one of: jsonl|json-array|summary-counts)",
                     options.format);
  }
  const std::filesystem::path file = session.repo().workdir() / std::string(events::k_events_path);
  events::EventPrinter printer(*format, session.output().json, [](std::string_view text) {
    std::fwrite(text.data(), 1, text.size(), stdout);
  });
  std::size_t reported = 0;
  const events::ScanStats stats = events::scan_event_file(
      file,
      [&](const events::Event& event) {
        if (options.filter.matches(event)) {
          printer.row(event);
        }
      },
      [&](const events::InvalidLine& invalid) {
        if (++reported <= events::k_max_reported_invalid) {
          util::print_warning(fmt::format("{}:{}: {}; line skipped", events::k_events_path,
                                          invalid.line, invalid.reason));
        }
      });
  printer.finish(stats.exists, stats.invalid);
  if (stats.invalid > events::k_max_reported_invalid) {
    util::print_warning(fmt::format("{}: {} more invalid lines skipped", events::k_events_path,
                                    stats.invalid - events::k_max_reported_invalid));
  }
  return exit_code::k_ok;
}

}  // namespace

Runner define_events(CLI::App& app) {
  auto options = std::make_shared<Options>();
  events::EventFilter& filter = options->filter;
  app.add_option("--session", filter.session, "Only events of this session_id");
  app.add_option("--task", filter.task, "Only events of this task number");
  app.add_option("--category", filter.category,
                 "Only this category (deviation, blocker, milestone, success)");
  app.add_option("--event-type", filter.event_type, "Only this event_type");
  app.add_option("--checkpoint", filter.checkpoint, "Only this checkpoint");
  app.add_option("--since", filter.since, "Only events at or after this ISO-8601 timestamp");
  app.add_option("--until", filter.until, "Only events at or before this ISO-8601 timestamp");
  app.add_option("--repo", filter.repo,
                 "Only events whose cwd ends in this directory name (the store holds one "
                 "repository's events, so this filters within it)");
  app.add_option("--format", options->format, "jsonl, json-array or summary-counts")
      ->capture_default_str();
  app.footer("Reads specs/events.jsonl line by line; invalid lines are reported and skipped.");
  return [options](const Globals& globals) { return run(*options, *globals.session); };
}

}  // namespace gv::cmd
