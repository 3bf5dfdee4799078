#pragma once

#include <cstdint>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "core/dates.hpp"
#include "core/util/locked_append.hpp"

// `git vault events add`: one event, from flags, from a JSON event, or from an agent's hook
// payload, checked against the schema and the secret scanner, appended to this clone's event
// journal (doc/telemetry.md, "Writing events"; doc/decisions.md, D20).
namespace gv::agent {

// What the command line gave. Flags win over the same field of the JSON object.
struct EventRequest {
  std::optional<std::string> category;
  std::optional<std::string> event_type;
  std::optional<std::string> message;
  std::optional<std::int64_t> task;
  std::optional<std::string> checkpoint;
  std::optional<std::string> session;        // sess_…
  std::optional<std::string> agent_session;  // the agent's own session id (cc_session_id)
  std::optional<std::string> detail;         // a JSON object, as text
  std::optional<double> duration_seconds;
  std::optional<std::string> error_ref;
  std::optional<std::string> cwd;
  // The JSON object read with --stdin: an event (its fields), or a hook payload (the agent's
  // session and directory; for a tool failure or a session end, the event it records).
  std::optional<std::string> input;
};

// What the event is written against.
struct EventSetting {
  std::filesystem::path common_dir;  // the clone's git directory: journal and sessions map
  std::filesystem::path workdir;     // the repository's top (checkpoint paths are relative to it)
  Instant now;
  std::int64_t millisecond = 0;  // added to `now` for the event id and timestamp
  std::string cwd;               // the invoking directory, when nothing gives one
  std::string agent = "claude";  // whose hook payload this is (names in messages)
  // The agent session an event joins when nothing else names one (GIT_VAULT_AGENT_SESSION, which
  // the SessionStart hook exports into the agent's shell).
  std::string agent_session;
  util::LockDeadline deadline;  // agent hooks give up at their time cap
};

// The event the request describes, complete and checked: a missing `event_id` or `timestamp` is
// made from the clock; the `session_id` is the one given, else the one this clone keeps for the
// agent session (agent_sessions.hpp), else a new one (an event of its own session). Throws
// UsageError naming what is wrong (a field of the schema, an unreadable object, a hook payload
// that records no event by itself), gv::Error when the sessions map cannot be used.
[[nodiscard]] nlohmann::ordered_json build_event(const EventRequest& request,
                                                 const EventSetting& setting);

// Refuses (gv::Error) an event whose message, checkpoint or any string of its detail looks like
// a credential (doc/agent.md, "Secrets"), naming the field, the line and the kind, never the
// secret: nothing of it reaches the disk.
void refuse_secrets(const nlohmann::ordered_json& event);

// Appends the event's line to the journal. False only when `deadline` passed while a fold held
// the journal. Throws gv::Error on I/O failure.
bool append_event(const std::filesystem::path& common_dir, const nlohmann::ordered_json& event,
                  util::LockDeadline deadline = std::nullopt);

// build_event, refuse_secrets and append_event: what `events add` and the agent hooks do.
// Returns the event written; nullopt when the deadline passed.
std::optional<nlohmann::ordered_json> record_event(const EventRequest& request,
                                                   const EventSetting& setting);

}  // namespace gv::agent
