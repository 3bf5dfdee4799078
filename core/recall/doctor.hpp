#pragma once

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/recall/entry.hpp"

namespace gv::recall {

// One thing `git vault recall doctor` found in a working memory written by an older version of
// the plugin (or by hand), with what fixes it.
struct DoctorItem {
  // `old-id-spelling`, `misplaced-id`, `stray-id`, `metadata`, `orphan`, `daily-log-id`,
  // `malformed-id`, `duplicate-id`.
  std::string kind;
  std::string path;  // repo-relative
  std::optional<int> line;
  std::string id;                // without the caret, when one is concerned
  std::string message;           // lowercase, no trailing period
  std::string fix;               // the command or the edit that fixes it
  bool fixed_by_doctor = false;  // `doctor --fix` does it
};

struct DoctorInput {
  std::vector<ParsedFile> files;  // the managed files, scan order (scan_managed_files)
  std::optional<std::string> metadata_bytes;
  std::vector<std::pair<std::string, std::string>> daily_logs;  // path, bytes
  std::string now;  // `YYYY-MM-DDTHH:MM:SSZ`, for records added to metadata
};

struct DoctorReport {
  std::vector<DoctorItem> items;  // by path, then line
  // What `--fix` writes: path -> new bytes (managed files and metadata.json).
  std::map<std::string, std::string> writes;
  int respelled = 0;         // `^tr-…` -> `^tr…`
  int moved = 0;             // ids moved onto the entry they belong to
  int dropped = 0;           // copies of an id removed from placeholders
  int metadata_changed = 0;  // records whose key, tier or timestamps change, or that are added
  bool metadata_reformatted = false;  // metadata.json only changes layout
  int untagged_after = 0;             // entries init-ids would tag after the fix
  [[nodiscard]] bool fixable() const { return !writes.empty(); }
};

// The commit and command names doctor reports and uses.
inline constexpr std::string_view k_doctor_fix_command = "git vault recall doctor --fix";

// Diagnoses a working memory and plans the mechanical migrations (doc/decisions.md D18):
// - the older id spelling `^tr-<10 hex>` becomes `^tr<10 hex>`, on any line;
// - an id on a heading moves to the one entry of its section (a claim block's first line), an
//   id on a later line of a claim block or on an indented line of a list item moves to that
//   entry's first line, when the entry has no id of its own;
// - a copy of an id that already tags an entry is removed from a placeholder line;
// - metadata.json keys (`^tr…`, bare hex), tiers (file paths) and date-only timestamps are
//   normalised, tiers follow the files, and ids without a record get one (what maintain and
//   init-ids do on their way without saying so).
// Reported only, with the fix: ids that cannot be placed, orphan records, ids that a daily log
// line repeats, malformed ids, and ids on more than one entry. Pure: reads only `input`. Throws
// gv::Error when metadata.json is not a JSON object.
[[nodiscard]] DoctorReport diagnose(const DoctorInput& input);

}  // namespace gv::recall
