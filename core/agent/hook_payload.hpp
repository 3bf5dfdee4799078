#pragma once

#include <filesystem>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <variant>

// What an agent's hook hands `git vault agent-hook` on stdin (doc/agent.md, "Agent hooks"):
// Claude Code's, Gemini CLI's and Codex's payloads, read into one shape. Pure.
namespace gv::agent {

// What a hook event asks of git-vault.
enum class HookKind {
  session_start,  // SessionStart: the session briefing
  prompt,         // UserPromptSubmit (Claude Code, Codex), BeforeAgent (Gemini CLI): the context
  tool_failure,  // PostToolUseFailure (Claude Code), AfterTool with an error (Gemini CLI): an event
  session_end,   // SessionEnd: an event
  other,         // anything else: nothing
};

struct HookPayload {
  std::string event_name;  // hook_event_name as sent
  HookKind kind = HookKind::other;
  std::string agent_session;  // the agent's own session id (`session_id` in the payload)
  std::string cwd;            // where the agent was (absolute), or empty
  std::string prompt;         // prompt kinds
  std::string tool_name;      // tool failures
  nlohmann::json tool_input;  // tool failures: the arguments the tool was called with
  std::string error;          // tool failures: what the tool said
  std::string reason;         // session end: why (`exit`, `clear`, …)
};

// Reads a payload: a JSON object with a non-empty `hook_event_name`. Returns why not otherwise
// (empty input, not JSON, not an object, no event name). A user interrupt reported as a tool
// failure (`is_interrupt`) is `other`: the tool did not fail. Never throws.
[[nodiscard]] std::variant<HookPayload, std::string> read_hook_payload(std::string_view bytes);

// Whether a JSON object is a hook payload rather than an event (`events add --stdin`).
[[nodiscard]] bool is_hook_payload(const nlohmann::ordered_json& object);

// The event a payload records, as `events add` flags would give it: for a tool failure a
// `blocker` of type `tool_failure` at the checkpoint `<tool>:<target>` (the place the next
// failure of the same kind will have too, so repeats meet the three-strikes rule); for a session
// end a `milestone` of type `session_end`. nullopt for other kinds.
struct HookEvent {
  std::string category;
  std::string event_type;
  std::optional<std::string> checkpoint;
  std::string message;  // one line
  nlohmann::ordered_json detail = nlohmann::ordered_json::object();
};
[[nodiscard]] std::optional<HookEvent> hook_event(const HookPayload& payload,
                                                  const std::filesystem::path& repo_root,
                                                  std::string_view agent_name);

// The target part of a tool failure's checkpoint: a file tool's path (relative to `repo_root`
// when inside it), a shell command's program and first word after it that is not an option
// (`make test`, `git commit`, `pytest tests/x.py`), leading `cd …` steps, environment
// assignments and `sudo`/`env` passed over; else empty.
[[nodiscard]] std::string tool_target(std::string_view tool_name, const nlohmann::json& tool_input,
                                      const std::filesystem::path& repo_root);

}  // namespace gv::agent
