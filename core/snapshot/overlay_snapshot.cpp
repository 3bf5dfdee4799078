#include "core/snapshot/overlay_snapshot.hpp"

#include <algorithm>

#include "core/snapshot/worktree_snapshot.hpp"

namespace gv {

std::vector<SnapshotEntry> OverlaySnapshot::list(std::string_view prefix) const {
  std::vector<SnapshotEntry> entries;
  for (SnapshotEntry& entry : m_base.list(prefix)) {
    if (!m_changes.contains(entry.path)) {
      entries.push_back(std::move(entry));
    }
  }
  for (const auto& [path, bytes] : m_changes) {
    if (bytes && path.starts_with(prefix)) {
      entries.push_back(SnapshotEntry{path, blob_oid(*bytes)});
    }
  }
  std::sort(entries.begin(), entries.end(),
            [](const SnapshotEntry& a, const SnapshotEntry& b) { return a.path < b.path; });
  return entries;
}

std::optional<std::string> OverlaySnapshot::read(std::string_view path) const {
  if (const auto it = m_changes.find(std::string{path}); it != m_changes.end()) {
    return it->second;
  }
  return m_base.read(path);
}

}  // namespace gv
