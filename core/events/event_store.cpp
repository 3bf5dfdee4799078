#include "core/events/event_store.hpp"

#include <cerrno>
#include <cstring>
#include <fstream>
#include <variant>

#include "core/error.hpp"
#include "core/events/line_reader.hpp"
#include "core/util/text.hpp"

namespace gv::events {

ScanStats scan_events(std::istream& in, const EventVisitor& visit,
                      const InvalidVisitor& on_invalid) {
  ScanStats stats;
  LineReader reader(in);
  std::string_view line;
  while (reader.next(line)) {
    ++stats.lines;
    if (reader.too_long()) {
      ++stats.invalid;
      on_invalid({reader.line_number(), "line too long"});
      continue;
    }
    if (util::trim(line).empty()) {
      continue;
    }
    std::variant<Event, std::string> parsed = parse_event_line(line);
    if (auto* why = std::get_if<std::string>(&parsed)) {
      ++stats.invalid;
      // A last line without its newline is what an interrupted append leaves behind.
      on_invalid(
          {reader.line_number(), reader.unterminated() ? *why + " (truncated last line)" : *why});
      continue;
    }
    ++stats.events;
    visit(std::get<Event>(parsed));
  }
  return stats;
}

ScanStats scan_event_file(const std::filesystem::path& file, const EventVisitor& visit,
                          const InvalidVisitor& on_invalid) {
  std::error_code error;
  if (!std::filesystem::exists(file, error)) {
    ScanStats stats;
    stats.exists = false;
    return stats;
  }
  std::ifstream in(file, std::ios::binary);
  if (!in) {
    throw Error("{}: cannot read: {}", file.string(), std::strerror(errno));
  }
  ScanStats stats = scan_events(in, visit, on_invalid);
  if (in.bad()) {
    throw Error("{}: cannot read: {}", file.string(), std::strerror(errno));
  }
  return stats;
}

EventQuery query_events(const std::filesystem::path& file, const EventFilter& filter) {
  EventQuery query;
  query.stats = scan_event_file(
      file,
      [&](const Event& event) {
        if (filter.matches(event)) {
          query.events.push_back(event);
        }
      },
      [&](const InvalidLine& invalid) {
        if (query.invalid.size() < k_max_reported_invalid) {
          query.invalid.push_back(invalid);
        }
      });
  return query;
}

}  // namespace gv::events
