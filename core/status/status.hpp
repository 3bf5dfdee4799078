#pragma once

#include <cstdint>
#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <string>
#include <vector>

#include "core/finding.hpp"
#include "core/hooks/installer.hpp"
#include "core/scoring/report.hpp"

namespace gv {
class Session;
}

namespace gv::status {

// A vault file that differs between HEAD and the work tree, as `git status --short` letters it.
struct Change {
  char kind = 'M';  // M modified, A new (not in HEAD), D deleted
  std::string path;
};

// An agent's wiring found in the repository: which file says the agent runs git-vault.
struct AgentWiring {
  std::string agent;  // `claude`, `cursor`, `vscode`, `gemini`, `codex`
  std::string file;   // the file that wires it, repo-relative
  std::string what;   // `MCP server`, `hooks`
};

// Where the vault stands, for `git vault status`: in one screen what `distill`,
// `check --worktree`, `hooks status` and the agents' configuration files would each say, read
// from the work tree.
struct VaultStatus {
  bool has_vault = false;  // `.memory/` holds a memory or a generated index file
  std::size_t active = 0;
  std::size_t tombstoned = 0;
  std::size_t gc_eligible = 0;
  std::size_t unreadable = 0;
  std::int64_t tokens = 0;             // of the active memories
  std::size_t pending_retrievals = 0;  // in the journal, not yet folded into frontmatter

  bool has_working_memory = false;
  std::size_t working_files = 0;
  std::size_t entries = 0;
  std::size_t untagged = 0;
  std::size_t malformed = 0;

  int health_score = 100;
  scoring::HealthStatus health = scoring::HealthStatus::healthy;
  std::vector<scoring::RecommendedAction> actions;

  std::vector<Change> changes;  // vault and working-memory files, by path
  bool index_stale = false;     // the work tree's generated files differ from a regeneration
  bool auto_index = true;       // vault.autoIndex

  std::vector<Finding> findings;  // the gate over the work tree, sorted as it sorts them
  std::size_t errors = 0;
  std::size_t warnings = 0;

  hooks::HooksStatus hooks;
  std::vector<AgentWiring> agents;
};

// Reads everything from the session's repository, its work tree and the caches the gate and
// distill keep, so a warm run costs about what `check --worktree` and `distill` cost together.
[[nodiscard]] VaultStatus gather(Session& session);

// The screen: one line per subject, the way `git status` reads, each problem with the command
// that fixes it. `limit` cuts the findings (0: all).
[[nodiscard]] std::string render_text(const VaultStatus& status, std::size_t limit);

// The `--json` document: `{"schema": 1, "memories", "working_memory", "health", "changes",
// "index_stale", "gate", "hooks", "agents"}` (README, "Where the vault stands").
[[nodiscard]] nlohmann::ordered_json render_json(const VaultStatus& status);

}  // namespace gv::status
