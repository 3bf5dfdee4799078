#include "core/agent/wiring.hpp"

#include <fmt/format.h>

#include <map>
#include <nlohmann/json.hpp>

#include "core/agent/hook_config.hpp"
#include "core/agent/mcp_config.hpp"
#include "core/error.hpp"
#include "core/util/file.hpp"
#include "core/util/text.hpp"

namespace gv::agent {
namespace {

namespace fs = std::filesystem;
using Json = nlohmann::ordered_json;

// The skill that tells the agent how to use its memory.
constexpr std::string_view k_skill_path = ".claude/skills/git-vault-memory/SKILL.md";
constexpr std::string_view k_skill =
    "---\n"
    "name: git-vault-memory\n"
    "description: Use this repository's memory vault (git-vault). Look up what earlier "
    "sessions learned before a task, save what you learned after it, and record what went "
    "wrong. Use when starting a task, when stuck on something that may have happened before, "
    "and after solving something worth keeping.\n"
    "---\n"
    "\n"
    "# The repository's memory\n"
    "\n"
    "This repository keeps what earlier sessions learned in `.memory/10-Memories/`, one "
    "Markdown file per memory, managed by git-vault.\n"
    "\n"
    "- **Before a task.** The memories that match your prompt arrive in a `<memory-context>` "
    "block with it, and the session starts with a briefing. To look further: "
    "`git vault search \"<words>\"` (or the MCP tool `search_memories`), then "
    "`git vault show <MEM-id>` (`get_memory`).\n"
    "- **After a task.** Save what is worth knowing next time: "
    "`git vault learn --title \"<title>\" --text \"<what you learned>\"` (or `write_memory`). "
    "It decides whether to create a memory or update one, and commits.\n"
    "- **When a step deviates from the plan or is blocked.** Record it: "
    "`git vault events add --category deviation --type <kind> --checkpoint <where> "
    "--message \"<one line>\"` (`blocker` when you cannot go on). Failed tool calls are recorded "
    "for you. Repeated at one place in three sessions, they flag the memory that led there.\n"
    "- **Never edit by hand** `.memory/memory-index.json`, `.memory/20-Indices/index.md` or "
    "`.memory/10-Memories/README.md`: they are generated (`git vault index`).\n"
    "- **Never put a credential** in a memory or an event: git-vault refuses it.\n";

struct McpTarget {
  std::string_view path;
  std::string_view key;  // empty: Codex's TOML
  Json entry;
};

struct HooksTarget {
  std::string_view path;
  std::vector<HookEntry> entries;
};

struct AgentFiles {
  std::optional<McpTarget> mcp;
  std::optional<HooksTarget> hooks;
  bool skill = false;
  std::vector<std::string> notes;  // what the agent needs beyond these files
};

Json handler(std::string_view command, int timeout) {
  return Json{{"type", "command"}, {"command", std::string(command)}, {"timeout", timeout}};
}

AgentFiles files_of(Agent agent) {
  AgentFiles files;
  const Json plain_server{{"command", "git-vault"}, {"args", {"mcp"}}};
  switch (agent) {
    case Agent::claude: {
      files.mcp = McpTarget{k_mcp_config_path, "mcpServers", claude_mcp_entry()};
      // Claude Code's timeout is in seconds; agent-hook keeps its own, far shorter, cap.
      const Json run = handler(k_agent_hook_command, 10);
      files.hooks = HooksTarget{".claude/settings.json",
                                {{"SessionStart", "startup|resume|clear|compact", run},
                                 {"UserPromptSubmit", std::nullopt, run},
                                 {"PostToolUseFailure", std::nullopt, run},
                                 {"SessionEnd", std::nullopt, run}}};
      files.skill = true;
      break;
    }
    case Agent::cursor:
      files.mcp = McpTarget{".cursor/mcp.json", "mcpServers", plain_server};
      break;
    case Agent::vscode:
      files.mcp = McpTarget{".vscode/mcp.json", "servers",
                            Json{{"type", "stdio"}, {"command", "git-vault"}, {"args", {"mcp"}}}};
      break;
    case Agent::gemini: {
      files.mcp = McpTarget{".gemini/settings.json", "mcpServers", plain_server};
      // Gemini CLI's timeout is in milliseconds.
      Json run = handler(std::string(k_agent_hook_command) + " --agent gemini", 10000);
      run["name"] = "git-vault";
      files.hooks = HooksTarget{".gemini/settings.json",
                                {{"SessionStart", std::nullopt, run},
                                 {"BeforeAgent", std::nullopt, run},
                                 {"AfterTool", std::nullopt, run},
                                 {"SessionEnd", std::nullopt, run}}};
      files.notes.emplace_back(
          "Gemini CLI runs a project's hooks and MCP servers once its folder is trusted");
      break;
    }
    case Agent::codex: {
      files.mcp = McpTarget{".codex/config.toml", "", Json()};
      const Json run = handler(std::string(k_agent_hook_command) + " --agent codex", 10);
      files.hooks = HooksTarget{
          ".codex/hooks.json",
          {{"SessionStart", std::nullopt, run}, {"UserPromptSubmit", std::nullopt, run}}};
      files.notes.emplace_back(
          "Codex reads a project's .codex/ only once the project is trusted, and runs hooks only "
          "with `codex_hooks = true` under [features] in its config");
      break;
    }
  }
  return files;
}

// The files a plan reads and writes, as they stand after the edits planned so far.
class Texts {
 public:
  explicit Texts(fs::path root) : m_root(std::move(root)) {}

  std::optional<std::string> get(std::string_view path) {
    const auto found = m_texts.find(std::string(path));
    if (found != m_texts.end()) {
      return found->second;
    }
    std::optional<std::string> text = util::read_file_if_exists(m_root / path);
    m_texts.emplace(std::string(path), text);
    return text;
  }
  void set(std::string_view path, std::optional<std::string> text, std::string line) {
    m_texts[std::string(path)] = std::move(text);
    auto& lines = m_lines[std::string(path)];
    lines.push_back(std::move(line));
  }
  // One change per edited file, by path.
  void into(WiringPlan& plan) const {
    for (const auto& [path, lines] : m_lines) {
      plan.changes.push_back({path, m_texts.at(path), false, lines});
    }
  }

 private:
  fs::path m_root;
  std::map<std::string, std::optional<std::string>> m_texts;
  std::map<std::string, std::vector<std::string>> m_lines;
};

bool blank(std::string_view text) { return util::trim(text).empty(); }

}  // namespace

std::optional<Agent> agent_named(std::string_view name) {
  for (const Agent agent : k_agents) {
    if (agent_name(agent) == name) {
      return agent;
    }
  }
  return std::nullopt;
}

std::string_view agent_name(Agent agent) {
  switch (agent) {
    case Agent::claude:
      return "claude";
    case Agent::cursor:
      return "cursor";
    case Agent::vscode:
      return "vscode";
    case Agent::gemini:
      return "gemini";
    case Agent::codex:
      return "codex";
  }
  return "claude";
}

WiringPlan plan_install(const fs::path& root, Agent agent) {
  WiringPlan plan;
  const AgentFiles files = files_of(agent);
  Texts texts(root);
  if (files.mcp) {
    const std::optional<std::string> existing = texts.get(files.mcp->path);
    const std::optional<std::string> added =
        files.mcp->key.empty()
            ? add_codex_server(existing)
            : add_mcp_server(files.mcp->path, existing, files.mcp->key, files.mcp->entry);
    if (added) {
      texts.set(files.mcp->path, added,
                fmt::format("{} {}: the git-vault MCP server", existing ? "added to" : "created",
                            files.mcp->path));
    }
  }
  if (files.hooks) {
    const std::optional<std::string> existing = texts.get(files.hooks->path);
    const HookEdit edit = add_hooks(files.hooks->path, existing, files.hooks->entries);
    if (!edit.events.empty()) {
      texts.set(files.hooks->path, edit.text,
                fmt::format("{} {}: hooks {} run `{}`", existing ? "added to" : "created",
                            files.hooks->path, util::join(edit.events, ", "),
                            files.hooks->entries.front().handler.value("command", std::string())));
    }
  }
  texts.into(plan);
  if (files.skill) {
    const std::optional<std::string> skill = util::read_file_if_exists(root / k_skill_path);
    if (!skill) {
      plan.changes.push_back(
          {std::string(k_skill_path),
           std::string(k_skill),
           true,
           {fmt::format("created {}: how the agent uses its memory", k_skill_path)}});
    } else if (*skill != k_skill) {
      plan.notes.push_back(
          fmt::format("{} is not git-vault's (changed by hand?): left as it is", k_skill_path));
    }
  }
  for (const std::string& note : files.notes) {
    plan.notes.push_back(note);
  }
  return plan;
}

WiringPlan plan_uninstall(const fs::path& root) {
  WiringPlan plan;
  Texts texts(root);
  for (const Agent agent : k_agents) {
    const AgentFiles files = files_of(agent);
    if (files.mcp) {
      const std::optional<std::string> existing = texts.get(files.mcp->path);
      if (existing) {
        const McpRemoval removal =
            files.mcp->key.empty()
                ? remove_codex_server(*existing)
                : remove_mcp_server(files.mcp->path, *existing, files.mcp->key, files.mcp->entry);
        if (removal.text) {
          texts.set(files.mcp->path, removal.text,
                    fmt::format("removed the git-vault MCP server from {}", files.mcp->path));
        } else if (removal.changed) {
          plan.notes.push_back(fmt::format(
              "{}: its git-vault MCP server is not as git-vault wrote it: left as it is",
              files.mcp->path));
        }
      }
    }
    if (files.hooks) {
      const std::optional<std::string> existing = texts.get(files.hooks->path);
      if (existing) {
        const HookEdit edit = remove_hooks(files.hooks->path, *existing);
        if (!edit.events.empty()) {
          texts.set(files.hooks->path, edit.text,
                    fmt::format("removed from {}: hooks {}", files.hooks->path,
                                util::join(edit.events, ", ")));
        }
      }
    }
  }
  WiringPlan edited;
  texts.into(edited);
  for (WiringChange& change : edited.changes) {
    // A file that held only git-vault's part is removed whole.
    if (change.bytes && (blank(*change.bytes) || empty_document(*change.bytes))) {
      change.bytes = std::nullopt;
      change.lines.push_back(fmt::format("removed {}: nothing else was in it", change.path));
    }
    plan.changes.push_back(std::move(change));
  }
  const std::optional<std::string> skill = util::read_file_if_exists(root / k_skill_path);
  if (skill && *skill == k_skill) {
    plan.changes.push_back({std::string(k_skill_path),
                            std::nullopt,
                            false,
                            {fmt::format("removed {}", k_skill_path)}});
  } else if (skill) {
    plan.notes.push_back(fmt::format("{} was changed by hand: left as it is", k_skill_path));
  }
  return plan;
}

std::vector<std::string> apply_wiring(const fs::path& root, const WiringPlan& plan) {
  std::vector<std::string> done;
  for (const WiringChange& change : plan.changes) {
    const fs::path file = root / change.path;
    if (change.exclusive) {
      if (!change.bytes || !util::create_file_exclusive(file, *change.bytes)) {
        continue;  // created meanwhile by someone else: theirs
      }
    } else if (change.bytes) {
      std::error_code ignored;
      fs::create_directories(file.parent_path(), ignored);
      util::write_file_atomic(file, *change.bytes);
    } else {
      std::error_code error;
      fs::remove(file, error);
      if (error) {
        throw Error("{}: cannot remove: {}", change.path, error.message());
      }
      // The folders git-vault made for it go too, when nothing else is in them.
      for (fs::path dir = file.parent_path(); dir != root && dir.has_relative_path();
           dir = dir.parent_path()) {
        std::error_code not_empty;
        if (!fs::remove(dir, not_empty) || not_empty) {
          break;
        }
      }
    }
    for (const std::string& line : change.lines) {
      done.push_back(line);
    }
  }
  return done;
}

std::vector<AgentWiring> wiring_status(const fs::path& root) {
  std::vector<AgentWiring> status;
  for (const Agent agent : k_agents) {
    const AgentFiles files = files_of(agent);
    AgentWiring wiring;
    wiring.agent = agent;
    if (files.mcp) {
      const std::optional<std::string> text = util::read_file_if_exists(root / files.mcp->path);
      wiring.mcp = text && (files.mcp->key.empty() ? has_codex_server(*text)
                                                   : has_mcp_server(*text, files.mcp->key));
      if (wiring.mcp) {
        wiring.files.emplace_back(files.mcp->path);
      }
    }
    if (files.hooks) {
      const std::optional<std::string> text = util::read_file_if_exists(root / files.hooks->path);
      if (text) {
        wiring.hooks = hooked_events(*text);
      }
      if (!wiring.hooks.empty() && files.hooks->path != files.mcp->path) {
        wiring.files.emplace_back(files.hooks->path);
      }
    }
    status.push_back(std::move(wiring));
  }
  return status;
}

}  // namespace gv::agent
