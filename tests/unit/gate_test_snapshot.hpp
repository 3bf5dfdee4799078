#pragma once

#include <map>
#include <string>
#include <utility>
#include <vector>

#include "core/snapshot/snapshot.hpp"
#include "core/snapshot/worktree_snapshot.hpp"

namespace gv::test {

// Files in memory with real blob ids, so the gate's caches key on them as on a repository.
class MapSnapshot final : public Snapshot {
 public:
  explicit MapSnapshot(std::map<std::string, std::string> files) : m_files(std::move(files)) {}

  [[nodiscard]] std::vector<SnapshotEntry> list(std::string_view prefix) const override {
    std::vector<SnapshotEntry> entries;
    for (const auto& [path, bytes] : m_files) {
      if (path.starts_with(prefix)) {
        entries.push_back({path, blob_oid(bytes)});
      }
    }
    return entries;
  }
  [[nodiscard]] std::optional<std::string> read(std::string_view path) const override {
    ++reads;
    const auto it = m_files.find(std::string(path));
    return it == m_files.end() ? std::nullopt : std::optional<std::string>(it->second);
  }
  [[nodiscard]] std::string describe() const override { return "map"; }

  void set(const std::string& path, std::string bytes) { m_files[path] = std::move(bytes); }
  void erase(const std::string& path) { m_files.erase(path); }

  mutable int reads = 0;

 private:
  std::map<std::string, std::string> m_files;
};

}  // namespace gv::test
