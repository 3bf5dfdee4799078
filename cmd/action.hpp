#pragma once

#include <string>

#include "core/dates.hpp"
#include "core/distill/finish.hpp"
#include "core/git/repo.hpp"

namespace gv {
class Snapshot;
class ParseCache;
}  // namespace gv

namespace gv::cmd {

struct Globals;

// How a mutating run lands: as one commit (default), or only in the work tree.
struct LandingFlags {
  bool no_commit = false;
  bool allow_dirty = false;
};

// The paths a distill action may rewrite; they must be clean before it starts (D7).
inline const std::vector<std::string> k_distill_guarded_paths = {".memory/", "specs/state.json"};

// Finishes `draft` (index regeneration, log entry, memory_health) against the work tree state
// `before` and applies it as exactly one commit (or, with --no-commit, to the work tree only).
// Prints `{"schema":1,"commit":…,"log_id":…}` with --json, a one-line note with -v, nothing
// otherwise. Returns the exit code.
int land_action(git::Repo& repo, const Snapshot& before, distill::ActionDraft draft,
                const Clock& clock, const LandingFlags& flags, const Globals& globals,
                ParseCache* cache = nullptr);

}  // namespace gv::cmd
