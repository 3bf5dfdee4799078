#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>

#include "core/agent/live_vault.hpp"
#include "core/snapshot/worktree_snapshot.hpp"

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
