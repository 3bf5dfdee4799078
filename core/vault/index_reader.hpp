#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/dates.hpp"
#include "core/finding.hpp"

namespace gv {

// What the rest of the tool needs from an existing entry: the retrieval bookkeeping that the
// original scripts kept only in the index (D4).
struct IndexEntryRecord {
  std::string id;
  std::int64_t retrieval_count = 0;
  std::optional<Date> last_retrieved;
  // The entry's `tombstoned_at` when it is a string (indexes written by the original scripts
  // may hold the date a memory file lacks); not checked here.
  std::optional<std::string> tombstoned_at;
};

// An existing memory-index.json as read, in any observed variant.
struct ExistingIndex {
  std::vector<IndexEntryRecord> entries;  // file order; entries without a string id are skipped
};

struct IndexReadResult {
  std::optional<ExistingIndex> index;  // nullopt when the bytes are not a JSON object
  std::vector<Finding> findings;       // check `stale-index`: the fix is always a regeneration
};

// Reads an existing memory-index.json. Accepts `version` "1.0.0" or 1, a date or datetime
// `generated_at`, missing optional keys and extra keys. Invalid JSON gives one error finding
// with the 1-based line of the fault; entries whose id, retrieval_count or last_retrieved cannot
// be read give warnings and fall back to "never retrieved". Never throws on bad bytes.
[[nodiscard]] IndexReadResult read_index(std::string_view path, std::string_view bytes);

// read_index without its fast path (core/vault/index_scan.hpp): the general reader, which the
// fast path must agree with wherever it answers.
[[nodiscard]] IndexReadResult read_index_fully(std::string_view path, std::string_view bytes);

}  // namespace gv
