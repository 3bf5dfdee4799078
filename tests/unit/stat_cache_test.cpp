#include "core/snapshot/stat_cache.hpp"

#include <stdlib.h>

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <string>
#include <tuple>
#include <vector>

#include "core/git/blob_hasher.hpp"
#include "core/snapshot/worktree_snapshot.hpp"

namespace fs = std::filesystem;

namespace gv::stat_cache_test {
namespace {

// A fresh directory that looks like a repository root (`.git/` present).
class TempRepoDir {
 public:
  TempRepoDir() {
    std::string pattern = (fs::temp_directory_path() / "gv-stat-XXXXXX").string();
    REQUIRE(::mkdtemp(pattern.data()) != nullptr);
    m_path = pattern;
    fs::create_directories(m_path / ".git");
  }
  ~TempRepoDir() {
    std::error_code ec;
    fs::remove_all(m_path, ec);
  }
  TempRepoDir(const TempRepoDir&) = delete;
  TempRepoDir& operator=(const TempRepoDir&) = delete;

  [[nodiscard]] const fs::path& path() const { return m_path; }
  void write(const std::string& rel, const std::string& bytes) const {
    fs::create_directories((m_path / rel).parent_path());
    std::ofstream(m_path / rel, std::ios::binary | std::ios::trunc) << bytes;
  }

 private:
  fs::path m_path;
};

constexpr std::string_view k_oid = "0123456789abcdef0123456789abcdef01234567";
constexpr std::int64_t k_later = std::int64_t{1} << 62;  // "hashed long after it changed"

TEST_CASE("the stat cache keeps an id while the stamp is unchanged, and across runs",
          "[snapshot]") {
  const TempRepoDir dir;
  const fs::path file = *StatCache::file_for(dir.path());
  CHECK(file == dir.path() / ".git" / "git-vault" / "stat-cache");
  FileStamp stamp{1, 2, 3, 4, 5, 0100644};
  {
    StatCache cache(file);
    cache.store("a.md", stamp, k_oid, k_later);
    CHECK(cache.find("a.md", stamp) == std::string(k_oid));
    REQUIRE(cache.save());
  }
  const StatCache reloaded(file);
  CHECK(reloaded.find("a.md", stamp) == std::string(k_oid));
  CHECK_FALSE(reloaded.find("b.md", stamp));
  for (auto changed : {&FileStamp::device, &FileStamp::inode, &FileStamp::size}) {
    FileStamp other = stamp;
    ++(other.*changed);
    CHECK_FALSE(reloaded.find("a.md", other));
  }
  FileStamp touched = stamp;
  ++touched.mtime_ns;
  CHECK_FALSE(reloaded.find("a.md", touched));
  touched = stamp;
  ++touched.ctime_ns;
  CHECK_FALSE(reloaded.find("a.md", touched));
}

TEST_CASE("the stat cache answers in any order and saves this run's entries among the file's",
          "[snapshot]") {
  const TempRepoDir dir;
  const fs::path file = *StatCache::file_for(dir.path());
  const auto oid_of = [](char digit) { return std::string(40, digit); };
  const auto stamp_of_n = [](std::uint64_t n) { return FileStamp{1, n, 3, 4, 5, 0100644}; };
  {
    StatCache cache(file);
    for (const char name : std::string("bdfh")) {
      cache.store(std::string(1, name) + ".md", stamp_of_n(name), oid_of('1'), k_later);
    }
    REQUIRE(cache.save());
  }
  {
    StatCache cache(file);
    CHECK(cache.size() == 4);
    // Out of path order (through the hash), then in order from there (the next record).
    CHECK(cache.find("f.md", stamp_of_n('f')) == oid_of('1'));
    CHECK(cache.find("b.md", stamp_of_n('b')) == oid_of('1'));
    CHECK(cache.find("d.md", stamp_of_n('d')) == oid_of('1'));
    CHECK_FALSE(cache.find("c.md", stamp_of_n('c')));
    CHECK(cache.find("h.md", stamp_of_n('h')) == oid_of('1'));
    CHECK_FALSE(cache.find("z.md", stamp_of_n('z')));
    // Added before, between and after the file's paths; one replaced; one stored unchanged.
    cache.store("a.md", stamp_of_n('a'), oid_of('2'), k_later);
    cache.store("e.md", stamp_of_n('e'), oid_of('2'), k_later);
    cache.store("z.md", stamp_of_n('z'), oid_of('2'), k_later);
    cache.store("d.md", stamp_of_n('D'), oid_of('3'), k_later);
    cache.store("b.md", stamp_of_n('b'), oid_of('1'), k_later);
    CHECK(cache.size() == 7);
    CHECK(cache.find("d.md", stamp_of_n('D')) == oid_of('3'));
    CHECK_FALSE(cache.find("d.md", stamp_of_n('d')));
    REQUIRE(cache.save());
  }
  const StatCache reloaded(file);
  CHECK(reloaded.size() == 7);
  for (const auto& [name, stamp, oid] :
       std::vector<std::tuple<std::string, char, char>>{{"a.md", 'a', '2'},
                                                        {"b.md", 'b', '1'},
                                                        {"d.md", 'D', '3'},
                                                        {"e.md", 'e', '2'},
                                                        {"f.md", 'f', '1'},
                                                        {"h.md", 'h', '1'},
                                                        {"z.md", 'z', '2'}}) {
    CAPTURE(name);
    CHECK(reloaded.find(name, stamp_of_n(static_cast<std::uint64_t>(stamp))) == oid_of(oid));
  }
}

TEST_CASE("the stat cache never keeps a file changed just before it was hashed", "[snapshot]") {
  StatCache cache;
  const FileStamp young{1, 2, 3, 1'000'000'000'000, 1'000'000'000'000, 0100644};
  cache.store("a.md", young, k_oid, young.mtime_ns + 1'000'000'000);  // hashed 1 s later
  CHECK_FALSE(cache.find("a.md", young));
  cache.store("a.md", young, k_oid, young.mtime_ns + 3'000'000'000);  // 3 s later
  CHECK(cache.find("a.md", young) == std::string(k_oid));
}

TEST_CASE("a damaged stat cache file is ignored", "[snapshot]") {
  const TempRepoDir dir;
  const fs::path file = *StatCache::file_for(dir.path());
  const FileStamp stamp{1, 2, 3, 4, 5, 0100644};
  {
    StatCache cache(file);
    cache.store("a.md", stamp, k_oid, k_later);
    REQUIRE(cache.save());
  }
  std::string bytes;
  {
    std::ifstream in(file, std::ios::binary);
    bytes.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  }
  bytes[bytes.size() / 2] ^= 1;
  std::ofstream(file, std::ios::binary | std::ios::trunc) << bytes;
  CHECK(StatCache(file).size() == 0);
  std::ofstream(file, std::ios::binary | std::ios::trunc) << "gvstat01";
  CHECK(StatCache(file).size() == 0);
}

// The file's layout, written here by hand: "gvstat01", a count, then per entry the path's length,
// the path, six stamp fields and 20 bytes of id, and an FNV-1a checksum of all that.
std::string stat_cache_file(const std::vector<std::string>& paths) {
  std::string out = "gvstat01";
  const auto put = [&](auto value) {
    out.append(reinterpret_cast<const char*>(&value), sizeof value);
  };
  put(static_cast<std::uint64_t>(paths.size()));
  for (const std::string& path : paths) {
    put(static_cast<std::uint32_t>(path.size()));
    out += path;
    for (std::uint64_t field : {1, 2, 3, 4, 5}) {
      put(field);
    }
    put(static_cast<std::uint32_t>(0100644));
    out.append(20, '\x11');
  }
  std::uint64_t hash = 0xcbf29ce484222325ULL;
  for (const char c : out) {
    hash = (hash ^ static_cast<unsigned char>(c)) * 0x100000001b3ULL;
  }
  put(hash);
  return out;
}

TEST_CASE("a stat cache file is used only when its paths are in strictly ascending order",
          "[snapshot]") {
  const TempRepoDir dir;
  const fs::path file = *StatCache::file_for(dir.path());
  fs::create_directories(file.parent_path());
  const FileStamp stamp{1, 2, 3, 4, 5, 0100644};
  const auto write = [&](const std::string& bytes) {
    std::ofstream(file, std::ios::binary | std::ios::trunc) << bytes;
  };
  write(stat_cache_file({"a.md", "b.md"}));
  const StatCache good(file);
  CHECK(good.size() == 2);
  CHECK(good.find("b.md", stamp) == std::string(40, '1'));
  write(stat_cache_file({"b.md", "a.md"}));
  CHECK(StatCache(file).size() == 0);
  write(stat_cache_file({"a.md", "a.md"}));
  CHECK(StatCache(file).size() == 0);
}

TEST_CASE("the work tree takes ids from the stat cache and sees a changed file", "[snapshot]") {
  const TempRepoDir dir;
  dir.write(".memory/10-Memories/MEM-a.md", "first\n");
  const fs::path path = dir.path() / ".memory/10-Memories/MEM-a.md";
  {
    // What an earlier run would have left for this very file, with an id that proves it was
    // taken from the cache rather than computed.
    StatCache cache(*StatCache::file_for(dir.path()));
    cache.store(".memory/10-Memories/MEM-a.md", *stamp_of(path), k_oid, k_later);
    REQUIRE(cache.save());
  }
  {
    const WorktreeSnapshot snapshot(dir.path());
    const auto entries = snapshot.list(".memory/");
    REQUIRE(entries.size() == 1);
    CHECK(entries[0].oid == k_oid);
  }
  dir.write(".memory/10-Memories/MEM-a.md", "other\n");  // same size, new contents
  const WorktreeSnapshot snapshot(dir.path());
  const auto entries = snapshot.list(".memory/");
  REQUIRE(entries.size() == 1);
  CHECK(entries[0].oid == git::hash_blob("other\n"));
}

TEST_CASE("a linked work tree keeps its stat cache in its own git dir", "[snapshot]") {
  const TempRepoDir dir;
  fs::create_directories(dir.path() / "wt");
  fs::create_directories(dir.path() / ".git" / "worktrees" / "wt");
  std::ofstream(dir.path() / "wt" / ".git") << "gitdir: ../.git/worktrees/wt\n";
  const auto file = StatCache::file_for(dir.path() / "wt");
  REQUIRE(file);
  CHECK(fs::weakly_canonical(*file) == fs::weakly_canonical(dir.path() / ".git" / "worktrees" /
                                                            "wt" / "git-vault" / "stat-cache"));
  CHECK_FALSE(StatCache::file_for(dir.path() / "wt" / "nothing"));
}

}  // namespace
}  // namespace gv::stat_cache_test
