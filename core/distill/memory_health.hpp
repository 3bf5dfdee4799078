#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/dates.hpp"

namespace gv::distill {

inline constexpr std::string_view k_state_path = "specs/state.json";

// A sub-mode's cursor (`last_<name>`, `<name>_count`) as it was before a run that a revert
// undoes: nullopt where the key was absent, and is removed again.
struct CursorRestore {
  std::string name;  // revise, dream
  std::optional<std::string> last;
  std::optional<std::int64_t> count;

  friend bool operator==(const CursorRestore&, const CursorRestore&) = default;
};

// The `memory_health` refresh every distill run makes (D8).
struct HealthRefresh {
  Instant now;
  std::int64_t total_memories = 0;   // memory files on disk, tombstoned included
  std::int64_t never_retrieved = 0;  // of those, retrieval_count == 0
  std::int64_t health_score = 100;
  std::string status;             // healthy, manageable, concerning, critical
  bool changed_memories = false;  // bumps distill_count (runs that changed a memory file)
  // A sub-mode's own cursor (`revise`, `dream`): `last_<cursor>` = now, `<cursor>_count` + 1.
  std::string cursor;
  // A revert's cursors, put back as they were before the run it undoes.
  std::vector<CursorRestore> restore;
};

// What a revert does with each sub-mode cursor the undone run moved.
struct CursorsOnRevert {
  // Cursors still where the run left them: put back, so that the next run is offered the same
  // events or prompts again.
  std::vector<CursorRestore> restore;
  // Cursors a later run has moved on since, by name: left as they are, since putting them back
  // would offer that run's input a second time.
  std::vector<std::string> moved_on;
};

// The sub-mode cursors (`last_<name>` other than `last_distilled`) that `specs/state.json`
// changed from `before` (the undone run's parent) to `after` (its commit), judged against
// `now` (HEAD). Texts that are missing or not JSON hold no cursors. Pure.
[[nodiscard]] CursorsOnRevert cursors_on_revert(std::optional<std::string_view> before,
                                                std::optional<std::string_view> after,
                                                std::optional<std::string_view> now);

// Returns the new text of `specs/state.json` with `memory_health` refreshed. Only the value of
// the top-level `memory_health` key is rewritten; every other byte of the file stays as it was
// (the rest of state.json belongs to other tools). A missing file becomes `{"memory_health":…}`.
// Throws gv::Error `path:line:` when the existing text is not a JSON object.
[[nodiscard]] std::string refresh_memory_health(std::optional<std::string_view> existing,
                                                const HealthRefresh& refresh);

// The value of `memory_health.last_<cursor>` in the text of `specs/state.json` (a sub-mode's
// `--since` cursor), or nullopt when the file, the key or a string value is missing. Never
// throws: a state file that cannot be read has no cursor.
[[nodiscard]] std::optional<std::string> read_health_cursor(std::optional<std::string_view> state,
                                                            std::string_view cursor);

}  // namespace gv::distill
