#include "core/vault/vault.hpp"

#include <catch2/catch.hpp>
#include <cstdlib>
#include <iostream>
#include <map>
#include <string>

#include "core/snapshot/worktree_snapshot.hpp"
#include "core/vault/parse_cache_file.hpp"

namespace vault_test {

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

TEST_CASE("a vault read partly from a persistent cache equals one read from the files", "[vault]") {
  // More memories than one batch (1,024), cached and uncached interleaved, with bad files among
  // them: the batches must hand every memory and finding back in path order, exactly once.
  std::map<std::string, std::string> files;
  std::map<std::string, std::string> older;  // what an earlier run saw: every third file
  for (int i = 0; i < 2600; ++i) {
    const std::string path = ".memory/10-Memories/MEM-" + std::to_string(100000 + i) + ".md";
    files[path] =
        i % 7 == 0 ? "# no frontmatter " + std::to_string(i) + "\n" : note("T" + std::to_string(i));
    if (i % 3 == 0) {
      older[path] = files[path];
    }
  }
  gv::PersistentParseCache cache;
  (void)gv::load_vault(FakeSnapshot(older), &cache);
  gv::PersistentParseCache reloaded = gv::PersistentParseCache::from_bytes(cache.to_bytes());

  const FakeSnapshot snapshot(files);
  const gv::Vault from_cache = gv::load_vault(snapshot, &reloaded);
  CHECK(snapshot.reads == static_cast<int>(files.size() - older.size()));
  const gv::Vault from_files = gv::load_vault(FakeSnapshot(files));

  CHECK(from_cache.memory_files == 2600);
  REQUIRE(from_cache.memories.size() == from_files.memories.size());
  for (std::size_t i = 0; i < from_files.memories.size(); ++i) {
    CHECK(from_cache.memories[i].id == from_files.memories[i].id);
    CHECK(from_cache.memories[i].title == from_files.memories[i].title);
    CHECK(from_cache.memories[i].token_count == from_files.memories[i].token_count);
  }
  REQUIRE(from_cache.findings.size() == from_files.findings.size());
  for (std::size_t i = 0; i < from_files.findings.size(); ++i) {
    CHECK(from_cache.findings[i].path == from_files.findings[i].path);
    CHECK(from_cache.findings[i].message == from_files.findings[i].message);
  }
  // The files read this time were stored, so a third run reads none.
  const FakeSnapshot again(files);
  (void)gv::load_vault(again, &reloaded);
  CHECK(again.reads == 0);
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

}  // namespace vault_test
