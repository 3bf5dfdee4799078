#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

// Hooks in an agent's JSON settings (doc/agent.md, "Wiring an agent"). Claude Code
// (`.claude/settings.json`), Gemini CLI (`.gemini/settings.json`) and Codex (`.codex/hooks.json`)
// share one shape: `{"hooks": {"<Event>": [{"matcher": …, "hooks": [<handler>, …]}, …]}}`.
// git-vault adds one group per event whose handler runs `git-vault agent-hook`, and recognises
// its own handlers by that command, so it takes out exactly those and keeps every other byte.
namespace gv::agent {

// The command every handler git-vault writes starts with.
inline constexpr std::string_view k_agent_hook_command = "git-vault agent-hook";

struct HookEntry {
  std::string event;
  std::optional<std::string> matcher;
  nlohmann::ordered_json handler;  // {"type": "command", "command": …, "timeout": …}
};

struct HookEdit {
  std::string text;                 // the settings file after the edit
  std::vector<std::string> events;  // the events whose entries were added (or removed)
};

// `existing` (nullopt: no file yet) with each entry added where no handler of that event runs
// its command already: into the event's list, creating the list and the `hooks` object when they
// are missing, laid out like the file around them. Throws gv::Error (`path:line: …`) when the
// text is not JSON, or `hooks` or an event's list has another shape, so nothing is overwritten.
[[nodiscard]] HookEdit add_hooks(std::string_view path, std::optional<std::string_view> existing,
                                 const std::vector<HookEntry>& entries);

// `existing` without the handlers whose command starts with k_agent_hook_command, and without the
// groups, event lists and `hooks` object they leave empty. Throws gv::Error as add_hooks does.
[[nodiscard]] HookEdit remove_hooks(std::string_view path, std::string_view existing);

// The events that have a handler running k_agent_hook_command in `existing`; empty when the text
// is not a settings object.
[[nodiscard]] std::vector<std::string> hooked_events(std::string_view existing);

// Whether a settings document holds nothing at all (`{}`): what removing git-vault's last entry
// from a file it created leaves, which is then deleted.
[[nodiscard]] bool empty_document(std::string_view text);

// The parsed document of a settings file, or gv::Error `path:line: not valid JSON (…); fix or
// remove it, then run `<again>` again` / `path: not a JSON object; …`.
[[nodiscard]] nlohmann::ordered_json read_settings(std::string_view path, std::string_view text,
                                                   std::string_view again);

}  // namespace gv::agent
