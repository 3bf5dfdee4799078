#include "core/mcp/server.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <new>

#include "core/util/text.hpp"

namespace gv::mcp {
namespace {

using nlohmann::json;

// A name a client sent (a method, a tool, an argument), as an error message repeats it.
constexpr std::size_t k_echoed_name_bytes = 100;

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

bool is_blank(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; }

// A JSON scalar token (a string with its quotes, or a number) as an id, or nullopt.
std::optional<json> id_from_token(std::string_view token) {
  const json value = json::parse(token, nullptr, false);
  if (value.is_string() || value.is_number_integer()) {
    return value;
  }
  return std::nullopt;
}

// The id of a request line whose end is `tail`, when the line ends with an `"id"` member: the
// TypeScript SDK writes the id last (`{"method":…,"params":…,"jsonrpc":"2.0","id":7}`), so a
// line cut for its length still shows it. Only integers and plain strings (no escapes) are
// taken: read backwards, anything else is ambiguous.
std::optional<json> id_at_end(std::string_view tail) {
  std::size_t end = tail.size();
  auto skip_blanks = [&] {
    while (end > 0 && is_blank(tail[end - 1])) {
      --end;
    }
  };
  skip_blanks();
  if (end == 0 || tail[end - 1] != '}') {
    return std::nullopt;
  }
  --end;
  skip_blanks();
  const std::size_t value_end = end;
  if (end > 0 && tail[end - 1] == '"') {
    --end;
    while (end > 0 && tail[end - 1] != '"' && tail[end - 1] != '\\') {
      --end;
    }
    if (end == 0 || tail[end - 1] != '"' || (end > 1 && tail[end - 2] == '\\')) {
      return std::nullopt;
    }
    --end;
  } else {
    while (end > 0 && ((tail[end - 1] >= '0' && tail[end - 1] <= '9') || tail[end - 1] == '-')) {
      --end;
    }
  }
  const std::size_t value_start = end;
  if (value_start == value_end) {
    return std::nullopt;
  }
  skip_blanks();
  if (end == 0 || tail[end - 1] != ':') {
    return std::nullopt;
  }
  --end;
  skip_blanks();
  constexpr std::string_view k_key = "\"id\"";
  if (end < k_key.size() || tail.substr(end - k_key.size(), k_key.size()) != k_key) {
    return std::nullopt;
  }
  end -= k_key.size();
  skip_blanks();
  if (end == 0 || (tail[end - 1] != ',' && tail[end - 1] != '{')) {
    return std::nullopt;
  }
  return id_from_token(tail.substr(value_start, value_end - value_start));
}

}  // namespace

LineShape scan_line(std::string_view line, bool complete) {
  // What the scanner expects next inside the top-level object.
  enum class Expect { nothing, key, colon, value };
  LineShape shape;
  std::size_t depth = 0;
  bool object = false;  // the line is an object, so depth 1 holds its members
  Expect expect = Expect::nothing;
  bool member_is_id = false;
  for (std::size_t i = 0; i < line.size(); ++i) {
    const char c = line[i];
    if (c == '"') {
      // A string: find its closing quote, honouring escapes.
      const std::size_t start = i;
      bool escaped = false;
      for (++i; i < line.size(); ++i) {
        if (escaped) {
          escaped = false;
        } else if (line[i] == '\\') {
          escaped = true;
        } else if (line[i] == '"') {
          break;
        }
      }
      if (i >= line.size()) {
        break;  // unterminated (or cut): nothing after it can be read
      }
      if (depth != 1 || !object) {
        continue;
      }
      if (expect == Expect::key) {
        member_is_id = line.substr(start, i + 1 - start) == "\"id\"";
        expect = Expect::colon;
      } else if (expect == Expect::value) {
        if (member_is_id) {
          shape.id = id_from_token(line.substr(start, i + 1 - start));
        }
        expect = Expect::nothing;
      }
      continue;
    }
    if (c == '{' || c == '[') {
      if (depth == 0 && c == '{') {
        object = true;
        expect = Expect::key;
      } else if (depth == 1) {
        expect = Expect::nothing;
      }
      ++depth;
      shape.depth = std::max(shape.depth, depth);
      continue;
    }
    if (c == '}' || c == ']') {
      depth -= depth > 0 ? 1 : 0;
      continue;
    }
    if (depth != 1 || !object || is_blank(c)) {
      continue;
    }
    if (c == ',') {
      expect = Expect::key;
    } else if (c == ':' && expect == Expect::colon) {
      expect = Expect::value;
    } else if (expect == Expect::value) {
      // A number or a literal: up to the next delimiter.
      std::size_t end = i;
      while (end < line.size() && line[end] != ',' && line[end] != '}' && line[end] != ']' &&
             !is_blank(line[end])) {
        ++end;
      }
      if (member_is_id && (complete || end < line.size())) {
        shape.id = id_from_token(line.substr(i, end - i));
      }
      expect = Expect::nothing;
      i = end - 1;
    }
  }
  return shape;
}

json error_response(const json& id, int code, std::string_view message) {
  return json{{"jsonrpc", "2.0"},
              {"id", id},
              {"error", {{"code", code}, {"message", std::string(message)}}}};
}

Server::Server(ToolBackend& backend, ServerInfo info, Limits limits)
    : m_backend(backend), m_info(std::move(info)), m_limits(limits) {}

std::string Server::handle_oversized_line(std::string_view head, std::string_view tail,
                                          std::size_t line_bytes) const {
  std::optional<json> id = scan_line(head, false).id;
  if (!id) {
    id = id_at_end(tail);
  }
  json response = error_response(
      id.value_or(json(nullptr)), error_code::k_invalid_request,
      fmt::format("invalid request: the line is {} bytes, longer than this server reads ({} "
                  "bytes); it was not read. Send less at once (a shorter query or content)",
                  line_bytes, m_limits.max_line_bytes));
  response["error"]["data"] = {
      {"limit", "line_bytes"}, {"max", m_limits.max_line_bytes}, {"actual", line_bytes}};
  return dump(response);
}

std::optional<std::string> Server::handle_line(std::string_view line) {
  while (!line.empty() && is_blank(line.back())) {
    line.remove_suffix(1);
  }
  if (line.empty()) {
    return std::nullopt;
  }
  if (line.size() > m_limits.max_line_bytes) {
    return handle_oversized_line(line.substr(0, m_limits.max_line_bytes),
                                 line.substr(line.size() - std::min<std::size_t>(line.size(), 256)),
                                 line.size());
  }
  // The depth is counted before parsing: the parser and everything after it recurse.
  const LineShape shape = scan_line(line);
  if (shape.depth > m_limits.max_depth) {
    json response = error_response(
        shape.id.value_or(json(nullptr)), error_code::k_invalid_request,
        fmt::format("invalid request: arrays and objects nest {} deep, deeper than this server "
                    "reads ({} levels); it was not read",
                    shape.depth, m_limits.max_depth));
    response["error"]["data"] = {
        {"limit", "depth"}, {"max", m_limits.max_depth}, {"actual", shape.depth}};
    return dump(response);
  }
  const json message = json::parse(line, nullptr, false);
  if (message.is_discarded()) {
    return dump(error_response(nullptr, error_code::k_parse_error, "parse error: not JSON"));
  }
  if (message.is_array()) {
    return handle_batch(message);
  }
  std::optional<json> response = handle(message);
  if (!response) {
    return std::nullopt;
  }
  std::string out = dump(*response);
  if (out.size() > m_limits.max_response_bytes) {
    // Tools keep under the limit on their own (tool_result_json); this is the last guard.
    out = dump(error_response(
        response->value("id", json(nullptr)), error_code::k_internal_error,
        fmt::format("the answer is {} bytes, more than this server sends at once ({} bytes)",
                    out.size(), m_limits.max_response_bytes)));
  }
  return out;
}

std::optional<std::string> Server::handle_batch(const json& batch) {
  if (m_version != k_batch_version) {
    return dump(error_response(
        nullptr, error_code::k_invalid_request,
        fmt::format("invalid request: JSON-RPC batches are not part of protocol {} (only {} has "
                    "them); send one message per line",
                    m_version, k_batch_version)));
  }
  if (batch.empty()) {
    return dump(
        error_response(nullptr, error_code::k_invalid_request, "invalid request: empty batch"));
  }
  json responses = json::array();
  std::size_t bytes = 0;
  for (const json& item : batch) {
    const bool request = item.is_object() && item.contains("id") && item.contains("method");
    if (request && item["method"] == "initialize") {
      responses.push_back(error_response(
          valid_id(item["id"]) ? item["id"] : json(nullptr), error_code::k_invalid_request,
          "invalid request: initialize must not be part of a batch"));
      continue;
    }
    if (request && bytes > m_limits.max_response_bytes) {
      // One line carries the whole batch's answer: past the limit, requests are not run.
      responses.push_back(error_response(
          valid_id(item["id"]) ? item["id"] : json(nullptr), error_code::k_invalid_request,
          fmt::format("not run: the batch's answer grew past {} bytes; send this request again",
                      m_limits.max_response_bytes)));
      continue;
    }
    if (std::optional<json> response = handle(item)) {
      bytes += dump(*response).size();
      responses.push_back(std::move(*response));
    }
  }
  if (responses.empty()) {
    return std::nullopt;
  }
  return dump(responses);
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
  const auto params_member = message.find("params");
  const json no_params = json::object();
  const json& params = params_member != message.end() ? *params_member : no_params;
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
      throw RpcError{error_code::k_method_not_found,
                     fmt::format("method not found: {}", util::shorten(name, k_echoed_name_bytes))};
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
  json server_info{{"name", m_info.name}, {"version", m_info.version}};
  if (!m_info.description.empty() && m_version >= std::string_view("2025-11-25")) {
    server_info["description"] = m_info.description;
  }
  json result{{"protocolVersion", m_version},
              {"capabilities", {{"tools", {{"listChanged", false}}}}},
              {"serverInfo", std::move(server_info)}};
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
    const std::string shown = util::shorten(name, k_echoed_name_bytes);
    const std::string reason = m_backend.absent_tool_reason(name);
    throw RpcError{error_code::k_invalid_params,
                   reason.empty() ? fmt::format("unknown tool: {} (tools: {})", shown, names)
                                  : fmt::format("unknown tool: {}: {}", shown, reason)};
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
      if (std::find(known.begin(), known.end(), key) == known.end() && unknown.size() < 5) {
        unknown.push_back("`" + util::shorten(key, k_echoed_name_bytes) + "`");
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
  return tool_result_json(result);
}

json Server::tool_result_json(const ToolResult& result) const {
  json out{{"content", json::array({{{"type", "text"}, {"text", result.text}}})},
           {"isError", result.is_error}};
  if (!result.structured.is_null() && m_version >= std::string_view("2025-06-18")) {
    out["structuredContent"] = result.structured;
  }
  // Room for the JSON-RPC envelope around the result.
  constexpr std::size_t k_envelope = 256;
  const std::size_t bytes = dump(out).size();
  if (bytes + k_envelope <= m_limits.max_response_bytes) {
    return out;
  }
  return json{{"content",
               json::array({{{"type", "text"},
                             {"text", fmt::format("the answer would be {} bytes, more than this "
                                                  "server sends at once ({} bytes); ask for less "
                                                  "(a smaller limit, fewer ids, a smaller budget)",
                                                  bytes, m_limits.max_response_bytes)}}})},
              {"isError", true}};
}

}  // namespace gv::mcp
