#pragma once

#include <filesystem>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>

// The git-vault MCP server in an agent's configuration (doc/agent.md, "Wiring an agent"): a
// `git-vault` entry under the file's servers object (`mcpServers` for Claude Code's `.mcp.json`,
// Cursor and Gemini CLI, `servers` for VS Code), or a `[mcp_servers.git-vault]` table in Codex's
// TOML. Every other byte of the file is kept as it is.
namespace gv::agent {

// The project-scope MCP configuration Claude Code reads from the repository root.
inline constexpr std::string_view k_mcp_config_path = ".mcp.json";
inline constexpr std::string_view k_mcp_server_name = "git-vault";

// The entry git-vault writes into `.mcp.json`.
[[nodiscard]] nlohmann::ordered_json claude_mcp_entry();

// `existing` (nullopt: no file yet) with `entry` added as the `git-vault` server under
// `servers_key`, laid out like the file around it. nullopt when a `git-vault` server is already
// configured (whatever its settings: the user's choice stands). Throws gv::Error (`path:line: …`)
// when the text is not a JSON object, or its servers object is not one, rather than overwrite it.
[[nodiscard]] std::optional<std::string> add_mcp_server(std::string_view path,
                                                        std::optional<std::string_view> existing,
                                                        std::string_view servers_key,
                                                        const nlohmann::ordered_json& entry);

// What taking the server out of a file left.
struct McpRemoval {
  std::optional<std::string> text;  // the file without it; nullopt when it was not there
  bool changed = false;  // a `git-vault` server is there but not as git-vault wrote it: kept
};

// `existing` without the `git-vault` server when it is exactly `entry` (a server the user has
// changed since is theirs and stays), and without the servers object when that leaves it empty.
// Throws gv::Error as add_mcp_server does.
[[nodiscard]] McpRemoval remove_mcp_server(std::string_view path, std::string_view existing,
                                           std::string_view servers_key,
                                           const nlohmann::ordered_json& entry);

// Whether `existing` configures a `git-vault` server under `servers_key`.
[[nodiscard]] bool has_mcp_server(std::string_view existing, std::string_view servers_key);

// `.mcp.json` with the git-vault server entry merged in (add_mcp_server on `.mcp.json`).
[[nodiscard]] std::optional<std::string> merge_mcp_config(std::optional<std::string_view> existing);

// Merges the entry into `<root>/.mcp.json` (merge_mcp_config) and writes the file atomically.
// False when the server was already configured. Throws gv::Error.
bool configure_mcp(const std::filesystem::path& root);

// Codex's TOML: the table git-vault appends, and the same three operations on its text.
inline constexpr std::string_view k_codex_server_table =
    "[mcp_servers.git-vault]\n"
    "command = \"git-vault\"\n"
    "args = [\"mcp\"]\n";
[[nodiscard]] bool has_codex_server(std::string_view existing);
// nullopt when a git-vault server is configured already.
[[nodiscard]] std::optional<std::string> add_codex_server(std::optional<std::string_view> existing);
// The text without the table exactly as git-vault wrote it (and the blank line it put before
// it); `changed` when a git-vault table is there in another form.
[[nodiscard]] McpRemoval remove_codex_server(std::string_view existing);

}  // namespace gv::agent
