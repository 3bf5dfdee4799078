#pragma once

#include <cstddef>
#include <filesystem>
#include <functional>
#include <istream>
#include <string>
#include <vector>

#include "core/events/event.hpp"

// Streaming reader of the event store (doc/telemetry.md, "The event store"). The store is
// append-only and may be large, so it is never loaded whole: each line is parsed, offered to
// the caller and dropped.
namespace gv::events {

// A line that is not an event, with its 1-based number.
struct InvalidLine {
  std::size_t line = 0;
  std::string reason;
  std::string file = {};  // how messages name the file (scan_store sets it)
};

struct ScanStats {
  bool exists = true;  // false: the file is missing, which reads as an empty store
  std::size_t lines = 0;
  std::size_t events = 0;   // valid events read (before filtering)
  std::size_t invalid = 0;  // lines reported through on_invalid
};

using EventVisitor = std::function<void(const Event&)>;
using InvalidVisitor = std::function<void(const InvalidLine&)>;

// Calls `visit` for every event of `in` and `on_invalid` for every line that is not one (blank
// lines are neither). Never throws for bad content.
ScanStats scan_events(std::istream& in, const EventVisitor& visit,
                      const InvalidVisitor& on_invalid);

// The same over a file. A missing file is an empty store (`exists` false). Throws gv::Error
// `<path>: cannot read: …` when it exists but cannot be read.
ScanStats scan_event_file(const std::filesystem::path& file, const EventVisitor& visit,
                          const InvalidVisitor& on_invalid);

// The events of `file` that pass `filter`, in file order. For the sub-modes, whose queries
// (one category, events since a cursor) keep far fewer events than the store holds.
struct EventQuery {
  std::vector<Event> events;
  std::vector<InvalidLine> invalid;  // the first k_max_reported_invalid of them
  ScanStats stats;
};
inline constexpr std::size_t k_max_reported_invalid = 20;
[[nodiscard]] EventQuery query_events(const std::filesystem::path& file, const EventFilter& filter);

// The event journal `git vault events add` appends to: per clone, inside the git directory,
// beside the retrieval journal (doc/decisions.md, D20). The next maintenance commit folds it into
// specs/events.jsonl.
[[nodiscard]] std::filesystem::path event_journal_path(const std::filesystem::path& common_dir);

// The two files that hold a repository's events: the committed store and this clone's journal.
struct StoreFiles {
  std::filesystem::path store;    // <work tree>/specs/events.jsonl
  std::filesystem::path journal;  // <common git dir>/git-vault/events.jsonl
  std::string journal_label;      // how messages name the journal (relative to the work tree)
};
[[nodiscard]] StoreFiles store_files(const std::filesystem::path& workdir,
                                     const std::filesystem::path& common_dir);

// Every event of the store, then every event of the journal not already in the store (a fold
// that committed the journal's lines and has not yet removed them from the journal, or one
// running meanwhile, shows them once): one store as every reader sees it. Invalid lines are
// reported with their file. `exists` is true when either file exists. The journal is read whole
// (it holds what the last fold left, a few lines); the store a line at a time.
ScanStats scan_store(const StoreFiles& files, const EventVisitor& visit,
                     const InvalidVisitor& on_invalid);
[[nodiscard]] EventQuery query_store(const StoreFiles& files, const EventFilter& filter);

// The first event of `file` (the oldest of an append-only store), read no further than it;
// nullopt for a missing file or one without a valid event. Never throws.
[[nodiscard]] std::optional<Event> first_event(const std::filesystem::path& file);

}  // namespace gv::events
