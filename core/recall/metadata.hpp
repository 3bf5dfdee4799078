#pragma once

#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "core/finding.hpp"
#include "core/recall/ids.hpp"

namespace gv::recall {

inline constexpr std::string_view k_metadata_path = "memory/.recall/metadata.json";

// One record of metadata.json. Timestamps stay the strings they were written as: the file is
// rewritten byte-for-byte unless a value really changes, and interpreting them is the reader's
// job. Missing `pinned`, `snoozed_until` and `status` read as false, null and "active" and are
// written out explicitly; missing timestamps and tier stay missing.
struct Record {
  std::optional<std::string> created_at;
  std::optional<std::string> last_reviewed_at;
  bool pinned = false;
  std::optional<std::string> snoozed_until;
  std::string status = "active";
  std::string tier;      // empty when absent
  nlohmann::json extra;  // unknown keys, kept on rewrite; null when there are none
};

// Keyed by id without the caret; std::map keeps byte order, the order the file is written in.
using Metadata = std::map<std::string, Record>;

struct MetadataRead {
  Metadata records;
  std::vector<Finding> findings;  // `metadata` warnings about variants read leniently
};

// Reads metadata.json. Variants seen in real vaults are read and reported as warnings: keys
// with a caret (`^tr…`) or without `tr` (bare 10 hex) are normalised to `tr…`; a tier written as
// a file path becomes the tier of that path; date-only timestamps and unknown statuses are kept.
// Throws gv::Error (`path:line: …`) when the bytes are not JSON, or not an object of objects.
// The common flat shape is read without a JSON document (core/recall/metadata_scan.hpp).
[[nodiscard]] MetadataRead parse_metadata(std::string_view bytes, std::string_view path);

// parse_metadata without its fast path: the general reader, which the fast path must agree with
// wherever it answers.
[[nodiscard]] MetadataRead parse_metadata_fully(std::string_view bytes, std::string_view path);

// Deterministic bytes: keys sorted by byte at every level, 2-space indent, `": "` separators,
// raw UTF-8, one trailing newline. Equals Python's
// `json.dumps(obj, indent=2, sort_keys=True, ensure_ascii=False) + "\n"`.
[[nodiscard]] std::string serialize_metadata(const Metadata& metadata);

[[nodiscard]] std::set<std::string> metadata_ids(const Metadata& metadata);

// Adds a fresh record (created and reviewed `now`, not pinned, not snoozed, active, tier from
// the file) for every inline id that has none. Returns how many were added.
int add_missing_records(Metadata& metadata, const std::vector<InlineId>& inline_ids,
                        std::string_view now);

// Sets each inline id's recorded tier to its file's tier (the file is authoritative). Returns
// how many records changed. Orphans are left alone.
int recompute_tiers(Metadata& metadata, const std::vector<InlineId>& inline_ids);

}  // namespace gv::recall
