#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <variant>

// One line of the event store `specs/events.jsonl` (doc/telemetry.md, "The event store"): what
// the agent recorded at a checkpoint of a task, one compact JSON object per line.
namespace gv::events {

inline constexpr std::string_view k_events_path = "specs/events.jsonl";

// The four categories the schema allows.
[[nodiscard]] bool known_category(std::string_view category);

struct Event {
  std::string event_id;
  std::string event_type;
  std::string category;   // deviation, blocker, milestone or success
  std::string timestamp;  // as written (ISO 8601); compared as text, like the original reader
  std::string session_id;
  std::string message;
  std::optional<std::int64_t> task;
  std::optional<std::string> checkpoint;
  std::optional<std::string> cwd;
  std::optional<std::string> cc_session_id;
  std::optional<std::string> error_ref;
  nlohmann::ordered_json detail = nlohmann::ordered_json::object();
  // The whole line as parsed, keys in the order written: what `git vault events` prints.
  nlohmann::ordered_json raw;

  // `basename(cwd)` without trailing slashes: the repository the event came from. Never stored
  // in the file; nullopt when `cwd` is null or absent.
  [[nodiscard]] std::optional<std::string> repo() const;
};

// `repo` as the original reader derives it from a `cwd` value.
[[nodiscard]] std::optional<std::string> repo_of_cwd(const std::optional<std::string>& cwd);

// Parses one line (without its newline; a trailing `\r` is ignored). Returns the event, or why
// the line is not one: not JSON, not an object, a required field missing or of the wrong type,
// a category outside the four. Unknown keys are kept (stores written by newer tools carry
// them). Never throws.
[[nodiscard]] std::variant<Event, std::string> parse_event_line(std::string_view line);

// The filters of the original `events-query.sh`: exact matches, all AND-ed.
struct EventFilter {
  std::optional<std::string> session;     // session_id
  std::optional<std::string> task;        // compared with the task as text (`259`; null: `null`)
  std::optional<std::string> category;    // category
  std::optional<std::string> event_type;  // event_type
  std::optional<std::string> checkpoint;  // checkpoint
  std::optional<std::string> since;       // timestamp >= since, as text (inclusive)
  std::optional<std::string> until;       // timestamp <= until, as text (inclusive)
  std::optional<std::string> repo;        // the derived repo; an event without cwd never matches

  [[nodiscard]] bool matches(const Event& event) const;
};

// `summary-counts`: how many events matched, by category, event type and repository.
struct SummaryCounts {
  std::size_t total_events = 0;
  std::map<std::string, std::size_t> by_category;
  std::map<std::string, std::size_t> by_event_type;
  std::map<std::string, std::size_t> by_repo;  // an event without a repo counts under `null`

  void add(const Event& event);
  // `{"total_events", "by_category", "by_event_type", "by_repo"}`; a missing store has no
  // `by_repo` (as the original reader prints it).
  [[nodiscard]] nlohmann::ordered_json to_json(bool store_exists) const;
};

// The line the `jsonl` format prints for `event`: its fields as written plus `repo`, compact.
[[nodiscard]] nlohmann::ordered_json output_row(const Event& event);

}  // namespace gv::events
