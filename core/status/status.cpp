#include "core/status/status.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <nlohmann/json.hpp>
#include <string_view>

#include "core/agent/journal.hpp"
#include "core/agent/mcp_config.hpp"
#include "core/distill/vault_state.hpp"
#include "core/gate/cached_gate.hpp"
#include "core/gate/gate.hpp"
#include "core/git/repo.hpp"
#include "core/hooks/auto_index.hpp"
#include "core/hooks/diff_driver.hpp"
#include "core/hooks/skip.hpp"
#include "core/recall/scan.hpp"
#include "core/recall/summary.hpp"
#include "core/session/session.hpp"
#include "core/snapshot/worktree_snapshot.hpp"
#include "core/util/file.hpp"
#include "core/util/text.hpp"
#include "core/vault/vault.hpp"

namespace gv::status {
namespace {

// The agents' configuration files that can wire git-vault in, and what each one wires.
struct AgentFile {
  std::string_view agent;
  std::string_view file;
  std::string_view what;
  std::string_view needle;  // a file that holds it runs git-vault
};

constexpr AgentFile k_agent_files[] = {
    {"claude", ".mcp.json", "MCP server", "git-vault"},
    {"claude", ".claude/settings.json", "hooks", "agent-hook"},
    {"cursor", ".cursor/mcp.json", "MCP server", "git-vault"},
    {"cursor", ".cursor/hooks.json", "hooks", "agent-hook"},
    {"vscode", ".vscode/mcp.json", "MCP server", "git-vault"},
    {"gemini", ".gemini/settings.json", "MCP server", "git-vault"},
    {"codex", ".codex/config.toml", "MCP server", "git-vault"},
};

void count_memories(VaultStatus& status, const distill::VaultState& state) {
  for (const Memory& memory : state.vault.memories) {
    if (memory.tombstoned) {
      ++status.tombstoned;
    } else {
      ++status.active;
      status.tokens += memory.token_count;
    }
  }
  std::string last;
  for (const Finding& finding : state.vault.findings) {
    if (finding.severity == Severity::error && finding.path != last) {
      ++status.unreadable;
      last = finding.path;
    }
  }
  status.gc_eligible = state.report.gc_eligible_count;
  status.health_score = state.report.health_score;
  status.health = state.report.status;
  status.actions = state.report.actions;
}

void count_working_memory(VaultStatus& status, const Snapshot& work_tree) {
  const recall::WorkingSummary summary = recall::summarize(recall::scan_managed_files(work_tree));
  status.working_files = summary.files;
  status.entries = summary.entries;
  status.untagged = summary.untagged;
  status.malformed = summary.malformed;
  status.has_working_memory = summary.files > 0;
}

// Vault and working-memory files whose work tree bytes are not HEAD's: from the stat cache's
// blob ids and HEAD's trees, no file read twice.
void find_changes(VaultStatus& status, const git::Repo& repo, const Snapshot& work_tree) {
  std::map<std::string, std::string> now;
  std::map<std::string, std::string> head;
  const std::optional<std::string> head_tree = repo.head_tree();
  for (const std::string_view prefix :
       {std::string_view(vault_path::k_root), std::string_view("memory/"),
        std::string_view("CLAUDE.local.md"), std::string_view(vault_path::k_state)}) {
    for (SnapshotEntry& entry : work_tree.list(prefix)) {
      now.emplace(std::move(entry.path), std::move(entry.oid));
    }
    if (head_tree) {
      for (SnapshotEntry& entry : repo.tree_entries(*head_tree, prefix)) {
        head.emplace(std::move(entry.path), std::move(entry.oid));
      }
    }
  }
  for (const auto& [path, oid] : now) {
    const auto at = head.find(path);
    if (at == head.end()) {
      // Ignored files (CLAUDE.local.md, once init put it in .gitignore) are not for a commit;
      // asked only of new files, so a large vault costs no lookups.
      if (!repo.is_ignored(path) || repo.index_blob_id(path)) {
        status.changes.push_back({'A', path});
      }
    } else if (at->second != oid) {
      status.changes.push_back({'M', path});
    }
  }
  for (const auto& [path, oid] : head) {
    if (!now.contains(path)) {
      status.changes.push_back({'D', path});
    }
  }
  std::sort(status.changes.begin(), status.changes.end(),
            [](const Change& a, const Change& b) { return a.path < b.path; });
}

void find_agents(VaultStatus& status, const git::Repo& repo) {
  for (const AgentFile& file : k_agent_files) {
    const std::optional<std::string> bytes =
        util::read_file_if_exists(repo.workdir() / std::string(file.file));
    if (bytes && bytes->find(file.needle) != std::string::npos) {
      status.agents.push_back(
          {std::string(file.agent), std::string(file.file), std::string(file.what)});
    }
  }
}

std::string_view hook_word(hooks::HookState state) {
  return hooks::is_running(state) ? "installed" : hooks::to_string(state);
}

}  // namespace

VaultStatus gather(Session& session) {
  VaultStatus status;
  git::Repo& repo = session.repo();
  const WorktreeSnapshot work_tree(repo.workdir());
  const std::vector<SnapshotEntry> vault_files = work_tree.list(vault_path::k_root);
  status.has_vault = std::any_of(vault_files.begin(), vault_files.end(), [](const auto& entry) {
    return is_memory_path(entry.path) || entry.path == vault_path::k_index_json;
  });
  if (status.has_vault) {
    const agent::JournalTotals pending =
        agent::read_journal(agent::journal_path(repo.common_dir()));
    status.pending_retrievals = pending.records;
    const distill::VaultState state = distill::read_vault_state(
        work_tree, session.clock().today, session.parse_cache(), pending.by_id);
    count_memories(status, state);
  }
  count_working_memory(status, work_tree);
  find_changes(status, repo, work_tree);
  status.auto_index = hooks::auto_index_enabled(repo);

  const hooks::SkipSpec skip = hooks::skip_from_environment(&repo);
  status.findings = run_cached_gate(work_tree, gate_cache_file(repo), skip.gate_options());
  for (const Finding& finding : status.findings) {
    status.errors += finding.severity == Severity::error ? 1 : 0;
    status.warnings += finding.severity == Severity::warning ? 1 : 0;
    status.index_stale = status.index_stale || finding.check == "stale-index";
  }
  status.hooks = hooks::hooks_status(repo);
  find_agents(status, repo);
  return status;
}

std::string render_text(const VaultStatus& status, std::size_t limit) {
  std::string out;
  if (!status.has_vault && !status.has_working_memory) {
    out += "No vault here: no memory under .memory/10-Memories/ and no working memory.\n";
    out += "  (git vault init sets one up; git vault init --recall adds a working memory)\n";
  }
  if (status.has_vault) {
    out += fmt::format("Memories: {} active, {} tombstoned{}, {} tokens\n", status.active,
                       status.tombstoned,
                       status.gc_eligible == 0
                           ? std::string()
                           : fmt::format(" ({} past the 7-day grace period)", status.gc_eligible),
                       status.tokens);
    if (status.unreadable > 0) {
      out += fmt::format("  {} cannot be read (left out of the index and the report)\n",
                         util::plural(status.unreadable, "memory file", "memory files"));
    }
    if (status.pending_retrievals > 0) {
      out += fmt::format(
          "  {} recorded, not yet in frontmatter (the next maintenance commit folds them)\n",
          util::plural(status.pending_retrievals, "retrieval", "retrievals"));
    }
    out += fmt::format("Health: {}/100, {}\n", status.health_score,
                       scoring::health_status_label(status.health));
    for (const scoring::RecommendedAction& action : status.actions) {
      out += fmt::format("  git vault distill {} --dry-run   ({}: {})\n", action.flag, action.count,
                         action.reason);
    }
  }
  if (status.has_working_memory) {
    out += fmt::format("Working memory: {} in {}", util::plural(status.entries, "entry", "entries"),
                       util::plural(status.working_files, "file", "files"));
    if (status.untagged + status.malformed > 0) {
      out += fmt::format(", {} without a valid id", status.untagged + status.malformed);
    }
    out += "\n";
  }
  if (!status.changes.empty()) {
    out += "Not committed:\n";
    for (const Change& change : status.changes) {
      out += fmt::format("  {} {}\n", change.kind, change.path);
    }
  }
  if (status.index_stale) {
    // The commit hook regenerates them when nothing else blocks the commit (D21).
    const bool others =
        std::any_of(status.findings.begin(), status.findings.end(), [](const Finding& finding) {
          return finding.severity == Severity::error && finding.check != "stale-index";
        });
    const bool hook = status.auto_index && hooks::is_running(status.hooks.hooks.front().state);
    out += !hook    ? "Index files: stale in the work tree (git vault index && git add :/.memory)\n"
           : others ? "Index files: stale in the work tree; the commit that fixes the errors "
                      "below regenerates them\n"
                    : "Index files: stale in the work tree; the next commit regenerates them "
                      "(or: git vault index)\n";
  }
  if (status.errors == 0) {
    out += status.warnings == 0 ? "Gate: the work tree passes\n"
                                : fmt::format("Gate: the work tree passes, with {}\n",
                                              util::plural(status.warnings, "warning", "warnings"));
  } else {
    out += fmt::format("Gate: a commit of the work tree would be blocked: {}, {}\n",
                       util::plural(status.errors, "error", "errors"),
                       util::plural(status.warnings, "warning", "warnings"));
  }
  std::size_t shown = 0;
  for (const Finding& finding : status.findings) {
    if (finding.severity != Severity::error || finding.check == "stale-index") {
      continue;
    }
    if (limit != 0 && shown == limit) {
      out += "  ...\n";
      break;
    }
    ++shown;
    out += fmt::format("  {}{}: {} [{}]\n", finding.path,
                       finding.line ? fmt::format(":{}", *finding.line) : std::string(),
                       finding.message, finding.check);
  }
  if (status.errors + status.warnings > 0) {
    out += "  (git vault check --worktree lists each with its fix)\n";
  }
  std::string hooks_line;
  bool hooks_ok = true;
  for (const hooks::HookStatusLine& line : status.hooks.hooks) {
    hooks_line +=
        fmt::format("{}{} {}", hooks_line.empty() ? "" : ", ", line.name, hook_word(line.state));
    hooks_ok = hooks_ok && hooks::is_running(line.state);
  }
  out += fmt::format("Hooks: {}; merge drivers {}; rendered diff {}\n", hooks_line,
                     status.hooks.merge_drivers_configured ? "configured" : "not configured",
                     status.hooks.diff_driver == hooks::DiffDriverState::rendered ? "on" : "off");
  if (!hooks_ok || !status.hooks.merge_drivers_configured) {
    out += "  (git vault hooks status says what is missing; git vault hooks install fixes it)\n";
  }
  if (status.agents.empty()) {
    out +=
        "Agents: none wired to git-vault (git vault init --agent claude gives Claude Code the "
        "context on each prompt, records its events and registers the MCP server)\n";
  } else {
    std::string agents;
    for (const AgentWiring& wiring : status.agents) {
      agents += fmt::format("{}{} {} ({})", agents.empty() ? "" : ", ", wiring.agent, wiring.what,
                            wiring.file);
    }
    out += fmt::format("Agents: {}\n", agents);
  }
  return out;
}

nlohmann::ordered_json render_json(const VaultStatus& status) {
  nlohmann::ordered_json doc;
  doc["schema"] = 1;
  doc["memories"] = {
      {"active", status.active},           {"tombstoned", status.tombstoned},
      {"gc_eligible", status.gc_eligible}, {"unreadable", status.unreadable},
      {"tokens", status.tokens},           {"pending_retrievals", status.pending_retrievals}};
  doc["working_memory"] = {{"files", status.working_files},
                           {"entries", status.entries},
                           {"without_id", status.untagged + status.malformed}};
  nlohmann::ordered_json actions = nlohmann::ordered_json::array();
  for (const scoring::RecommendedAction& action : status.actions) {
    actions.push_back({{"flag", action.flag},
                       {"count", action.count},
                       {"reason", action.reason},
                       {"ids", action.ids}});
  }
  doc["health"] = {{"score", status.health_score},
                   {"status", scoring::health_status_label(status.health)},
                   {"actions", actions}};
  nlohmann::ordered_json changes = nlohmann::ordered_json::array();
  for (const Change& change : status.changes) {
    changes.push_back({{"status", std::string(1, change.kind)}, {"path", change.path}});
  }
  doc["changes"] = changes;
  doc["index_stale"] = status.index_stale;
  doc["gate"] = {
      {"ok", status.errors == 0}, {"errors", status.errors}, {"warnings", status.warnings}};
  nlohmann::ordered_json hook_list = nlohmann::ordered_json::array();
  for (const hooks::HookStatusLine& line : status.hooks.hooks) {
    hook_list.push_back({{"name", line.name},
                         {"state", hooks::to_string(line.state)},
                         {"running", hooks::is_running(line.state)}});
  }
  doc["hooks"] = {{"hooks", hook_list},
                  {"merge_drivers", status.hooks.merge_drivers_configured},
                  {"gitattributes", status.hooks.gitattributes_complete},
                  {"rendered_diff", status.hooks.diff_driver == hooks::DiffDriverState::rendered},
                  {"auto_index", status.auto_index}};
  nlohmann::ordered_json agents = nlohmann::ordered_json::array();
  for (const AgentWiring& wiring : status.agents) {
    agents.push_back({{"agent", wiring.agent}, {"file", wiring.file}, {"what", wiring.what}});
  }
  doc["agents"] = agents;
  return doc;
}

}  // namespace gv::status
