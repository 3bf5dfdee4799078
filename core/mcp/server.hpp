#pragma once

#include <array>
#include <cstddef>
#include <nlohmann/json.hpp>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

// The Model Context Protocol over stdio (JSON-RPC 2.0, one message per line), as a pure
// function from a request line to a response line so every case is unit-testable.
// doc/agent.md, "git vault mcp", describes the tools, the protocol versions and the limits.
namespace gv::mcp {

// Newest first; the first is what a client asking for anything else gets.
inline constexpr std::array<std::string_view, 4> k_protocol_versions{"2025-11-25", "2025-06-18",
                                                                     "2025-03-26", "2024-11-05"};

// The one version whose messages may be JSON-RPC batches (2025-06-18 removed them; 2024-11-05
// never had them).
inline constexpr std::string_view k_batch_version = "2025-03-26";

// JSON-RPC error codes.
namespace error_code {
inline constexpr int k_parse_error = -32700;
inline constexpr int k_invalid_request = -32600;
inline constexpr int k_method_not_found = -32601;
inline constexpr int k_invalid_params = -32602;
inline constexpr int k_internal_error = -32603;
}  // namespace error_code

// What one message may be, and what one answer may grow to. A line past a limit is answered
// with an error naming the limit (to the request's id when it can be found without parsing),
// and the server goes on with the next line.
struct Limits {
  // Longer lines are cut by the reader (LineReader) and refused here: JSON of any size would
  // otherwise be held in memory at once.
  std::size_t max_line_bytes = std::size_t{1} << 20;
  // Arrays and objects inside one another; counted before parsing, since a value nested
  // ~140,000 deep overflows the stack of the recursive code that walks it.
  std::size_t max_depth = 64;
  // A response line larger than this is replaced by an error: the TypeScript SDK drops the
  // connection for good on a 10 MiB line, and agents cut tool output far below that. Tools keep
  // well under it on their own (doc/agent.md, "Bounded answers").
  std::size_t max_response_bytes = std::size_t{512} << 10;
};

// What a tool declares in tools/list.
struct ToolSpec {
  std::string name;
  std::string title;
  std::string description;
  nlohmann::json input_schema;  // a JSON Schema object
  bool read_only = true;
  bool destructive = false;
  bool idempotent = true;
  bool open_world = false;
};

// What a tool returns: `text` for the model, `structured` (an object, or null) for clients that
// read structuredContent (2025-06-18 and later).
struct ToolResult {
  std::string text;
  nlohmann::json structured;
  bool is_error = false;
};

// A tool's arguments are wrong (missing, mistyped, unknown id): answered as a result with
// isError, so the model reads the message and can correct itself.
class ToolInputError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// The tools a server offers. Implementations throw ToolInputError for bad arguments and
// gv::Error for failures; the server turns both into isError results and stays up.
class ToolBackend {
 public:
  virtual ~ToolBackend() = default;
  [[nodiscard]] virtual std::vector<ToolSpec> tools() const = 0;
  // `arguments` is always an object. Only called for names tools() lists.
  [[nodiscard]] virtual ToolResult call(std::string_view name, const nlohmann::json& arguments) = 0;
  // Why a tool tools() does not list is not there, when it is one the backend knows but has
  // turned off; empty otherwise. Ends the unknown-tool error.
  [[nodiscard]] virtual std::string absent_tool_reason(std::string_view /*name*/) const {
    return {};
  }
};

struct ServerInfo {
  std::string name = "git-vault";
  std::string version;
  std::string instructions;  // sent in the initialize result when not empty
  std::string description;   // serverInfo.description (2025-11-25) when not empty
};

class Server {
 public:
  Server(ToolBackend& backend, ServerInfo info, Limits limits = {});

  // Handles one line: a request, a notification, a response or, when the agreed version has
  // them, a batch (an array). Returns the line to send back without its newline, or nullopt
  // when nothing is owed (notifications, responses, blank lines). Never throws.
  [[nodiscard]] std::optional<std::string> handle_line(std::string_view line);

  // The answer to a line longer than limits().max_line_bytes, of which the reader kept `head`
  // (its first bytes) and `tail` (its last bytes): an error naming the limit, addressed to the
  // request's id when `head` or `tail` shows it. Never throws.
  [[nodiscard]] std::string handle_oversized_line(std::string_view head, std::string_view tail,
                                                  std::size_t line_bytes) const;

  // One parsed message; nullopt for notifications. Never throws.
  [[nodiscard]] std::optional<nlohmann::json> handle(const nlohmann::json& message);

  // The protocol version agreed at initialize (the newest until then).
  [[nodiscard]] std::string_view protocol_version() const { return m_version; }
  [[nodiscard]] const Limits& limits() const { return m_limits; }

 private:
  [[nodiscard]] std::optional<std::string> handle_batch(const nlohmann::json& batch);
  [[nodiscard]] nlohmann::json initialize(const nlohmann::json& params);
  [[nodiscard]] nlohmann::json list_tools() const;
  [[nodiscard]] nlohmann::json call_tool(const nlohmann::json& params);
  // `result` as a tools/call result; an isError result instead when it would make the
  // response larger than the limit.
  [[nodiscard]] nlohmann::json tool_result_json(const ToolResult& result) const;

  ToolBackend& m_backend;
  ServerInfo m_info;
  Limits m_limits;
  std::string m_version{k_protocol_versions.front()};
};

// A JSON-RPC error response.
[[nodiscard]] nlohmann::json error_response(const nlohmann::json& id, int code,
                                            std::string_view message);

// How deep arrays and objects nest in `line` (strings skipped, escapes honoured), and the
// top-level "id" member when it is a string or an integer, found without parsing the line: a
// byte scan, constant stack, that stops counting depth nowhere, so an id after deep content is
// still found. On a cut line (`complete` false) a member the cut splits is not reported.
struct LineShape {
  std::size_t depth = 0;
  std::optional<nlohmann::json> id;
};
[[nodiscard]] LineShape scan_line(std::string_view line, bool complete = true);

}  // namespace gv::mcp
