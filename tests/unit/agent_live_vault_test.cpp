#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>

#include "core/agent/live_vault.hpp"
#include "core/git/repo.hpp"
#include "core/search/search.hpp"
#include "core/snapshot/worktree_snapshot.hpp"
#include "core/vault/vault.hpp"
#include "tests/unit/git_test_repo.hpp"

namespace agent_live_vault_test {

namespace fs = std::filesystem;

namespace {

struct TempDir {
  fs::path path;
  TempDir() {
    std::string pattern = (fs::temp_directory_path() / "gv-live-XXXXXX").string();
    path = ::mkdtemp(pattern.data());
  }
  ~TempDir() { fs::remove_all(path); }
};

void write(const fs::path& file, const std::string& bytes) {
  fs::create_directories(file.parent_path());
  std::ofstream(file, std::ios::binary) << bytes;
}

// Sets a file's modification time far in the past, as for a file nobody touched in a while.
void age(const fs::path& file) {
  const struct timespec times[2] = {{1'600'000'000, 0}, {1'600'000'000, 0}};
  REQUIRE(::utimensat(AT_FDCWD, file.c_str(), times, 0) == 0);
}

std::vector<std::pair<std::string, std::string>> listing(const gv::Snapshot& snapshot) {
  std::vector<std::pair<std::string, std::string>> out;
  for (const gv::SnapshotEntry& entry : snapshot.list(".memory/10-Memories/")) {
    out.emplace_back(entry.path, entry.oid);
  }
  return out;
}

}  // namespace

TEST_CASE("the stat-cached snapshot hashes a file again only when its stat changed",
          "[live-vault]") {
  const TempDir dir;
  const fs::path a = dir.path / ".memory/10-Memories/MEM-a.md";
  const fs::path b = dir.path / ".memory/10-Memories/MEM-b.md";
  write(a, "alpha\n");
  write(b, "beta\n");
  age(a);
  age(b);
  const gv::agent::StatCachedSnapshot snapshot(dir.path);
  const gv::WorktreeSnapshot plain(dir.path);
  CHECK(listing(snapshot) == listing(plain));
  CHECK(snapshot.hashed() == 2);
  CHECK(listing(snapshot) == listing(plain));
  CHECK(snapshot.hashed() == 2);

  write(b, "BETA\n");  // same size, new bytes: the change time moves
  age(b);
  CHECK(listing(snapshot) == listing(plain));
  CHECK(snapshot.hashed() == 3);

  // A file written just now is hashed on every list until it is two seconds old.
  write(dir.path / ".memory/10-Memories/MEM-c.md", "gamma\n");
  (void)snapshot.list(".memory/10-Memories/");
  (void)snapshot.list(".memory/10-Memories/");
  CHECK(snapshot.hashed() == 5);
  fs::remove(a);
  CHECK(snapshot.list(".memory/10-Memories/").size() == 2);
  // Symlinks are never followed, as in the plain work-tree snapshot.
  fs::create_symlink(b, dir.path / ".memory/10-Memories/MEM-link.md");
  CHECK(listing(snapshot) == listing(plain));
}

namespace {

std::string memory_with_keyword(const std::string& title, const std::string& keyword) {
  return "---\ntitle: \"" + title + "\"\ncreated: 2026-05-01\ntopic: fruit\nkeywords: [" + keyword +
         "]\nsummary: \"About " + keyword + "\"\n---\n\n# " + title + "\n\nAll about " + keyword +
         ".\n";
}

std::size_t hits(const gv::agent::LiveVault& live, std::string_view query) {
  return live.index().search(query, gv::search::Scope::memories, 10, live.snapshot(), {}).size();
}

}  // namespace

TEST_CASE("a watching live vault sees every change whichever refresh a call makes",
          "[live-vault][mcp]") {
  const gv::test::TestRepo repo;
  const gv::git::Repo opened = gv::git::Repo::discover(repo.root());
  repo.write(".memory/10-Memories/MEM-apple.md", memory_with_keyword("Apple", "apple"));
  gv::agent::LiveVault live(opened, nullptr);
  live.watch_for_changes();
  const auto no_cache = [] { return static_cast<gv::ParseCache*>(nullptr); };

  // Searches first (the MCP server's fast start), then a change between two searches.
  live.refresh_search(no_cache);
  CHECK(hits(live, "apple") == 1);
  CHECK(hits(live, "pomegranate") == 0);
  repo.write(".memory/10-Memories/MEM-pome.md", memory_with_keyword("Pome", "pomegranate"));
  live.refresh_search(no_cache);
  CHECK(hits(live, "pomegranate") == 1);

  // A call that needs the whole vault, then a change the next search must see: the full
  // refresh took the watch's answer, and the search still reads again.
  repo.write(".memory/10-Memories/MEM-quince.md", memory_with_keyword("Quince", "quince"));
  live.refresh();
  CHECK(live.loaded());
  CHECK(live.find("MEM-quince") != nullptr);
  repo.write(".memory/10-Memories/MEM-fig.md", memory_with_keyword("Fig", "fig"));
  live.refresh();
  CHECK(live.find("MEM-fig") != nullptr);
  CHECK(hits(live, "fig") == 1);
  // Nothing changed: the search keeps what it has.
  live.refresh_search(no_cache);
  CHECK(hits(live, "quince") == 1);
}

}  // namespace agent_live_vault_test
