#include "core/mcp/server.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <new>

namespace gv::mcp {
namespace {

using nlohmann::json;

// A protocol error raised while handling a request.
struct RpcError {
  int code;
  std::string message;
};

std::string dump(const json& value) {
  // One line, never throwing on bytes that are not UTF-8 (a memory file may hold them).
  return value.dump(-1, ' ', false, json::error_handler_t::replace);
}

bool valid_id(const json& id) { return id.is_string() || id.is_number_integer() || id.is_null(); }

}  // namespace

json error_response(const json& id, int code, std::string_view message) {
  return json{{"jsonrpc", "2.0"},
              {"id", id},
              {"error", {{"code", code}, {"message", std::string(message)}}}};
}

Server::Server(ToolBackend& backend, ServerInfo info)
    : m_backend(backend), m_info(std::move(info)) {}

std::optional<std::string> Server::handle_line(std::string_view line) {
  while (!line.empty() && (line.back() == '\r' || line.back() == ' ' || line.back() == '\t')) {
    line.remove_suffix(1);
  }
  if (line.empty()) {
    return std::nullopt;
  }
  const json message = json::parse(line, nullptr, false);
  if (message.is_discarded()) {
    return dump(error_response(nullptr, error_code::k_parse_error, "parse error: not JSON"));
  }
  if (message.is_array()) {
    if (message.empty()) {
      return dump(
          error_response(nullptr, error_code::k_invalid_request, "invalid request: empty batch"));
    }
    json responses = json::array();
    for (const json& item : message) {
      if (std::optional<json> response = handle(item)) {
        responses.push_back(std::move(*response));
      }
    }
    if (responses.empty()) {
      return std::nullopt;
    }
    return dump(responses);
  }
  if (std::optional<json> response = handle(message)) {
    return dump(*response);
  }
  return std::nullopt;
}

std::optional<json> Server::handle(const json& message) {
  if (!message.is_object()) {
    return error_response(nullptr, error_code::k_invalid_request,
                          "invalid request: expected a JSON-RPC object");
  }
  const auto method = message.find("method");
  const auto id = message.find("id");
  if (method == message.end()) {
    // A response to a request we never send, or garbage: nothing is owed to either.
    if (id != message.end() && (message.contains("result") || message.contains("error"))) {
      return std::nullopt;
    }
    return error_response(id != message.end() && valid_id(*id) ? *id : json(nullptr),
                          error_code::k_invalid_request, "invalid request: no method");
  }
  // MCP: a request's id is a string or an integer, never null (JSON-RPC allows null; MCP does
  // not).
  if (!method->is_string() || message.value("jsonrpc", json()) != "2.0" ||
      (id != message.end() && (!valid_id(*id) || id->is_null()))) {
    return error_response(id != message.end() && valid_id(*id) ? *id : json(nullptr),
                          error_code::k_invalid_request,
                          "invalid request: expected jsonrpc \"2.0\", a string method and a "
                          "string or integer id");
  }
  const std::string name = method->get<std::string>();
  const bool notification = id == message.end();
  if (notification) {
    // notifications/initialized, notifications/cancelled, …: nothing to answer. A request
    // sent without an id is a notification too, and gets no answer either.
    return std::nullopt;
  }
  const json params = message.value("params", json::object());
  try {
    if (!params.is_object() && !params.is_array()) {
      throw RpcError{error_code::k_invalid_params, "invalid params: expected an object"};
    }
    json result;
    if (name == "initialize") {
      result = initialize(params);
    } else if (name == "ping") {
      result = json::object();
    } else if (name == "tools/list") {
      result = list_tools();
    } else if (name == "tools/call") {
      result = call_tool(params);
    } else {
      throw RpcError{error_code::k_method_not_found, fmt::format("method not found: {}", name)};
    }
    return json{{"jsonrpc", "2.0"}, {"id", *id}, {"result", std::move(result)}};
  } catch (const RpcError& e) {
    return error_response(*id, e.code, e.message);
  } catch (const std::bad_alloc&) {
    // Half-way through a call the server's state is not to be trusted: it ends with one line
    // (`git-vault: error: out of memory while …`) rather than answer the next call from it.
    throw;
  } catch (const std::exception& e) {
    return error_response(*id, error_code::k_internal_error, e.what());
  }
}

json Server::initialize(const json& params) {
  std::string requested;
  if (params.is_object() && params.contains("protocolVersion") &&
      params["protocolVersion"].is_string()) {
    requested = params["protocolVersion"].get<std::string>();
  }
  const bool supported = std::find(k_protocol_versions.begin(), k_protocol_versions.end(),
                                   requested) != k_protocol_versions.end();
  m_version = supported ? requested : std::string(k_protocol_versions.front());
  json result{{"protocolVersion", m_version},
              {"capabilities", {{"tools", {{"listChanged", false}}}}},
              {"serverInfo", {{"name", m_info.name}, {"version", m_info.version}}}};
  if (!m_info.instructions.empty()) {
    result["instructions"] = m_info.instructions;
  }
  return result;
}

json Server::list_tools() const {
  json tools = json::array();
  for (const ToolSpec& spec : m_backend.tools()) {
    json tool{{"name", spec.name},
              {"description", spec.description},
              {"inputSchema", spec.input_schema},
              {"annotations",
               {{"title", spec.title},
                {"readOnlyHint", spec.read_only},
                {"destructiveHint", spec.destructive},
                {"idempotentHint", spec.idempotent},
                {"openWorldHint", spec.open_world}}}};
    if (m_version >= std::string_view("2025-06-18")) {
      tool["title"] = spec.title;
    }
    tools.push_back(std::move(tool));
  }
  return json{{"tools", std::move(tools)}};
}

json Server::call_tool(const json& params) {
  if (!params.is_object() || !params.contains("name") || !params["name"].is_string()) {
    throw RpcError{error_code::k_invalid_params, "invalid params: tools/call needs a string name"};
  }
  const std::string name = params["name"].get<std::string>();
  const std::vector<ToolSpec> tools = m_backend.tools();
  const auto spec = std::find_if(tools.begin(), tools.end(),
                                 [&](const ToolSpec& tool) { return tool.name == name; });
  if (spec == tools.end()) {
    std::string names;
    for (const ToolSpec& tool : tools) {
      names += (names.empty() ? "" : ", ") + tool.name;
    }
    const std::string reason = m_backend.absent_tool_reason(name);
    throw RpcError{error_code::k_invalid_params,
                   reason.empty() ? fmt::format("unknown tool: {} (tools: {})", name, names)
                                  : fmt::format("unknown tool: {}: {}", name, reason)};
  }
  json arguments = params.value("arguments", json::object());
  if (arguments.is_null()) {
    arguments = json::object();
  }
  ToolResult result;
  // A misspelt argument (`qurey`) would otherwise be dropped without a word and the call answered
  // as if it had not been given: the tool's schema lists every argument it takes.
  std::vector<std::string> unknown;
  std::vector<std::string> known;
  if (arguments.is_object() && spec->input_schema.contains("properties")) {
    for (const auto& [key, value] : spec->input_schema["properties"].items()) {
      known.push_back(key);
    }
    for (const auto& [key, value] : arguments.items()) {
      if (std::find(known.begin(), known.end(), key) == known.end()) {
        unknown.push_back("`" + key + "`");
      }
    }
  }
  if (!arguments.is_object()) {
    result = {"arguments must be an object", nullptr, true};
  } else if (!unknown.empty()) {
    result = {fmt::format("unknown argument{} {}; {} takes {}", unknown.size() == 1 ? "" : "s",
                          fmt::join(unknown, ", "), name, fmt::join(known, ", ")),
              nullptr, true};
  } else {
    try {
      result = m_backend.call(name, arguments);
    } catch (const std::bad_alloc&) {
      throw;  // see handle(): the server ends on it
    } catch (const std::exception& e) {
      // Bad arguments, a missing memory, a refused write, an I/O failure: the model reads the
      // message; the server stays up for the next call.
      result = {e.what(), nullptr, true};
    }
  }
  json out{{"content", json::array({{{"type", "text"}, {"text", result.text}}})},
           {"isError", result.is_error}};
  if (!result.structured.is_null() && m_version >= std::string_view("2025-06-18")) {
    out["structuredContent"] = result.structured;
  }
  return out;
}

}  // namespace gv::mcp
