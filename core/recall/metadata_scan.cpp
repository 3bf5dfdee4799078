#include "core/recall/metadata_scan.hpp"

#include <algorithm>
#include <string>

#include "core/util/json_scanner.hpp"

namespace gv::recall {
namespace {

// A field value the fast path answers for: a string without escapes, true, false or null.
bool scan_value(util::JsonScanner& in, RawValue& value) {
  switch (in.peek()) {
    case '"': {
      bool escaped = false;
      value.kind = RawValue::Kind::string;
      return in.string(value.text, escaped) && !escaped;
    }
    case 't':
      value.kind = RawValue::Kind::boolean;
      value.boolean = true;
      return in.literal("true");
    case 'f':
      value.kind = RawValue::Kind::boolean;
      return in.literal("false");
    case 'n':
      value.kind = RawValue::Kind::null;
      return in.literal("null");
    default:
      return false;
  }
}

// Keys are compared as nlohmann's std::map compares them: by byte.
bool key_less(const RawRecord& a, const RawRecord& b) { return a.key < b.key; }

}  // namespace

std::string RawValue::dump() const { return to_json().dump(); }

nlohmann::json RawValue::to_json() const {
  if (node != nullptr) {
    return *node;
  }
  switch (kind) {
    case Kind::boolean:
      return boolean;
    case Kind::string:
      return std::string{text};
    case Kind::null:
    case Kind::other:
      break;
  }
  return nullptr;
}

const RawValue* RawRecord::find(std::string_view field) const {
  for (const auto& [name, value] : fields) {
    if (name == field) {
      return &value;
    }
  }
  return nullptr;
}

std::optional<std::vector<RawRecord>> scan_flat_metadata(std::string_view bytes) {
  util::JsonScanner in(bytes);
  std::vector<RawRecord> records;
  // Lines are counted from the last key's offset on, so the whole file is counted once.
  std::size_t counted_to = 0;
  std::size_t line = 1;
  const bool read = in.object([&](std::string_view key) {
    RawRecord record;
    record.key = key;
    const auto key_at = static_cast<std::size_t>(key.data() - bytes.data());  // a view into it
    line += static_cast<std::size_t>(
        std::count(bytes.begin() + static_cast<std::ptrdiff_t>(counted_to),
                   bytes.begin() + static_cast<std::ptrdiff_t>(key_at), '\n'));
    counted_to = key_at;
    record.line = line;
    if (in.peek() != '{') {
      return false;
    }
    const bool fields = in.object([&](std::string_view field) {
      RawValue value;
      if (record.find(field) != nullptr || !scan_value(in, value)) {
        return false;
      }
      record.fields.emplace_back(field, value);
      return true;
    });
    if (!fields) {
      return false;
    }
    records.push_back(std::move(record));
    return true;
  });
  if (!read || !in.at_end()) {
    return std::nullopt;
  }
  std::sort(records.begin(), records.end(), key_less);
  const auto repeated =
      std::adjacent_find(records.begin(), records.end(),
                         [](const RawRecord& a, const RawRecord& b) { return a.key == b.key; });
  if (repeated != records.end()) {
    return std::nullopt;  // the general reader keeps the last; leave that to it
  }
  return records;
}

}  // namespace gv::recall
