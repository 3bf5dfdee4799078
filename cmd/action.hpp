#pragma once

#include <string>
#include <vector>

#include "core/distill/finish.hpp"
#include "core/git/repo.hpp"
#include "core/git/transaction.hpp"
#include "core/plan.hpp"

namespace gv {
class Snapshot;
class Session;
}  // namespace gv

namespace gv::cmd {

// How a mutating run lands, as its flags say: as one commit (default), or only in the work
// tree.
struct LandingFlags {
  bool no_commit = false;
  bool allow_dirty = false;
  // What the run read its vault from (git::capture_read_state, taken before the read); the
  // landing refuses when it moved meanwhile.
  std::optional<git::ReadState> read_state;
};

// Lands `draft` as a distill action through landing::land (core/landing/land.hpp) against the
// work tree state `before`, with the session's repository, clock and parse cache. Once it has
// landed: `{"schema":1,"commit":…,"log_id":…}` on stdout with --json (and `summary` on stderr);
// otherwise `summary` on stdout, then on stderr git's commit line (`[main 1a2b3c4]
// vault(purge): …`) and the command that undoes it, or, with --no-commit, the message to commit
// the files with; -q leaves those out. Returns the exit code.
// For --allow-dirty, since the user's own edits are involved: which uncommitted files (`dirty`)
// the plan rewrites (their current content goes into its commit) and which stay out of the
// commit as they are. Printed as notes on stderr.
void say_what_allow_dirty_does(const std::vector<std::string>& dirty, const Plan& plan);

int land_action(Session& session, const Snapshot& before, distill::ActionDraft draft,
                const LandingFlags& flags, const std::string& summary = {});

}  // namespace gv::cmd
