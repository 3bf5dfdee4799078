#pragma once

#include "core/distill/finish.hpp"
#include "core/git/repo.hpp"
#include "core/git/transaction.hpp"

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
// work tree state `before`, with the session's repository, clock and parse cache, then prints
// `{"schema":1,"commit":…,"log_id":…}` with --json, a one-line note with -v, nothing
// otherwise. Returns the exit code.
int land_action(Session& session, const Snapshot& before, distill::ActionDraft draft,
                const LandingFlags& flags);

}  // namespace gv::cmd
