#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "core/events/event_store.hpp"

// The prompt history (`history.jsonl`, one file for every project the user works in): each line
// is a prompt with the project's path and the session it was typed in (doc/telemetry.md, "The
// prompt history").
namespace gv::events {

struct Prompt {
  std::string display;            // the prompt as typed
  std::int64_t timestamp_ms = 0;  // epoch milliseconds
  std::string project;            // absolute path of the directory it was typed in
  // The session it was typed in. Old histories have none: such prompts are grouped by the day
  // they were typed, so one long conversation never counts as many.
  std::string session_id;
  bool has_session = false;
};

// Parses one line. `timestamp` may be epoch milliseconds or an ISO-8601 instant; a missing or
// non-string `display`/`project` makes the line invalid; `pastedContents` of any shape is
// ignored. Never throws.
[[nodiscard]] std::variant<Prompt, std::string> parse_history_line(std::string_view line);

// Where the history is: `--history`, else git config `vault.history`, else
// `$HOME/.claude/history.jsonl`; nullopt when none is set and HOME is unknown.
[[nodiscard]] std::optional<std::filesystem::path> history_location(
    const std::optional<std::string>& flag, const std::optional<std::string>& config,
    const std::optional<std::string>& home);

// Whether `project` names the repository at `root` (trailing slashes ignored).
[[nodiscard]] bool same_project(std::string_view project, std::string_view root);

struct HistoryQuery {
  bool exists = false;
  std::vector<Prompt> prompts;       // this repository's prompts, in file order
  std::size_t other_projects = 0;    // prompts of other repositories, skipped
  std::vector<InvalidLine> invalid;  // the first k_max_reported_invalid of them
  std::size_t invalid_count = 0;
};

// The prompts of `file` typed in the repository at `root`, newer than `since_ms` when given.
// Streams the file (the history of every project may be large). A missing file reads as empty.
// Throws gv::Error when it exists but cannot be read.
[[nodiscard]] HistoryQuery read_history(const std::filesystem::path& file, std::string_view root,
                                        std::optional<std::int64_t> since_ms = std::nullopt);

}  // namespace gv::events
