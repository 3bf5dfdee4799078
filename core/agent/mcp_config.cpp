#include "core/agent/mcp_config.hpp"

#include <nlohmann/json.hpp>
#include <string_view>

#include "core/error.hpp"
#include "core/memory/lines.hpp"
#include "core/util/file.hpp"

namespace gv::agent {

std::optional<std::string> merge_mcp_config(std::optional<std::string_view> existing) {
  nlohmann::ordered_json config = nlohmann::ordered_json::object();
  if (existing) {
    try {
      config = nlohmann::ordered_json::parse(*existing);
    } catch (const nlohmann::json::parse_error& e) {
      // nlohmann counts the byte it stopped at from 1.
      const int line = line_of_offset(*existing, e.byte == 0 ? 0 : e.byte - 1);
      throw Error(
          "{}:{}: not valid JSON ({}); fix or remove it, then run `git vault init --mcp` again",
          k_mcp_config_path, line,
          std::string_view(e.what()).substr(std::string_view(e.what()).rfind(": ") + 2));
    }
    if (!config.is_object()) {
      throw Error("{}: not a JSON object; fix or remove it, then run `git vault init --mcp` again",
                  k_mcp_config_path);
    }
  }
  if (!config.contains("mcpServers")) {
    config["mcpServers"] = nlohmann::ordered_json::object();
  }
  nlohmann::ordered_json& servers = config["mcpServers"];
  if (!servers.is_object()) {
    throw Error("{}: `mcpServers` is not an object; fix it, then run `git vault init --mcp` again",
                k_mcp_config_path);
  }
  if (servers.contains(k_mcp_server_name)) {
    return std::nullopt;
  }
  servers[std::string(k_mcp_server_name)] =
      nlohmann::ordered_json{{"type", "stdio"},
                             {"command", "git-vault"},
                             {"args", {"mcp"}},
                             {"env", nlohmann::ordered_json::object()}};
  return config.dump(2, ' ', false, nlohmann::ordered_json::error_handler_t::replace) + "\n";
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

}  // namespace gv::agent
