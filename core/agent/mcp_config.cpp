#include "core/agent/mcp_config.hpp"

#include <algorithm>
#include <iterator>
#include <string_view>

#include "core/agent/hook_config.hpp"
#include "core/error.hpp"
#include "core/json/layout.hpp"
#include "core/json/parse.hpp"
#include "core/util/file.hpp"
#include "core/util/text.hpp"

namespace gv::agent {
namespace {

using Json = nlohmann::ordered_json;

std::string again_for(std::string_view path) {
  return path == k_mcp_config_path ? "git vault init --mcp" : "git vault init --agent";
}

const Json* servers_of(std::string_view path, const Json& document, std::string_view key) {
  const auto servers = document.find(key);
  if (servers == document.end()) {
    return nullptr;
  }
  if (!servers->is_object()) {
    throw Error("{}: `{}` is not an object; fix it, then run `{}` again", path, key,
                again_for(path));
  }
  return &*servers;
}

std::size_t index_of(const std::vector<std::string>& keys, std::string_view key) {
  return static_cast<std::size_t>(
      std::distance(keys.begin(), std::find(keys.begin(), keys.end(), key)));
}

// The lines of `text` that open the git-vault table, or a dotted key naming it.
bool names_codex_server(std::string_view line) {
  line = util::trim(line);
  return line == "[mcp_servers.git-vault]" || line == "[mcp_servers.\"git-vault\"]" ||
         line.starts_with("mcp_servers.git-vault.") ||
         line.starts_with("mcp_servers.\"git-vault\".") || line.starts_with("git-vault =") ||
         line.starts_with("\"git-vault\" =");
}

}  // namespace

Json claude_mcp_entry() {
  return Json{
      {"type", "stdio"}, {"command", "git-vault"}, {"args", {"mcp"}}, {"env", Json::object()}};
}

std::optional<std::string> add_mcp_server(std::string_view path,
                                          std::optional<std::string_view> existing,
                                          std::string_view servers_key, const Json& entry) {
  const std::string text = existing ? std::string(*existing) : std::string("{}\n");
  const Json document = read_settings(path, text, again_for(path));
  const Json* servers = servers_of(path, document, servers_key);
  const json_text::Node root = json_text::read_layout(text);
  const std::string value = entry.dump(-1, ' ', false, Json::error_handler_t::replace);
  if (servers == nullptr) {
    return json_text::add_member(text, root, servers_key,
                                 "{\"" + std::string(k_mcp_server_name) + "\":" + value + "}");
  }
  if (servers->contains(k_mcp_server_name)) {
    return std::nullopt;
  }
  return json_text::add_member(text, *root.member(servers_key), k_mcp_server_name, value);
}

McpRemoval remove_mcp_server(std::string_view path, std::string_view existing,
                             std::string_view servers_key, const Json& entry) {
  McpRemoval removal;
  const Json document = read_settings(path, existing, "git vault init --no-agent");
  const Json* servers = servers_of(path, document, servers_key);
  if (servers == nullptr || !servers->contains(k_mcp_server_name)) {
    return removal;
  }
  if (servers->at(std::string(k_mcp_server_name)) != entry) {
    removal.changed = true;
    return removal;
  }
  const json_text::Node root = json_text::read_layout(existing);
  const json_text::Node& servers_node = *root.member(servers_key);
  removal.text = servers_node.children.size() > 1
                     ? json_text::remove_child(existing, servers_node,
                                               index_of(servers_node.keys, k_mcp_server_name))
                     : json_text::remove_child(existing, root, index_of(root.keys, servers_key));
  return removal;
}

bool has_mcp_server(std::string_view existing, std::string_view servers_key) {
  const auto parsed = json_text::parse_object<Json>(existing);
  if (!parsed) {
    return false;
  }
  const auto servers = parsed->find(servers_key);
  return servers != parsed->end() && servers->is_object() && servers->contains(k_mcp_server_name);
}

std::optional<std::string> merge_mcp_config(std::optional<std::string_view> existing) {
  return add_mcp_server(k_mcp_config_path, existing, "mcpServers", claude_mcp_entry());
}

bool configure_mcp(const std::filesystem::path& root) {
  const std::filesystem::path path = root / k_mcp_config_path;
  const std::optional<std::string> existing = util::read_file_if_exists(path);
  const std::optional<std::string> merged = merge_mcp_config(existing);
  if (!merged) {
    return false;
  }
  util::write_file_atomic(path, *merged);
  return true;
}

bool has_codex_server(std::string_view existing) {
  std::size_t start = 0;
  while (start < existing.size()) {
    std::size_t end = existing.find('\n', start);
    if (end == std::string_view::npos) {
      end = existing.size();
    }
    if (names_codex_server(existing.substr(start, end - start))) {
      return true;
    }
    start = end + 1;
  }
  return false;
}

std::optional<std::string> add_codex_server(std::optional<std::string_view> existing) {
  std::string text = existing ? std::string(*existing) : std::string();
  if (has_codex_server(text)) {
    return std::nullopt;
  }
  if (!text.empty()) {
    if (text.back() != '\n') {
      text += '\n';
    }
    text += '\n';
  }
  return text + std::string(k_codex_server_table);
}

McpRemoval remove_codex_server(std::string_view existing) {
  McpRemoval removal;
  const std::size_t at = existing.find(k_codex_server_table);
  const bool whole_line = at != std::string_view::npos && (at == 0 || existing[at - 1] == '\n');
  if (!whole_line) {
    removal.changed = has_codex_server(existing);
    return removal;
  }
  std::size_t begin = at;
  if (begin >= 2 && existing.substr(begin - 2, 2) == "\n\n") {
    begin -= 1;  // the blank line add_codex_server put before the table
  }
  std::string text(existing.substr(0, begin));
  text.append(existing.substr(at + k_codex_server_table.size()));
  removal.text = std::move(text);
  return removal;
}

}  // namespace gv::agent
