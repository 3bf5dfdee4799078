#pragma once

#include <cstddef>
#include <nlohmann/json.hpp>
#include <optional>
#include <string_view>
#include <utility>
#include <vector>

namespace gv::recall {

// One field value of a metadata record as read, before it is interpreted. The fast path below
// reads only strings, booleans and null; the general reader points `node` at its document's
// value, whatever its type.
struct RawValue {
  enum class Kind { null, boolean, string, other };
  Kind kind = Kind::null;
  bool boolean = false;
  std::string_view text;                 // Kind::string: the string's bytes
  const nlohmann::json* node = nullptr;  // the general reader's value, when it read this one

  // The value as JSON text, for messages, and as a JSON value, for fields kept as written.
  [[nodiscard]] std::string dump() const;
  [[nodiscard]] nlohmann::json to_json() const;
};

// One record of metadata.json as read: its key as written, the line the key is on (0 when the
// reader did not note it), and its fields in the order read.
struct RawRecord {
  std::string_view key;
  std::size_t line = 0;
  std::vector<std::pair<std::string_view, RawValue>> fields;

  [[nodiscard]] const RawValue* find(std::string_view field) const;
};

// The fast path of parse_metadata for the files git-vault and the plugin write: an object of
// flat objects whose values are strings, true, false or null. One pass over the bytes, with no
// JSON document built: at 50,000 entries the document was most of what `recall maintain` held
// (doc/performance.md, "Working memory of 50,000 entries"). Records come back sorted by key.
// nullopt for anything else (bad JSON, a nested or numeric value, an escape in a string, a key
// twice), and the caller then runs the general reader, which decides.
[[nodiscard]] std::optional<std::vector<RawRecord>> scan_flat_metadata(std::string_view bytes);

}  // namespace gv::recall
