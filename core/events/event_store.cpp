#include "core/events/event_store.hpp"

#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>
#include <unordered_set>
#include <variant>

#include "core/error.hpp"
#include "core/events/line_reader.hpp"
#include "core/util/locked_append.hpp"
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

std::filesystem::path event_journal_path(const std::filesystem::path& common_dir) {
  return common_dir / "git-vault" / "events.jsonl";
}

StoreFiles store_files(const std::filesystem::path& workdir,
                       const std::filesystem::path& common_dir) {
  StoreFiles files;
  files.store = workdir / std::string(k_events_path);
  files.journal = event_journal_path(common_dir);
  const std::filesystem::path relative = files.journal.lexically_relative(workdir);
  files.journal_label = !relative.empty() && !relative.string().starts_with("..")
                            ? relative.string()
                            : files.journal.string();
  return files;
}

ScanStats scan_store(const StoreFiles& files, const EventVisitor& visit,
                     const InvalidVisitor& on_invalid) {
  // The journal first, held: its ids say which of the store's events a fold has just copied
  // there, so each is shown once, in the journal's place.
  const std::optional<std::string> journal_bytes =
      util::read_locked(files.journal, "the event journal");
  std::vector<Event> journal_events;
  std::vector<InvalidLine> journal_invalid;
  ScanStats journal_stats;
  journal_stats.exists = journal_bytes.has_value();
  if (journal_bytes) {
    std::istringstream in(*journal_bytes);
    journal_stats = scan_events(
        in, [&](const Event& event) { journal_events.push_back(event); },
        [&](const InvalidLine& invalid) {
          journal_invalid.push_back(invalid);
          journal_invalid.back().file = files.journal_label;
        });
  }
  std::unordered_set<std::string> in_journal;
  for (const Event& event : journal_events) {
    in_journal.insert(event.event_id);
  }
  std::size_t shown_later = 0;
  ScanStats stats = scan_event_file(
      files.store,
      [&](const Event& event) {
        if (in_journal.contains(event.event_id)) {
          ++shown_later;
        } else {
          visit(event);
        }
      },
      [&](const InvalidLine& invalid) {
        InvalidLine named = invalid;
        named.file = std::string(k_events_path);
        on_invalid(named);
      });
  for (const Event& event : journal_events) {
    visit(event);
  }
  for (const InvalidLine& invalid : journal_invalid) {
    on_invalid(invalid);
  }
  stats.exists = stats.exists || journal_bytes.has_value();
  stats.lines += journal_stats.lines;
  stats.events += journal_stats.events - shown_later;
  stats.invalid += journal_stats.invalid;
  return stats;
}

EventQuery query_store(const StoreFiles& files, const EventFilter& filter) {
  EventQuery query;
  query.stats = scan_store(
      files,
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

std::optional<Event> first_event(const std::filesystem::path& file) {
  std::ifstream in(file, std::ios::binary);
  if (!in) {
    return std::nullopt;
  }
  LineReader reader(in);
  std::string_view line;
  while (reader.next(line)) {
    if (reader.too_long() || util::trim(line).empty()) {
      continue;
    }
    std::variant<Event, std::string> parsed = parse_event_line(line);
    if (auto* event = std::get_if<Event>(&parsed)) {
      return std::move(*event);
    }
  }
  return std::nullopt;
}

}  // namespace gv::events
