#pragma once

#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "core/error.hpp"
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

// metadata.json cannot be read as records, so no recall command may rewrite it: its problem
// and where, with the way out. what() is `path:line: problem; fix: restore …`.
class MetadataError : public Error {
 public:
  MetadataError(std::string_view path, int line, std::string problem);
  [[nodiscard]] int line() const { return m_line; }
  [[nodiscard]] const std::string& problem() const { return m_problem; }
  // How to get a readable file back.
  [[nodiscard]] static std::string fix();

 private:
  int m_line;
  std::string m_problem;
};

// True when parse_metadata takes `text` as a time without calling it missing: a timestamp, or a
// date read as midnight UTC. For anything else it has already warned at the record's line.
[[nodiscard]] bool reads_as_time(std::string_view text);

// Reads metadata.json. Variants seen in real vaults are read and reported as warnings: keys
// with a caret (`^tr…`) or without `tr` (bare 10 hex) are normalised to `tr…`; a tier written as
// a file path becomes the tier of that path; date-only timestamps and unknown statuses are kept.
// Throws MetadataError when the bytes are not JSON, or not an object of objects. A key written
// twice is read as its last record, with a warning.
// The common flat shape is read without a JSON document (core/recall/metadata_scan.hpp).
[[nodiscard]] MetadataRead parse_metadata(std::string_view bytes, std::string_view path);

// A top-level key written more than once: JSON readers keep its last record and drop the rest.
struct RepeatedKey {
  std::string key;  // as written
  int first_line = 0;
  int line = 0;  // of this repetition
};
[[nodiscard]] std::vector<RepeatedKey> repeated_keys(std::string_view bytes);
// `record `X` is written twice (lines A and B)`.
[[nodiscard]] std::string repeated_key_message(const RepeatedKey& repeated);

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
