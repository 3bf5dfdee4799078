#pragma once

#include <cstddef>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>

// Writing one event (doc/telemetry.md, "Writing events"): the schema a writer must meet, which is
// stricter than what the reader accepts (event.hpp), since a line written now is read by every
// later tool; and the ids and timestamps a writer makes.
namespace gv::events {

// `evt_{timestamp_ms}_{6 letters or digits}`.
[[nodiscard]] bool valid_event_id(std::string_view id);
// `sess_{digits}_{letters or digits}`: the agent system's session id, never an agent's own UUID.
[[nodiscard]] bool valid_session_id(std::string_view id);
// An ISO 8601 date-time: `YYYY-MM-DDTHH:MM:SS`, optional fraction, then `Z` or `±HH:MM`.
[[nodiscard]] bool valid_timestamp(std::string_view text);

// `count` random letters and digits (from the system's random source).
[[nodiscard]] std::string random_alnum(std::size_t count);
[[nodiscard]] std::string make_event_id(std::int64_t timestamp_ms, std::string_view random6);
[[nodiscard]] std::string make_session_id(std::int64_t seconds, std::string_view random);
// `2026-07-15T10:22:36.456Z`.
[[nodiscard]] std::string format_timestamp_ms(std::int64_t timestamp_ms);

// The fields of the schema, in the order a line carries them.
inline constexpr std::string_view k_event_fields[] = {
    "event_id",   "event_type", "category",     "timestamp", "duration_seconds",
    "session_id", "task",       "checkpoint",   "message",   "detail",
    "error_ref",  "cwd",        "cc_session_id"};

// Why `object` is not an event a writer may append, or nullopt: a required field missing or
// empty (`event_id`, `event_type`, `category`, `timestamp`, `session_id`, `message`), an id,
// session id or timestamp of the wrong shape, a category outside the four, a field of the wrong
// type, a message over one line, or a key the schema does not have.
[[nodiscard]] std::optional<std::string> check_event(const nlohmann::ordered_json& object);

// The line to append for a checked event: every field of the schema in order (absent ones as
// null, `detail` as `{}`), compact, with its newline.
[[nodiscard]] std::string event_line(const nlohmann::ordered_json& object);

}  // namespace gv::events
