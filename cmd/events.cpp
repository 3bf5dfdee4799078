#include <fmt/format.h>
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <iterator>
#include <memory>

#include "cmd/command.hpp"
#include "core/agent/record_event.hpp"
#include "core/error.hpp"
#include "core/events/event_store.hpp"
#include "core/events/output.hpp"
#include "core/git/repo.hpp"
#include "core/session/session.hpp"
#include "core/util/json_output.hpp"
#include "core/util/message.hpp"

namespace gv::cmd {
namespace events_command {

struct Options {
  events::EventFilter filter;
  std::string format = "jsonl";
  agent::EventRequest add;  // `events add`
  bool from_stdin = false;
};

int run(const Options& options, Session& session) {
  const std::optional<events::OutputFormat> format = events::parse_output_format(options.format);
  if (!format) {
    throw UsageError("invalid --format '{}' (must be one of: jsonl|json-array|summary-counts)",
                     options.format);
  }
  const git::Repo& repo = session.repo();
  events::EventPrinter printer(*format, session.output().json, [](std::string_view text) {
    std::fwrite(text.data(), 1, text.size(), stdout);
  });
  std::size_t reported = 0;
  const events::ScanStats stats = events::scan_store(
      events::store_files(repo.workdir(), repo.common_dir()),
      [&](const events::Event& event) {
        if (options.filter.matches(event)) {
          printer.row(event);
        }
      },
      [&](const events::InvalidLine& invalid) {
        if (++reported <= events::k_max_reported_invalid) {
          util::print_warning(
              fmt::format("{}:{}: {}; line skipped", invalid.file, invalid.line, invalid.reason));
        }
      });
  printer.finish(stats.exists, stats.invalid);
  if (stats.invalid > events::k_max_reported_invalid) {
    util::print_warning(fmt::format("{} more invalid lines skipped",
                                    stats.invalid - events::k_max_reported_invalid));
  }
  return exit_code::k_ok;
}

int run_add(const Options& options, Session& session) {
  const git::Repo& repo = session.repo();
  agent::EventRequest request = options.add;
  if (options.from_stdin) {
    if (::isatty(STDIN_FILENO) != 0) {
      throw UsageError(
          "--stdin reads one JSON object (an event or a hook payload); none was piped");
    }
    request.input = std::string(std::istreambuf_iterator<char>(std::cin), {});
  }
  agent::EventSetting setting;
  setting.common_dir = repo.common_dir();
  setting.workdir = repo.workdir();
  setting.now = session.clock().now;
  setting.millisecond = std::chrono::duration_cast<std::chrono::milliseconds>(
                            std::chrono::system_clock::now().time_since_epoch())
                            .count() %
                        1000;
  std::error_code error;
  setting.cwd = std::filesystem::current_path(error).string();
  if (const char* joined = std::getenv("GIT_VAULT_AGENT_SESSION"); joined != nullptr) {
    setting.agent_session = joined;
  }
  const std::optional<nlohmann::ordered_json> event = agent::record_event(request, setting);
  if (session.output().json) {
    util::print_json(nlohmann::ordered_json{{"schema", 1}, {"event", *event}});
  } else if (!session.output().quiet) {
    std::fputs(fmt::format("{}\n", (*event)["event_id"].get<std::string>()).c_str(), stdout);
  }
  return exit_code::k_ok;
}

}  // namespace events_command

Runner define_events(CLI::App& app) {
  using namespace events_command;  // this file's own helpers
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
  app.footer(
      "Reads specs/events.jsonl line by line, then this clone's event journal (what `events add` "
      "wrote since the last maintenance commit); invalid lines are reported and skipped.");
  app.require_subcommand(0, 1);

  CLI::App* add = app.add_subcommand(
      "add", "Append one event (flags, or a JSON event or agent hook payload on stdin)");
  agent::EventRequest& request = options->add;
  add->add_option("--category", request.category, "deviation, blocker, milestone or success");
  add->add_option("--type", request.event_type, "The event_type (deviation, tool_failure, …)");
  add->add_option("--message", request.message, "One-line summary");
  add->add_option("--task", request.task, "The task number");
  add->add_option("--checkpoint", request.checkpoint, "Where in the task (phase_2, GATE_OUT, …)");
  add->add_option("--session", request.session,
                  "The session_id (sess_<digits>_<letters>); default: the agent session's, or a "
                  "new one");
  add->add_option("--agent-session", request.agent_session,
                  "The agent's own session id (cc_session_id); default: GIT_VAULT_AGENT_SESSION");
  add->add_option("--detail", request.detail, "A JSON object with more about it");
  add->add_option("--duration", request.duration_seconds, "duration_seconds (>= 0)")
      ->check(CLI::NonNegativeNumber);
  add->add_option("--error-ref", request.error_ref, "An id in specs/errors.json");
  add->add_option("--cwd", request.cwd, "The directory it happened in (default: this one)");
  add->add_flag("--stdin", options->from_stdin,
                "Read one JSON object on stdin: an event, or an agent's hook payload (its "
                "session and directory; a tool failure or session end gives the whole event)");
  add->footer(
      "Appends to this clone's event journal in the git directory: never a tracked file, so it "
      "never blocks a maintenance action; the next maintenance commit folds it into "
      "specs/events.jsonl.");
  return [options, add](const Globals& globals) {
    return add->parsed() ? run_add(*options, *globals.session) : run(*options, *globals.session);
  };
}

}  // namespace gv::cmd
