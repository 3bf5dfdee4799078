#include "core/snapshot/worktree_snapshot.hpp"

#include <stdlib.h>

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <string>

namespace worktree_snapshot_test {

namespace fs = std::filesystem;

namespace {

// A fresh directory under the system temp dir, removed at the end of the test.
class TempDir {
 public:
  TempDir() {
    std::string pattern = (fs::temp_directory_path() / "gv-snapshot-XXXXXX").string();
    REQUIRE(::mkdtemp(pattern.data()) != nullptr);
    m_path = pattern;
  }
  ~TempDir() {
    std::error_code ec;
    fs::remove_all(m_path, ec);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;

  [[nodiscard]] const fs::path& path() const { return m_path; }

  void write(const std::string& rel, const std::string& bytes) const {
    const fs::path file = m_path / rel;
    fs::create_directories(file.parent_path());
    std::ofstream(file, std::ios::binary) << bytes;
  }

 private:
  fs::path m_path;
};

std::vector<std::string> paths_of(const std::vector<gv::SnapshotEntry>& entries) {
  std::vector<std::string> paths;
  for (const auto& entry : entries) {
    paths.push_back(entry.path);
  }
  return paths;
}

}  // namespace

TEST_CASE("blob ids match git hash-object", "[snapshot]") {
  CHECK(gv::blob_oid("") == "e69de29bb2d1d6434b8b29ae775ad8c2e48c5391");
  CHECK(gv::blob_oid("hello\n") == "ce013625030ba8dba906f756967f9e9ca394464a");
}

TEST_CASE("the work tree lists regular files under a prefix in path order", "[snapshot]") {
  TempDir dir;
  dir.write(".memory/10-Memories/MEM-b.md", "b");
  dir.write(".memory/10-Memories/MEM-a.md", "hello\n");
  dir.write(".memory/10-Memories/sub/MEM-c.md", "c");
  dir.write(".memory/memory-index.json", "{}");
  dir.write(".git/HEAD", "ref: refs/heads/main\n");
  dir.write("specs/state.json", "{}");
  const gv::WorktreeSnapshot snapshot(dir.path());

  const auto memories = snapshot.list(".memory/10-Memories/");
  CHECK(paths_of(memories) == std::vector<std::string>{".memory/10-Memories/MEM-a.md",
                                                       ".memory/10-Memories/MEM-b.md",
                                                       ".memory/10-Memories/sub/MEM-c.md"});
  CHECK(memories[0].oid == "ce013625030ba8dba906f756967f9e9ca394464a");

  CHECK(paths_of(snapshot.list("specs/sta")) == std::vector<std::string>{"specs/state.json"});
  // A partial last component matches directories too, and only those.
  dir.write("specs/stale/old.md", "x");
  dir.write("specs/other/sta.md", "y");
  dir.write("specs/stale/.git", "gitdir: elsewhere\n");  // a nested work tree's `.git` file
  CHECK(paths_of(snapshot.list("specs/sta")) ==
        std::vector<std::string>{"specs/stale/old.md", "specs/state.json"});
  fs::remove_all(dir.path() / "specs/stale");
  fs::remove_all(dir.path() / "specs/other");
  CHECK(paths_of(snapshot.list("")) ==
        std::vector<std::string>{".memory/10-Memories/MEM-a.md", ".memory/10-Memories/MEM-b.md",
                                 ".memory/10-Memories/sub/MEM-c.md", ".memory/memory-index.json",
                                 "specs/state.json"});
  CHECK(snapshot.list("absent/").empty());
  CHECK(snapshot.describe() == "work tree");
}

TEST_CASE("the work tree reads files by repo-relative path", "[snapshot]") {
  TempDir dir;
  dir.write("a/b.txt", "bytes\r\n");
  const gv::WorktreeSnapshot snapshot(dir.path());
  CHECK(snapshot.read("a/b.txt") == std::string("bytes\r\n"));
  CHECK_FALSE(snapshot.read("a/missing.txt"));
  CHECK_FALSE(snapshot.read("a"));  // a directory is not a file
  CHECK_FALSE(snapshot.read("../etc/passwd"));
  CHECK_FALSE(snapshot.read("/etc/passwd"));
  CHECK_FALSE(snapshot.read(""));
}

TEST_CASE("symlinks are neither listed nor followed", "[snapshot]") {
  TempDir outside;
  outside.write("secret.md", "secret");
  TempDir dir;
  dir.write(".memory/10-Memories/MEM-real.md", "real");
  fs::create_symlink(outside.path() / "secret.md", dir.path() / ".memory/10-Memories/MEM-link.md");
  fs::create_directories(dir.path() / "notes");
  fs::create_directory_symlink(outside.path(), dir.path() / "notes/linked");
  fs::create_directory_symlink(outside.path(), dir.path() / "linkdir");
  const gv::WorktreeSnapshot snapshot(dir.path());

  CHECK(paths_of(snapshot.list(".memory/10-Memories/")) ==
        std::vector<std::string>{".memory/10-Memories/MEM-real.md"});
  CHECK(snapshot.list("notes/").empty());
  CHECK(snapshot.list("linkdir/").empty());
  CHECK_FALSE(snapshot.read(".memory/10-Memories/MEM-link.md"));
  CHECK_FALSE(snapshot.read("notes/linked/secret.md"));
  CHECK_FALSE(snapshot.read("linkdir/secret.md"));
}

TEST_CASE("a file list() read is read again once it has changed", "[snapshot]") {
  TempDir dir;
  dir.write(".memory/10-Memories/MEM-a.md", "first\n");
  dir.write(".memory/10-Memories/MEM-b.md", "kept\n");
  const gv::WorktreeSnapshot snapshot(dir.path());
  const auto entries = snapshot.list(".memory/");
  REQUIRE(entries.size() == 2);
  // A different size changes the stamp whatever the clock's resolution.
  dir.write(".memory/10-Memories/MEM-a.md", "second, longer\n");
  CHECK(snapshot.read(".memory/10-Memories/MEM-a.md") == "second, longer\n");
  CHECK(snapshot.read(".memory/10-Memories/MEM-b.md") == "kept\n");
  // Handed out once: a second read goes to the file.
  dir.write(".memory/10-Memories/MEM-b.md", "edited\n");
  CHECK(snapshot.read(".memory/10-Memories/MEM-b.md") == "edited\n");
  fs::remove(dir.path() / ".memory/10-Memories/MEM-b.md");
  CHECK_FALSE(snapshot.read(".memory/10-Memories/MEM-b.md"));
}

}  // namespace worktree_snapshot_test
