#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

#include "core/dates.hpp"
#include "core/util/locked_append.hpp"

// An agent's own session ids (Claude Code's UUIDs) and the `sess_…` ids events carry are two
// unrelated spaces (doc/telemetry.md, "Writing events"): an event keeps the agent's id in
// `cc_session_id`, and its `session_id` is minted by git-vault the first time that agent session
// records an event in this clone, then reused, so that every event of one agent session counts as
// one session for the three-strikes rule. The map is a per-clone file in the git directory.
namespace gv::agent {

// `<common git dir>/git-vault/agent-sessions.jsonl`: one line per agent session,
// `{"agent_session":…,"session_id":…,"first_seen":…}`.
[[nodiscard]] std::filesystem::path agent_sessions_path(const std::filesystem::path& common_dir);

// The `sess_…` id recorded for `agent_session`, minting `sess_<now>_<random>` and recording it
// when there is none: the lookup and the append hold one lock, so two hooks of one new agent
// session never mint two ids. nullopt when `deadline` passed first. Throws gv::Error on I/O
// failure.
[[nodiscard]] std::optional<std::string> session_for(const std::filesystem::path& file,
                                                     std::string_view agent_session, Instant now,
                                                     util::LockDeadline deadline = std::nullopt);

}  // namespace gv::agent
