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

}  // namespace gv::events
