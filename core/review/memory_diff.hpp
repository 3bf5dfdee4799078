#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/dates.hpp"
#include "core/git/repo.hpp"

namespace gv {
class Snapshot;
class ParseCache;
}  // namespace gv

namespace gv::review {

struct AddedMemory {
  std::string id;
  std::string title;
  std::string category;  // upper-cased; empty when the memory has none
  std::string topic;
  std::int64_t token_count = 0;
  bool tombstoned = false;  // added already tombstoned (unusual, but possible)
};

// What one frontmatter field became: a value as a person reads it (quotes gone, nulls `null`),
// or for a list the items it gained and lost.
struct FieldChange {
  std::string field;
  std::optional<std::string> before;  // absent: the field was added
  std::optional<std::string> after;   // absent: the field was removed
  std::vector<std::string> added;     // list items new in HEAD, in HEAD's order
  std::vector<std::string> removed;   // list items gone, in the base's order
  [[nodiscard]] bool is_list() const { return !added.empty() || !removed.empty(); }
};

// A memory whose file changed in ways the other lists do not explain.
struct ChangedMemory {
  std::string id;
  std::string title;
  std::vector<std::string> fields;   // frontmatter fields added, removed or changed, file order
  std::vector<FieldChange> changes;  // the same fields, with what each was and became
  bool body_changed = false;
  std::int64_t tokens_before = 0;
  std::int64_t tokens_after = 0;
  // Body lines only HEAD has and only the base has (each line counted as often as it occurs):
  // what a body edit did when its token count stayed the same.
  std::size_t body_lines_added = 0;
  std::size_t body_lines_removed = 0;
};

struct TombstonedMemory {
  std::string id;
  std::string title;
  std::string reason;  // tombstone_reason as written; empty when absent
};

struct DeletedMemory {
  std::string id;
  std::string title;
  bool was_tombstoned = false;  // true: what gc does; false: an active memory vanished
};

// A memory file moved to a new name with its bytes unchanged (`git mv`): its id changed.
struct RenamedMemory {
  std::string from;
  std::string to;
  std::string title;
};

// `primary` absorbed `secondary` (merge): the secondary's tombstone says `merged_into:<primary>`
// or the primary's body gained `## Merged From <secondary>`; either way the secondary's file
// changed in the range and was not a tombstone at its base (a heading copied along with an
// earlier merge's body names a merge the range did not make).
struct MergedPair {
  std::string primary;
  std::string secondary;
  // Spelled out: libc++ before LLVM 16 has no operator<=> for std::string to default from.
  friend bool operator==(const MergedPair&, const MergedPair&) = default;
  friend bool operator<(const MergedPair& a, const MergedPair& b) {
    return a.primary != b.primary ? a.primary < b.primary : a.secondary < b.secondary;
  }
};

struct CompressedMemory {
  std::string id;
  std::int64_t tokens_before = 0;
  std::int64_t tokens_after = 0;
};

struct RetrievalChange {
  std::string id;
  std::int64_t count_before = 0;
  std::int64_t count_after = 0;
  std::optional<Date> last_before;
  std::optional<Date> last_after;
};

// What a range does to `.memory/10-Memories/`. Every list is sorted by id (merged pairs by
// primary, then secondary). A memory can sit in several lists: a merge primary is also
// "changed" (its keywords grew), a retrieval bump of an edited memory is also "changed".
struct MemoryDiff {
  std::vector<AddedMemory> added;
  std::vector<ChangedMemory> changed;
  std::vector<TombstonedMemory> tombstoned;  // merge secondaries are in `merged` instead
  std::vector<DeletedMemory> deleted;
  std::vector<RenamedMemory> renamed;  // not also in `added` or `deleted`
  std::vector<MergedPair> merged;
  std::vector<CompressedMemory> compressed;
  std::vector<std::string> restored;  // tombstoned before, active after
  std::vector<RetrievalChange> retrieval;
  // Changed files that do not parse as a memory on the HEAD side; the gate explains why.
  std::vector<std::string> unreadable;
  std::size_t unchanged = 0;  // memory files with the same blob on both sides
};

// Compares the memory files of two snapshots. Blob ids are compared first: only files whose
// blob differs are read and parsed. `cache` (may be null) lets the caller share parses with a
// later load_vault.
[[nodiscard]] MemoryDiff diff_memories(const Snapshot& base, const Snapshot& head,
                                       ParseCache* cache = nullptr);

// The same from the files known to differ (git::Repo::diff_trees, or changed_memory_files):
// only those are read, so the cost follows the size of the change, not the vault. `unchanged`
// is left at 0: see unchanged_memory_files.
[[nodiscard]] MemoryDiff diff_memories(const Snapshot& base, const Snapshot& head,
                                       const std::vector<git::TreeChange>& changes,
                                       ParseCache* cache);

// The memory files (`.memory/10-Memories/MEM-*.md`) whose blob differs between two snapshots,
// found by listing both; sorted by path.
[[nodiscard]] std::vector<git::TreeChange> changed_memory_files(const Snapshot& base,
                                                                const Snapshot& head);

// How many of HEAD's `head_memory_files` memory files `changes` leaves alone.
[[nodiscard]] std::size_t unchanged_memory_files(std::size_t head_memory_files,
                                                 const std::vector<git::TreeChange>& changes);

}  // namespace gv::review
