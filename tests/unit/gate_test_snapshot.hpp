#pragma once

#include <map>
#include <string>
#include <utility>
#include <vector>

#include "core/snapshot/snapshot.hpp"
#include "core/snapshot/worktree_snapshot.hpp"
#include "core/vault/index_files.hpp"
#include "core/vault/vault.hpp"

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

// A memory file with the two required fields, `extra` frontmatter lines and `body`.
inline std::string note(const std::string& title, const std::string& extra = {},
                        const std::string& body = {}) {
  return "---\ntitle: \"" + title + "\"\ncreated: 2026-01-01\n" + extra + "---\n\n# " + title +
         "\n" + body;
}

// Writes the three generated files for the memories currently in the snapshot.
inline void regenerate(MapSnapshot& snapshot) {
  const Vault vault = load_vault(snapshot);
  snapshot.set(".memory/memory-index.json", render_index_json(vault.memories, "2026-11-30"));
  snapshot.set(".memory/20-Indices/index.md", render_index_md(vault.memories));
  snapshot.set(".memory/10-Memories/README.md", render_memories_readme(vault.memories));
}

}  // namespace gv::test
