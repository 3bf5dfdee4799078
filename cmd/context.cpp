#include "core/agent/context.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <CLI/CLI.hpp>
#include <cstdio>
#include <memory>
#include <nlohmann/json.hpp>
#include <set>

#include "cmd/command.hpp"
#include "core/agent/briefing.hpp"
#include "core/agent/live_vault.hpp"
#include "core/agent/ranked_context.hpp"
#include "core/error.hpp"
#include "core/session/session.hpp"
#include "core/util/json_output.hpp"
#include "core/util/message.hpp"
#include "core/util/text.hpp"

namespace gv::cmd {
namespace context_command {

struct Options {
  std::vector<std::string> task;
  std::string type;
  bool session = false;
  std::int64_t budget = 600;
  bool record = false;
  bool original = false;
};

void record_retrievals(const agent::LiveVault& live, const std::vector<std::string>& ids,
                       const Clock& clock) {
  if (ids.empty()) {
    return;
  }
  // Recording is bookkeeping: when the journal cannot be written, the answer still counts.
  try {
    live.record(ids, clock.today, "context");
  } catch (const Error& e) {
    util::print_warning(fmt::format("retrievals not recorded: {}", e.what()));
  }
}

// The search-ranked block (doc/decisions.md, D19): the search index from its cache file, then
// only the memory files taken are read.
// What could not be read cannot be offered: said, so a missing memory is not a mystery.
void warn_unreadable(const std::vector<std::string>& unreadable) {
  if (unreadable.empty()) {
    return;
  }
  util::print_warning(fmt::format(
      "{} cannot be read and {} left out; `git vault check --worktree` says what is wrong",
      unreadable.size() == 1 ? unreadable.front()
                             : util::plural(unreadable.size(), "memory file", "memory files"),
      unreadable.size() == 1 ? "is" : "are"));
}

int run_ranked(const Options& options, const std::string& task, Session& session) {
  agent::LiveVault live(session.repo(), nullptr);
  live.refresh_search([&session] { return session.parse_cache(); });
  warn_unreadable(live.index().unreadable_paths());
  agent::ContextLimits limits;
  limits.task_type = options.type;
  const agent::RankedContext context = agent::select_ranked_context(
      live.index(), live.snapshot(), task, limits, live.pending_counts());
  const std::string block = agent::render_ranked_context(context);
  if (options.record) {
    std::vector<std::string> ids;
    for (const agent::ContextMemory& memory : context.memories) {
      ids.push_back(memory.id);
    }
    record_retrievals(live, ids, session.clock());
  }
  if (session.output().json) {
    nlohmann::ordered_json out{{"schema", 1},
                               {"terms", context.terms},
                               {"memories", nlohmann::ordered_json::array()},
                               {"entries", nlohmann::ordered_json::array()},
                               {"tokens", context.tokens}};
    for (const agent::ContextMemory& memory : context.memories) {
      out["memories"].push_back(nlohmann::ordered_json{{"id", memory.id},
                                                       {"title", memory.title},
                                                       {"path", memory.path},
                                                       {"relevance", memory.relevance},
                                                       {"tokens", memory.tokens}});
    }
    for (const agent::ContextEntry& entry : context.entries) {
      out["entries"].push_back(
          nlohmann::ordered_json{{"kind", "entry"},
                                 {"id", entry.id.empty() ? nlohmann::ordered_json(nullptr)
                                                         : nlohmann::ordered_json(entry.id)},
                                 {"path", entry.path},
                                 {"line", entry.line},
                                 {"tier", entry.tier},
                                 {"text", entry.text},
                                 {"relevance", entry.relevance},
                                 {"tokens", entry.tokens}});
    }
    out["context"] =
        context.empty() ? nlohmann::ordered_json(nullptr) : nlohmann::ordered_json(block);
    util::print_json(out);
  } else {
    std::fputs(block.c_str(), stdout);
  }
  if (context.empty()) {
    // Nothing on stdout and exit 1, as the original: a caller can skip the block.
    util::print_note(
        fmt::format("no memory or working-memory entry is relevant enough to this task "
                    "(terms: {})",
                    context.terms.empty() ? std::string("none")
                                          : fmt::format("{}", fmt::join(context.terms, ", "))));
    return exit_code::k_no;
  }
  return exit_code::k_ok;
}

// The session briefing, from working memory and the search index's saved retrieval counts:
// like the ranked block, it reads only the few memory files it names.
int run_session(const Options& options, Session& session) {
  agent::LiveVault live(session.repo(), nullptr);
  live.refresh_search([&session] { return session.parse_cache(); });
  warn_unreadable(live.index().unreadable_paths());
  const scoring::PendingRetrievalMap pending = live.pending();
  const agent::SessionBriefing briefing =
      agent::session_briefing(agent::most_used(live.index(), live.snapshot(), pending, 8),
                              live.snapshot(), session.clock().today, options.budget);
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

int run(const Options& options, Session& session) {
  std::string task;
  for (const std::string& word : options.task) {
    task += (task.empty() ? "" : " ") + word;
  }
  if (task.empty() && !options.session) {
    throw UsageError("context needs a task description (or --session)");
  }
  if (options.session) {
    return run_session(options, session);
  }
  if (!options.original) {
    return run_ranked(options, task, session);
  }
  const Clock& clock = session.clock();
  agent::LiveVault live(session.repo(), session.parse_cache());
  live.refresh();
  std::set<std::string> unreadable;
  for (const Finding& finding : live.vault().findings) {
    if (finding.severity == Severity::error) {
      unreadable.insert(finding.path);
    }
  }
  warn_unreadable({unreadable.begin(), unreadable.end()});

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

}  // namespace context_command

Runner define_context(CLI::App& app) {
  using namespace context_command;  // this file's own helpers
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
  app.add_flag("--original", options->original,
               "Select by the original auto-retrieval's keyword overlap instead of the search "
               "ranking (doc/agent.md)");
  app.add_flag("--record", options->record,
               "Count a retrieval of every memory in the block (retrieval journal inside the git "
               "directory; the work tree is not touched)");
  return [options](const Globals& globals) { return run(*options, *globals.session); };
}

}  // namespace gv::cmd
