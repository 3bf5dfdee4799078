#include "core/agent/hook_payload.hpp"

#include <fmt/format.h>

#include <array>
#include <vector>

#include "core/util/text.hpp"

namespace gv::agent {
namespace {

using PlainJson = nlohmann::json;

// Error text kept in an event's detail; the first line of it goes into the message.
constexpr std::size_t k_detail_error_limit = 2000;
constexpr std::size_t k_message_error_limit = 200;

std::string string_field(const PlainJson& object, std::string_view key) {
  const auto it = object.find(key);
  return it != object.end() && it->is_string() ? it->get<std::string>() : std::string();
}

HookKind kind_of(std::string_view event) {
  if (event == "SessionStart") {
    return HookKind::session_start;
  }
  if (event == "UserPromptSubmit" || event == "BeforeAgent") {
    return HookKind::prompt;
  }
  if (event == "PostToolUseFailure") {
    return HookKind::tool_failure;
  }
  if (event == "SessionEnd") {
    return HookKind::session_end;
  }
  return HookKind::other;
}

// Gemini CLI reports a tool's outcome in `tool_response`, whose `error` is set when it failed.
std::string gemini_tool_error(const PlainJson& object) {
  const auto response = object.find("tool_response");
  if (response == object.end() || !response->is_object()) {
    return {};
  }
  const auto error = response->find("error");
  if (error == response->end() || error->is_null()) {
    return {};
  }
  if (error->is_string()) {
    return error->get<std::string>();
  }
  if (error->is_object()) {
    const std::string message = string_field(*error, "message");
    return message.empty() ? error->dump() : message;
  }
  return error->dump();
}

// Text cut to at most `limit` bytes at a UTF-8 boundary, marked when cut.
std::string cut(std::string_view text, std::size_t limit) {
  if (text.size() <= limit) {
    return std::string(text);
  }
  std::size_t end = limit;
  while (end > 0 && (static_cast<unsigned char>(text[end]) & 0xC0) == 0x80) {
    --end;
  }
  return std::string(text.substr(0, end)) + "…";
}

std::string first_line(std::string_view text) {
  text = util::trim(text);
  const std::size_t end = text.find_first_of("\r\n");
  return std::string(util::trim(text.substr(0, end)));
}

// A message is one line: any line break a tool name or reason carried becomes a space.
std::string one_line(std::string text) {
  for (char& c : text) {
    if (c == '\n' || c == '\r') {
      c = ' ';
    }
  }
  return text;
}

std::vector<std::string_view> words(std::string_view text) {
  std::vector<std::string_view> out;
  std::size_t i = 0;
  while (i < text.size()) {
    while (i < text.size() && (text[i] == ' ' || text[i] == '\t' || text[i] == '\n')) {
      ++i;
    }
    const std::size_t start = i;
    while (i < text.size() && text[i] != ' ' && text[i] != '\t' && text[i] != '\n') {
      ++i;
    }
    if (i > start) {
      out.push_back(text.substr(start, i - start));
    }
  }
  return out;
}

std::string unquoted(std::string_view word) {
  std::string out;
  for (const char c : word) {
    if (c != '"' && c != '\'') {
      out += c;
    }
  }
  return out;
}

// `make test` out of `cd build && CC=gcc make test -j2 2>&1`.
std::string command_target(std::string_view command) {
  // The first step of the command line that is not a `cd`.
  std::string_view step;
  std::size_t start = 0;
  while (start <= command.size()) {
    std::size_t end = command.find_first_of(";&|\n", start);
    if (end == std::string_view::npos) {
      end = command.size();
    }
    const std::string_view piece = util::trim(command.substr(start, end - start));
    start = end + 1;
    while (start < command.size() && (command[start] == '&' || command[start] == '|')) {
      ++start;
    }
    if (piece.empty() || piece == "cd" || piece.starts_with("cd ")) {
      continue;
    }
    step = piece;
    break;
  }
  std::string program;
  std::string argument;
  for (const std::string_view word : words(step)) {
    if (program.empty()) {
      const bool assignment = word.find('=') != std::string_view::npos && word.front() != '-';
      if (assignment || word == "sudo" || word == "env" || word == "time" || word == "nohup" ||
          word == "exec") {
        continue;
      }
      const std::string plain = unquoted(word);
      const std::size_t slash = plain.rfind('/');
      program = slash == std::string::npos ? plain : plain.substr(slash + 1);
      continue;
    }
    if (word.front() == '-' || word.find('>') != std::string_view::npos ||
        word.find('<') != std::string_view::npos) {
      continue;
    }
    argument = unquoted(word);
    break;
  }
  return argument.empty() ? program : program + " " + argument;
}

std::string agent_display_name(std::string_view agent) {
  if (agent == "gemini") {
    return "Gemini CLI";
  }
  if (agent == "codex") {
    return "Codex";
  }
  return "Claude Code";
}

}  // namespace

std::variant<HookPayload, std::string> read_hook_payload(std::string_view bytes) {
  if (util::trim(bytes).empty()) {
    return std::string("no hook payload on stdin");
  }
  const PlainJson object = PlainJson::parse(bytes, nullptr, false);
  if (object.is_discarded()) {
    return std::string("the hook payload is not valid JSON");
  }
  if (!object.is_object()) {
    return std::string("the hook payload is not a JSON object");
  }
  HookPayload payload;
  payload.event_name = string_field(object, "hook_event_name");
  if (payload.event_name.empty()) {
    return std::string("the hook payload names no hook_event_name");
  }
  payload.kind = kind_of(payload.event_name);
  payload.agent_session = string_field(object, "session_id");
  payload.cwd = string_field(object, "cwd");
  payload.prompt = string_field(object, "prompt");
  payload.tool_name = string_field(object, "tool_name");
  if (const auto input = object.find("tool_input"); input != object.end()) {
    payload.tool_input = *input;
  }
  payload.reason = string_field(object, "reason");
  if (payload.kind == HookKind::tool_failure) {
    payload.error = string_field(object, "error");
    const auto interrupt = object.find("is_interrupt");
    if (interrupt != object.end() && interrupt->is_boolean() && interrupt->get<bool>()) {
      payload.kind = HookKind::other;  // the user stopped it; the tool did not fail
    }
  } else if (payload.event_name == "AfterTool") {
    payload.error = gemini_tool_error(object);
    if (!payload.error.empty()) {
      payload.kind = HookKind::tool_failure;
    }
  }
  return payload;
}

bool is_hook_payload(const nlohmann::ordered_json& object) {
  return object.is_object() && object.contains("hook_event_name");
}

std::string tool_target(std::string_view tool_name, const PlainJson& tool_input,
                        const std::filesystem::path& repo_root) {
  (void)tool_name;
  if (!tool_input.is_object()) {
    return {};
  }
  for (const std::string_view key : {"file_path", "notebook_path", "absolute_path", "path"}) {
    const std::string path = string_field(tool_input, key);
    if (path.empty()) {
      continue;
    }
    const std::filesystem::path given(path);
    if (given.is_absolute() && !repo_root.empty()) {
      const std::filesystem::path relative = given.lexically_relative(repo_root);
      if (!relative.empty() && !relative.string().starts_with("..")) {
        return relative.generic_string();
      }
    }
    return given.generic_string();
  }
  const std::string command = string_field(tool_input, "command");
  if (!command.empty()) {
    return command_target(command);
  }
  const std::string url = string_field(tool_input, "url");
  if (!url.empty()) {
    const std::size_t scheme = url.find("://");
    const std::size_t host = scheme == std::string::npos ? 0 : scheme + 3;
    return url.substr(host, url.find('/', host) - host);
  }
  for (const std::string_view key : {"pattern", "query"}) {
    const std::string value = string_field(tool_input, key);
    if (!value.empty()) {
      return cut(first_line(value), 80);
    }
  }
  return {};
}

std::optional<HookEvent> hook_event(const HookPayload& payload,
                                    const std::filesystem::path& repo_root,
                                    std::string_view agent_name) {
  HookEvent event;
  if (payload.kind == HookKind::tool_failure) {
    const std::string tool = payload.tool_name.empty() ? "tool" : payload.tool_name;
    const std::string target = tool_target(tool, payload.tool_input, repo_root);
    event.category = "blocker";
    event.event_type = "tool_failure";
    event.checkpoint = target.empty() ? tool : tool + ":" + target;
    const std::string said = cut(first_line(payload.error), k_message_error_limit);
    event.message = fmt::format("{} failed{}{}", tool, target.empty() ? "" : " at " + target,
                                said.empty() ? "" : ": " + said);
    event.detail["tool_name"] = tool;
    if (!target.empty()) {
      event.detail["target"] = target;
    }
    if (!payload.error.empty()) {
      event.detail["error"] = cut(payload.error, k_detail_error_limit);
    }
    event.message = one_line(event.message);
    return event;
  }
  if (payload.kind == HookKind::session_end) {
    event.category = "milestone";
    event.event_type = "session_end";
    event.message = fmt::format("{} session ended{}", agent_display_name(agent_name),
                                payload.reason.empty() ? "" : " (" + payload.reason + ")");
    if (!payload.reason.empty()) {
      event.detail["reason"] = payload.reason;
    }
    event.message = one_line(event.message);
    return event;
  }
  return std::nullopt;
}

}  // namespace gv::agent
