#include "core/vault/vault.hpp"

#include <catch2/catch.hpp>
#include <cstdlib>
#include <iostream>
#include <map>
#include <string>

#include "core/snapshot/worktree_snapshot.hpp"

namespace {

// An in-memory Snapshot whose oids are the file contents' lengths: enough for the cache.
class FakeSnapshot final : public gv::Snapshot {
 public:
  explicit FakeSnapshot(std::map<std::string, std::string> files) : m_files(std::move(files)) {}

  [[nodiscard]] std::vector<gv::SnapshotEntry> list(std::string_view prefix) const override {
    std::vector<gv::SnapshotEntry> entries;
    for (const auto& [path, bytes] : m_files) {
      if (path.rfind(prefix, 0) == 0) {
        entries.push_back({path, "oid-" + std::to_string(bytes.size())});
      }
    }
    return entries;
  }
  [[nodiscard]] std::optional<std::string> read(std::string_view path) const override {
    ++reads;
    const auto it = m_files.find(std::string(path));
    return it == m_files.end() ? std::nullopt : std::optional<std::string>(it->second);
  }
  [[nodiscard]] std::string describe() const override { return "fake"; }

  mutable int reads = 0;

 private:
  std::map<std::string, std::string> m_files;
};

std::string note(const std::string& title) {
  return "---\ntitle: \"" + title + "\"\ncreated: 2026-01-01\n---\n\n# " + title + "\n";
}

}  // namespace

TEST_CASE("memory paths are MEM-*.md directly in 10-Memories", "[vault]") {
  CHECK(gv::is_memory_path(".memory/10-Memories/MEM-a.md"));
  CHECK_FALSE(gv::is_memory_path(".memory/10-Memories/README.md"));
  CHECK_FALSE(gv::is_memory_path(".memory/10-Memories/MEM-.md"));
  CHECK_FALSE(gv::is_memory_path(".memory/10-Memories/sub/MEM-a.md"));
  CHECK_FALSE(gv::is_memory_path(".memory/10-Memories/MEM-a.txt"));
  CHECK_FALSE(gv::is_memory_path(".memory/MEM-a.md"));
  CHECK(gv::memory_path("MEM-a") == ".memory/10-Memories/MEM-a.md");
}

TEST_CASE("a vault loads every memory sorted by id with findings for bad files", "[vault]") {
  const FakeSnapshot snapshot({
      {".memory/10-Memories/MEM-b.md", note("B")},
      {".memory/10-Memories/MEM-a.md",
       "---\ntitle: A\ncreated: 2026-01-01\nstatus: tombstoned\ntombstoned_at: 2026-02-01\n---\n"},
      {".memory/10-Memories/MEM-bad.md", "# no frontmatter\n"},
      {".memory/10-Memories/README.md", "# Memories\n"},
      {".memory/10-Memories/notes.md", "stray\n"},
      {".memory/20-Indices/index.md", "# Index\n"},
  });
  const gv::Vault vault = gv::load_vault(snapshot);
  REQUIRE(vault.memories.size() == 2);
  CHECK(vault.memories[0].id == "MEM-a");
  CHECK(vault.memories[0].tombstoned);
  CHECK(vault.memories[1].id == "MEM-b");
  CHECK(vault.memories[1].blob_oid == "oid-" + std::to_string(note("B").size()));
  REQUIRE(vault.findings.size() == 2);
  CHECK(vault.findings[0].path == ".memory/10-Memories/MEM-bad.md");
  CHECK(vault.findings[0].severity == gv::Severity::error);
  CHECK(vault.findings[1].path == ".memory/10-Memories/notes.md");
  CHECK(vault.findings[1].severity == gv::Severity::warning);
}

TEST_CASE("a parse cache skips reading unchanged blobs", "[vault]") {
  const FakeSnapshot snapshot(
      {{".memory/10-Memories/MEM-a.md", note("A")}, {".memory/10-Memories/MEM-b.md", "# none\n"}});
  gv::InMemoryParseCache cache;
  const gv::Vault first = gv::load_vault(snapshot, &cache);
  CHECK(snapshot.reads == 2);
  const gv::Vault second = gv::load_vault(snapshot, &cache);
  CHECK(snapshot.reads == 2);
  REQUIRE(second.memories.size() == 1);
  CHECK(second.memories[0].title == "A");
  CHECK(second.findings.size() == first.findings.size());
}

// Not run by default: `GIT_VAULT_TRY_VAULT=/path/to/repo unit_tests "[.try-vault]"` loads a
// real work tree and prints what it found, to try the parser on vaults in the wild.
TEST_CASE("a real vault loads without crashing", "[.try-vault]") {
  const char* root = std::getenv("GIT_VAULT_TRY_VAULT");
  REQUIRE(root != nullptr);
  const gv::WorktreeSnapshot snapshot(root);
  const gv::Vault vault = gv::load_vault(snapshot);
  std::cout << root << ": " << vault.memories.size() << " memories\n";
  for (const gv::Memory& m : vault.memories) {
    std::cout << "  " << m.id << " tokens=" << m.token_count << " category=" << m.category
              << " keywords=" << m.keywords.size() << " links=" << m.links.size()
              << (m.tombstoned ? " tombstoned" : "") << "\n";
  }
  for (const gv::Finding& f : vault.findings) {
    std::cout << "  " << f.path << ":" << (f.line ? std::to_string(*f.line) : "-") << ": "
              << (f.severity == gv::Severity::error ? "error" : "warning") << ": " << f.message
              << "\n";
  }
  SUCCEED();
}
