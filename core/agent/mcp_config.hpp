#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

namespace gv::agent {

// The project-scope MCP configuration Claude Code reads from the repository root.
inline constexpr std::string_view k_mcp_config_path = ".mcp.json";
inline constexpr std::string_view k_mcp_server_name = "git-vault";

// `.mcp.json` with the git-vault server entry (`{"type": "stdio", "command": "git-vault",
// "args": ["mcp"]}` under `mcpServers`) merged in, every other key and server kept in its
// order. nullopt when a `git-vault` server is already configured (whatever its settings: the
// user's choice stands). Throws gv::Error (`.mcp.json: …`) when the existing text is not a
// JSON object, or its `mcpServers` is not one, rather than overwrite it.
[[nodiscard]] std::optional<std::string> merge_mcp_config(std::optional<std::string_view> existing);

// Merges the entry into `<root>/.mcp.json` (merge_mcp_config) and writes the file atomically.
// False when the server was already configured. Throws gv::Error.
bool configure_mcp(const std::filesystem::path& root);

}  // namespace gv::agent
