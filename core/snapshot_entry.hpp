#pragma once

#include <algorithm>
#include <string>
#include <string_view>
#include <vector>

namespace gv {

// A value in the base layer because both core/git (which lists index and tree entries) and
// core/snapshot (which builds on core/git) speak of it; see doc/architecture.md, "Layers".
// One file in a Snapshot. `oid` is the git blob id (hex) of its bytes; for the work tree it is
// computed by hashing, so the same content has the same oid in every snapshot.
struct SnapshotEntry {
  std::string path;  // repo-relative, `/` separators
  std::string oid;   // 40 hex chars
};

// The blob id of `path` in `entries` (sorted by path), or null when it is not there.
[[nodiscard]] inline const std::string* listed_oid(const std::vector<SnapshotEntry>& entries,
                                                   std::string_view path) {
  const auto it = std::lower_bound(
      entries.begin(), entries.end(), path,
      [](const SnapshotEntry& entry, std::string_view key) { return entry.path < key; });
  return it != entries.end() && it->path == path ? &it->oid : nullptr;
}

}  // namespace gv
