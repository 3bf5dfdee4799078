#include "core/agent/agent_hook.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <set>

#include "core/agent/briefing.hpp"
#include "core/agent/journal.hpp"
#include "core/agent/live_vault.hpp"
#include "core/agent/ranked_context.hpp"
#include "core/agent/record_event.hpp"
#include "core/error.hpp"
#include "core/git/repo.hpp"
#include "core/util/locked_append.hpp"
#include "core/util/text.hpp"
#include "core/vault/vault.hpp"

namespace gv::agent {
namespace {

// The briefing's budget, as `git vault context --session` has it by default.
constexpr std::int64_t k_briefing_budget = 600;

// Memory files the vault could not read: said, so that a memory missing from the context is no
// mystery, and left out.
void note_unreadable(const std::vector<std::string>& unreadable, std::vector<std::string>& notes) {
  if (!unreadable.empty()) {
    notes.push_back(fmt::format(
        "{} cannot be read and {} left out; `git vault check --worktree` says what is wrong",
        unreadable.size() == 1 ? unreadable.front()
                               : util::plural(unreadable.size(), "memory file", "memory files"),
        unreadable.size() == 1 ? "is" : "are"));
  }
}

// A memory vault, or a working memory alone (CLAUDE.local.md, memory/registers/,
// memory/archive/), as the Total Recall layout keeps it: `git vault context` answers from
// either, and so does the hook.
bool has_working_memory(const std::filesystem::path& root) {
  std::error_code ec;
  return std::filesystem::is_regular_file(root / "CLAUDE.local.md", ec) ||
         std::filesystem::is_directory(root / "memory" / "registers", ec) ||
         std::filesystem::is_directory(root / "memory" / "archive", ec);
}

void require_vault(const git::Repo& repo) {
  if (!vault_present(repo.workdir()) && !has_working_memory(repo.workdir())) {
    throw Error("no memory vault in {} ({} is missing or empty)", repo.workdir().string(),
                vault_path::k_root);
  }
}

void record_hook_event(const HookPayload& payload, git::Repo& repo, const HookSetting& setting,
                       HookAnswer& answer) {
  const std::optional<HookEvent> event =
      hook_event(payload, repo.workdir(), hook_agent_name(setting.agent));
  if (!event) {
    return;
  }
  EventRequest request;
  request.category = event->category;
  request.event_type = event->event_type;
  request.message = event->message;
  request.checkpoint = event->checkpoint;
  request.detail = event->detail.dump();
  if (!payload.agent_session.empty()) {
    request.agent_session = payload.agent_session;
  }
  EventSetting where;
  where.common_dir = repo.common_dir();
  where.workdir = repo.workdir();
  where.now = setting.clock.now;
  where.millisecond = setting.millisecond;
  where.cwd = payload.cwd.empty() ? repo.workdir().string() : payload.cwd;
  where.agent = std::string(hook_agent_name(setting.agent));
  where.deadline = setting.deadline;
  if (!record_event(request, where)) {
    answer.notes.emplace_back(
        "event not recorded: the event journal stayed locked past the time limit");
  }
}

}  // namespace

std::optional<HookAgent> hook_agent(std::string_view name) {
  if (name == "claude") {
    return HookAgent::claude;
  }
  if (name == "gemini") {
    return HookAgent::gemini;
  }
  if (name == "codex") {
    return HookAgent::codex;
  }
  return std::nullopt;
}

std::string_view hook_agent_name(HookAgent agent) {
  switch (agent) {
    case HookAgent::claude:
      return "claude";
    case HookAgent::gemini:
      return "gemini";
    case HookAgent::codex:
      return "codex";
  }
  return "claude";
}

HookAnswer answer_hook(const HookPayload& payload, git::Repo& repo, ParseCache* cache,
                       const HookSetting& setting) {
  HookAnswer answer;
  switch (payload.kind) {
    case HookKind::session_start: {
      // `git vault context --session`: working memory and the search index's saved counts, so
      // only the few memory files the briefing names are read.
      require_vault(repo);
      LiveVault live(repo, nullptr);
      live.refresh_search([cache] { return cache; });
      note_unreadable(live.index().unreadable_paths(), answer.notes);
      // The journal's not yet folded counts belong to "most used"; should a maintenance commit
      // hold it, the watchdog's cap bounds the wait.
      answer.context = session_briefing(most_used(live.index(), live.snapshot(), live.pending(), 8),
                                        live.snapshot(), setting.clock.today, k_briefing_budget)
                           .text;
      break;
    }
    case HookKind::prompt: {
      if (util::trim(payload.prompt).empty()) {
        answer.notes.emplace_back("the prompt is empty: no context");
        break;
      }
      require_vault(repo);
      LiveVault live(repo, nullptr);
      live.refresh_search([cache] { return cache; });
      note_unreadable(live.index().unreadable_paths(), answer.notes);
      // The same selection and block as `git vault context "<prompt>"`.
      // The journal's counts are mere tie-breaks here: not waited for, so a maintenance commit
      // holding the journal never delays the context.
      const RankedContext context =
          select_ranked_context(live.index(), live.snapshot(), payload.prompt, ContextLimits{}, {});
      if (context.empty()) {
        answer.notes.emplace_back("no memory or working-memory entry is relevant to this prompt");
        break;
      }
      answer.context = render_ranked_context(context);
      for (const ContextMemory& memory : context.memories) {
        answer.retrieved.push_back(memory.id);
      }
      break;
    }
    case HookKind::tool_failure:
    case HookKind::session_end:
      record_hook_event(payload, repo, setting, answer);
      break;
    case HookKind::other:
      break;
  }
  return answer;
}

bool record_hook_retrievals(const git::Repo& repo, const std::vector<std::string>& ids,
                            const HookPayload& payload, const HookSetting& setting) {
  std::vector<RetrievalRecord> records;
  for (const std::string& id : ids) {
    records.push_back({id, setting.clock.today, "hook", payload.agent_session});
  }
  // The journal's own append protocol (one O_APPEND write under its flock), with a deadline: a
  // fold holding the journal costs this record, never the agent's time.
  return util::append_locked(journal_path(repo.common_dir()), format_records(records),
                             "the retrieval journal", setting.deadline);
}

std::string hook_output(HookAgent agent, std::string_view event_name, std::string_view context) {
  if (context.empty()) {
    return {};
  }
  if (agent == HookAgent::claude) {
    return std::string(context);
  }
  const nlohmann::ordered_json answer{
      {"hookSpecificOutput",
       {{"hookEventName", std::string(event_name)}, {"additionalContext", std::string(context)}}}};
  return answer.dump(-1, ' ', false, nlohmann::ordered_json::error_handler_t::replace) + "\n";
}

void export_agent_session(const std::filesystem::path& env_file, std::string_view agent_session) {
  const bool plain =
      !agent_session.empty() && std::all_of(agent_session.begin(), agent_session.end(), [](char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
               c == '-' || c == '_';
      });
  if (!plain) {
    return;
  }
  util::append_locked(env_file, fmt::format("export GIT_VAULT_AGENT_SESSION={}\n", agent_session),
                      "the agent's environment file");
}

}  // namespace gv::agent
