#include "core/agent/context.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <CLI/CLI.hpp>
#include <cstdio>
#include <memory>
#include <nlohmann/json.hpp>
#include <set>

#include "cmd/command.hpp"
#include "core/agent/live_vault.hpp"
#include "core/error.hpp"
#include "core/session/session.hpp"
#include "core/util/json_output.hpp"
#include "core/util/message.hpp"
#include "core/util/text.hpp"

namespace gv::cmd {
namespace {

struct Options {
  std::vector<std::string> task;
  std::string type;
  bool session = false;
  std::int64_t budget = 600;
  bool record = false;
};

int run(const Options& options, Session& session) {
  std::string task;
  for (const std::string& word : options.task) {
    task += (task.empty() ? "" : " ") + word;
  }
  if (task.empty() && !options.session) {
    throw UsageError("context needs a task description (or --session)");
  }
  const Clock& clock = session.clock();
  agent::LiveVault live(session.repo(), session.parse_cache());
  live.refresh();
  // What could not be read cannot be offered: said, so a missing memory is not a mystery.
  std::set<std::string> unreadable;
  for (const Finding& finding : live.vault().findings) {
    if (finding.severity == Severity::error) {
      unreadable.insert(finding.path);
    }
  }
  if (!unreadable.empty()) {
    util::print_warning(fmt::format(
        "{} cannot be read and {} left out; `git vault check --worktree` says what is wrong",
        unreadable.size() == 1 ? *unreadable.begin()
                               : util::plural(unreadable.size(), "memory file", "memory files"),
        unreadable.size() == 1 ? "is" : "are"));
  }

  if (options.session) {
    const agent::SessionBriefing briefing = agent::session_briefing(
        live.vault().memories, live.snapshot(), clock.today, live.pending(), options.budget);
    if (session.output().json) {
      util::print_json(nlohmann::ordered_json{{"schema", 1},
                                              {"memories", briefing.memories},
                                              {"tokens", briefing.tokens},
                                              {"text", briefing.text}});
    } else {
      std::fputs(briefing.text.c_str(), stdout);
    }
    return exit_code::k_ok;
  }

  const agent::ContextSelection selection =
      agent::select_context(live.vault().memories, task, options.type);
  const std::string block = agent::render_context_block(
      selection, [&](const Memory& memory) { return live.snapshot().read(memory.path); });
  if (options.record && !selection.picked.empty()) {
    std::vector<std::string> ids;
    for (const agent::ContextPick& pick : selection.picked) {
      ids.push_back(pick.memory->id);
    }
    try {
      live.record(ids, clock.today, "context");
    } catch (const Error& e) {
      util::print_warning(fmt::format("retrievals not recorded: {}", e.what()));
    }
  }
  if (session.output().json) {
    nlohmann::ordered_json out{{"schema", 1},
                               {"keywords", selection.keywords},
                               {"memories", nlohmann::ordered_json::array()},
                               {"tokens", selection.tokens}};
    for (const agent::ContextPick& pick : selection.picked) {
      out["memories"].push_back(nlohmann::ordered_json{{"id", pick.memory->id},
                                                       {"title", pick.memory->title},
                                                       {"relevance", pick.score},
                                                       {"tokens", pick.memory->token_count}});
    }
    out["context"] =
        selection.picked.empty() ? nlohmann::ordered_json(nullptr) : nlohmann::ordered_json(block);
    util::print_json(out);
  } else if (!selection.picked.empty()) {
    std::fputs(block.c_str(), stdout);
  }
  if (selection.picked.empty()) {
    // The original exits 1 with nothing on stdout, so a caller can skip the block.
    std::fputs(fmt::format("git-vault: no memory matches this task (keywords: {})\n",
                           selection.keywords.empty()
                               ? std::string("none")
                               : fmt::format("{}", fmt::join(selection.keywords, ", ")))
                   .c_str(),
               stderr);
    return exit_code::k_no;
  }
  return exit_code::k_ok;
}

}  // namespace

Runner define_context(CLI::App& app) {
  auto options = std::make_shared<Options>();
  app.add_option("task", options->task, "What the task is about");
  app.add_option("--type", options->type,
                 "Task type: a topic (+2 when equal) or a category (+1), as the original "
                 "auto-retrieval scores it");
  app.add_flag("--session", options->session,
               "Print a session-start briefing: active context, open loops, most-used memories");
  app.add_option("--budget", options->budget, "Token budget of the --session briefing")
      ->capture_default_str()
      ->check(CLI::Range(std::int64_t{50}, std::int64_t{100000}));
  app.add_flag("--record", options->record,
               "Count a retrieval of every memory in the block (retrieval journal inside the git "
               "directory; the work tree is not touched)");
  return [options](const Globals& globals) { return run(*options, *globals.session); };
}

}  // namespace gv::cmd
