#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

// `git vault init --agent NAME` and `--no-agent` (doc/agent.md, "Wiring an agent"): the files
// that connect an agent to the vault (its MCP configuration, its hooks, a skill), merged into
// what is there, and taken out again exactly. wiring_status() is the one place that says whether
// an agent is wired, for any command that reports it.
namespace gv::agent {

enum class Agent { claude, cursor, vscode, gemini, codex };

// `claude`, `cursor`, `vscode`, `gemini`, `codex`.
[[nodiscard]] std::optional<Agent> agent_named(std::string_view name);
[[nodiscard]] std::string_view agent_name(Agent agent);
inline constexpr Agent k_agents[] = {Agent::claude, Agent::cursor, Agent::vscode, Agent::gemini,
                                     Agent::codex};

// One file's change, planned before any is written.
struct WiringChange {
  std::string path;                  // relative to the work tree
  std::optional<std::string> bytes;  // the new file; nullopt: delete it
  bool exclusive = false;            // a file git-vault creates whole (the skill): never rewritten
  std::vector<std::string> lines;    // what init announces for it
};

struct WiringPlan {
  std::vector<WiringChange> changes;
  std::vector<std::string> notes;  // what stays, and what the agent needs beyond the files
};

// What wiring `agent` into the repository at `root` changes. Nothing is written; an existing file
// git-vault cannot merge into (not JSON, a `hooks` of another shape) throws gv::Error naming it,
// so fixing it and running again finds nothing half done.
[[nodiscard]] WiringPlan plan_install(const std::filesystem::path& root, Agent agent);

// What taking every agent's wiring out of `root` changes: the entries git-vault wrote (as it
// wrote them: a server or skill changed since is the user's, kept and named in a note), the files
// that leaves empty, and the folders that leaves empty.
[[nodiscard]] WiringPlan plan_uninstall(const std::filesystem::path& root);

// Writes a plan (each file atomically; an exclusive file only when nothing is there) and removes
// the folders deletions leave empty. Returns the lines to announce. Throws gv::Error.
std::vector<std::string> apply_wiring(const std::filesystem::path& root, const WiringPlan& plan);

// Whether each agent is wired into `root`, and by which files: what `git vault status` reports.
struct AgentWiring {
  Agent agent = Agent::claude;
  bool mcp = false;                // its MCP configuration names the git-vault server
  std::vector<std::string> hooks;  // hook events that run git-vault agent-hook
  std::vector<std::string> files;  // files holding git-vault's part
  [[nodiscard]] bool wired() const { return mcp || !hooks.empty(); }
};
[[nodiscard]] std::vector<AgentWiring> wiring_status(const std::filesystem::path& root);

}  // namespace gv::agent
