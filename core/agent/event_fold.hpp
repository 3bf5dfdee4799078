#pragma once

#include <cstddef>
#include <optional>
#include <string>

#include "core/dates.hpp"
#include "core/git/transaction.hpp"

namespace gv {
class Snapshot;
namespace git {
class Repo;
}
}  // namespace gv

// Folding this clone's event journal into specs/events.jsonl (doc/decisions.md, D20): before a
// maintenance action lands, the journal's events are appended to the committed store as one
// commit, `vault(events): fold N events into specs/events.jsonl`, and dropped from the journal,
// keeping whatever was appended meanwhile.
namespace gv::agent {

struct EventFold {
  std::optional<std::string> store;  // the new specs/events.jsonl; nullopt: nothing to commit
  std::size_t events = 0;            // events the commit adds to the store
  std::size_t already_stored = 0;    // journal events the store holds already (a fold cut short)
  std::size_t bad_lines = 0;         // journal lines that are not events, dropped
  std::size_t journal_bytes = 0;     // the journal's size as read: what to drop once committed
  // Why the journal stays as it is this time (specs/events.jsonl has uncommitted changes, which
  // a vault commit must never take); empty otherwise.
  std::string kept;
};

// What folding the journal of `repo` into the store of `work_tree` would commit. The store's own
// bytes are kept as they are; journal events whose ids it already holds are not added twice.
// Throws gv::Error when the journal cannot be read.
[[nodiscard]] EventFold plan_event_fold(const git::Repo& repo, const Snapshot& work_tree);

struct EventFoldResult {
  std::optional<std::string> commit;  // nullopt when there was nothing to commit
  std::size_t events = 0;
  std::size_t bad_lines = 0;
  std::string kept;  // EventFold::kept
};

// Plans the fold, lands it as its own commit and drops the folded part of the journal. A crash
// between the commit and the drop folds nothing twice: those events are in the store by then.
// Throws gv::Error (the landing's refusals included).
EventFoldResult fold_event_journal(git::Repo& repo, Date today);

}  // namespace gv::agent
