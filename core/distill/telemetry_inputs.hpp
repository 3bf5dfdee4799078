#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "core/dates.hpp"
#include "core/distill/learn_rules.hpp"
#include "core/distill/term_scoring.hpp"
#include "core/events/event_store.hpp"
#include "core/events/history.hpp"

namespace gv {
class Snapshot;
}

namespace gv::distill {

// One memory to write through `git vault learn`'s creation primitives (doc/telemetry.md, "Writing
// memories"): CREATE a new memory, UPDATE a memory (its main content moves under `## History`), or
// EXTEND one with a dated section.
struct MemoryWrite {
  HarvestOp op = HarvestOp::create;
  std::string target_id;  // UPDATE/EXTEND
  std::string title;
  std::string content;   // Markdown, no frontmatter
  std::string category;  // empty: the nearest memory's, else INSIGHT
  std::string topic;     // empty: the nearest memory's
  std::vector<std::string> keywords;
  std::string source;
};

// The file a write produced.
struct WrittenMemory {
  std::string id;
  std::string path;
  std::string bytes;
};

// Writes one memory over `before` (which already holds the run's earlier writes) and returns
// the file; the index files are the skeleton's to regenerate. Throws gv::Error.
using MemoryWriter =
    std::function<WrittenMemory(const Snapshot& before, const MemoryWrite& write, Date today)>;

// What the telemetry sub-modes read beyond the vault and the primitives they borrow, passed in
// so that they stay functions of their context (doc/telemetry.md): the event store and the
// prompt history are files outside the vault (the history outside the repository), read by
// the command; the term primitives and the memory writer belong to `git vault learn`.
struct TelemetryInputs {
  // The events of specs/events.jsonl that pass a filter. The reader reports invalid lines. The
  // sub-modes call both readers through read_events / read_history
  // (core/distill/telemetry_support.hpp), which withhold secrets.
  std::function<events::EventQuery(const events::EventFilter& filter)> read_events;
  // This repository's prompts newer than `since_ms` (all when nullopt).
  std::function<events::HistoryQuery(std::optional<std::int64_t> since_ms)> read_history;
  std::string history_path;  // where the history was looked for, for messages
  std::string repo_root;     // the repository's top directory (meta's target)
  TermScoring terms;
  MemoryWriter write_memory;
  bool otel_enabled = false;  // CLAUDE_CODE_ENABLE_TELEMETRY=1 in the environment
};

}  // namespace gv::distill
