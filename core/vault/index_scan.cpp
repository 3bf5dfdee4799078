#include "core/vault/index_scan.hpp"

#include <cstdint>
#include <string>

#include "core/util/json_scanner.hpp"

namespace gv {
namespace {

using Scanner = util::JsonScanner;

// One element of `entries`, which must read cleanly: an object with a non-empty string id, a
// non-negative integer retrieval_count when present, a date (or null, or "") as
// last_retrieved, and no key twice.
bool scan_entry(Scanner& in, IndexEntryRecord& record) {
  bool seen_id = false;
  bool seen_count = false;
  bool seen_last = false;
  bool seen_tombstoned = false;
  const bool read = in.object([&](std::string_view key) {
    bool escaped = false;
    if (key == "id") {
      std::string_view id;
      if (seen_id || in.peek() != '"' || !in.string(id, escaped) || escaped || id.empty()) {
        return false;
      }
      seen_id = true;
      record.id = std::string(id);
      return true;
    }
    if (key == "retrieval_count") {
      std::int64_t count = 0;
      if (seen_count || !in.integer(count) || count < 0) {
        return false;
      }
      seen_count = true;
      record.retrieval_count = count;
      return true;
    }
    if (key == "last_retrieved") {
      if (seen_last) {
        return false;
      }
      seen_last = true;
      if (in.peek() == 'n') {
        return in.literal("null");
      }
      std::string_view date;
      if (in.peek() != '"' || !in.string(date, escaped) || escaped) {
        return false;
      }
      if (!date.empty()) {
        record.last_retrieved = parse_date(date);
      }
      return date.empty() || record.last_retrieved.has_value();
    }
    if (key == "tombstoned_at") {
      if (seen_tombstoned) {
        return false;
      }
      seen_tombstoned = true;
      if (in.peek() != '"') {
        return in.skip_value();
      }
      std::string_view text;
      if (!in.string(text, escaped) || escaped) {
        return false;
      }
      record.tombstoned_at = std::string(text);
      return true;
    }
    return in.skip_value();
  });
  return read && seen_id;
}

}  // namespace

std::optional<ExistingIndex> scan_clean_index(std::string_view bytes) {
  Scanner in(bytes);
  ExistingIndex index;
  bool seen_entries = false;
  const bool read = in.object([&](std::string_view key) {
    if (key != "entries") {
      return in.skip_value();
    }
    if (seen_entries) {
      return false;
    }
    seen_entries = true;
    return in.array([&] {
      IndexEntryRecord record;
      if (!scan_entry(in, record)) {
        return false;
      }
      index.entries.push_back(std::move(record));
      return true;
    });
  });
  if (!read || !in.at_end() || !seen_entries) {
    return std::nullopt;
  }
  return index;
}

}  // namespace gv
