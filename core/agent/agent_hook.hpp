#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/agent/hook_payload.hpp"
#include "core/dates.hpp"
#include "core/util/locked_append.hpp"

namespace gv {
class ParseCache;
namespace git {
class Repo;
}
}  // namespace gv

// `git vault agent-hook`: what an agent's hook gets from the vault (doc/agent.md, "Agent
// hooks"). A session start gets the session briefing, a prompt the `<memory-context>` block (and
// the retrievals are recorded), a failed tool call or a session end becomes an event. The
// process around it (cmd/agent_hook.cpp) keeps the agent from ever waiting on it or being told
// anything but context.
namespace gv::agent {

// The agents whose hooks git-vault answers, and how each takes context from a hook.
enum class HookAgent { claude, gemini, codex };
[[nodiscard]] std::optional<HookAgent> hook_agent(std::string_view name);
[[nodiscard]] std::string_view hook_agent_name(HookAgent agent);

struct HookSetting {
  HookAgent agent = HookAgent::claude;
  Clock clock;
  std::int64_t millisecond = 0;  // of the current second, for event ids
  util::LockDeadline deadline;   // journals still locked at this point are given up
};

// What one hook invocation produced.
struct HookAnswer {
  std::string context;                 // for the agent's prompt; empty: nothing to say
  std::vector<std::string> retrieved;  // memory ids the context holds (recorded once it is out)
  std::vector<std::string> notes;      // for stderr: what was left out, and why
};

// Computes the answer for `payload` against the vault of `repo` (which must have a work tree).
// Records the event of a tool failure or session end itself. Throws gv::Error when the vault
// cannot be read or the event cannot be written (the caller turns that into a note).
[[nodiscard]] HookAnswer answer_hook(const HookPayload& payload, git::Repo& repo, ParseCache* cache,
                                     const HookSetting& setting);

// Appends a retrieval of each id to the journal, with the agent's session id. False when the
// deadline passed while a fold held the journal. Throws gv::Error on I/O failure.
bool record_hook_retrievals(const git::Repo& repo, const std::vector<std::string>& ids,
                            const HookPayload& payload, const HookSetting& setting);

// The bytes the agent reads on stdout for `context`: the text itself for Claude Code (which adds
// a SessionStart or UserPromptSubmit hook's stdout to the context), the JSON
// `{"hookSpecificOutput": {"hookEventName", "additionalContext"}}` for Gemini CLI and Codex,
// whose hooks answer in JSON. Empty for empty context.
[[nodiscard]] std::string hook_output(HookAgent agent, std::string_view event_name,
                                      std::string_view context);

// Claude Code gives a SessionStart hook a file (CLAUDE_ENV_FILE) whose `export` lines set the
// environment of the agent's later shell commands: `GIT_VAULT_AGENT_SESSION` there lets a
// `git vault events add` the agent runs join its session. A session id of other characters than
// letters, digits, `-` and `_` is not written (it would be shell text). Throws gv::Error.
void export_agent_session(const std::filesystem::path& env_file, std::string_view agent_session);

}  // namespace gv::agent
