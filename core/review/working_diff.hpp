#pragma once

#include <string>
#include <vector>

namespace gv {
class Snapshot;
}

namespace gv::review {

// A tagged working-memory entry at one side of the range.
struct EntryAt {
  std::string id;    // `tr` + 10 hex
  std::string path;  // repo-relative
  std::string tier;  // `working`, `register`, `archive`
  int line = 0;
  std::string text;
};

struct EditedEntry {
  std::string id;
  std::string path;  // at HEAD
  int line = 0;      // at HEAD
  std::string before;
  std::string after;
};

struct MovedEntry {
  EntryAt from;
  EntryAt to;
  bool edited = false;  // the text changed too
};

// Working-memory entries matched by their `^tr` id across the range; each list sorted by id.
// Untagged entries cannot be matched and are left to the gate (which blocks on them).
struct WorkingDiff {
  std::vector<EntryAt> added;
  std::vector<EntryAt> removed;
  std::vector<EditedEntry> edited;
  std::vector<MovedEntry> moved;  // the entry now lives in another file (usually another tier)
};

// Only files whose bytes differ are parsed: an entry in a file the range did not touch is the
// same on both sides.
[[nodiscard]] WorkingDiff diff_working_memory(const Snapshot& base, const Snapshot& head);

}  // namespace gv::review
