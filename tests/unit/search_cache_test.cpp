#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>

#include "core/search/search.hpp"
#include "core/snapshot/worktree_snapshot.hpp"

namespace search_cache_test {

namespace fs = std::filesystem;
using gv::search::Hit;
using gv::search::Scope;
using gv::search::SearchIndex;

namespace {

struct TempDir {
  fs::path path;
  TempDir() {
    std::string pattern = (fs::temp_directory_path() / "gv-search-cache-XXXXXX").string();
    path = ::mkdtemp(pattern.data());
  }
  ~TempDir() { fs::remove_all(path); }
};

// The work tree, counting the files read.
class CountingSnapshot final : public gv::Snapshot {
 public:
  explicit CountingSnapshot(fs::path root) : m_inner(std::move(root)) {}
  [[nodiscard]] std::vector<gv::SnapshotEntry> list(std::string_view prefix) const override {
    return m_inner.list(prefix);
  }
  [[nodiscard]] std::optional<std::string> read(std::string_view path) const override {
    if (path.starts_with(".memory/")) {
      ++reads;
    }
    return m_inner.read(path);
  }
  [[nodiscard]] std::string describe() const override { return "counting"; }
  mutable int reads = 0;

 private:
  gv::WorktreeSnapshot m_inner;
};

void write_memory(const fs::path& root, const std::string& id, const std::string& body,
                  const std::string& extra = {}) {
  const fs::path file = root / ".memory/10-Memories" / (id + ".md");
  fs::create_directories(file.parent_path());
  std::ofstream(file, std::ios::binary) << "---\ntitle: \"" << id << "\"\ncreated: 2026-01-01\n"
                                        << extra << "---\n\n# " << id << "\n\n"
                                        << body << "\n";
  // Old enough for its stat data to be trusted (see refresh_cached).
  const struct timespec times[2] = {{1'600'000'000, 0}, {1'600'000'000, 0}};
  REQUIRE(::utimensat(AT_FDCWD, file.c_str(), times, 0) == 0);
}

std::vector<std::string> search(const fs::path& root, const fs::path& cache,
                                const CountingSnapshot& snapshot, std::string_view query) {
  SearchIndex index;
  index.refresh_cached(root, cache, snapshot, {});
  std::vector<std::string> ids;
  for (const Hit& hit : index.search(query, Scope::memories, 10, snapshot)) {
    ids.push_back(hit.id);
  }
  return ids;
}

}  // namespace

TEST_CASE("the search cache reads only memory files whose stat changed", "[search]") {
  const TempDir dir;
  const fs::path cache = dir.path / "git/search-cache";
  write_memory(dir.path, "MEM-a", "apple banana");
  write_memory(dir.path, "MEM-b", "banana cherry");
  write_memory(dir.path, "MEM-gone", "banana", "status: tombstoned\ntombstoned_at: 2026-02-01\n");

  CountingSnapshot first(dir.path);
  CHECK(search(dir.path, cache, first, "banana") == std::vector<std::string>{"MEM-a", "MEM-b"});
  CHECK(first.reads == 3 + 2);  // every file, then the two hits again for their snippets
  REQUIRE(fs::exists(cache));

  CountingSnapshot second(dir.path);
  SearchIndex index;
  index.refresh_cached(dir.path, cache, second, {});
  CHECK(second.reads == 0);  // nothing changed: not even the tombstoned file is read
  CHECK(index.memory_count() == 2);

  write_memory(dir.path, "MEM-b", "cherry durian");
  fs::remove(dir.path / ".memory/10-Memories/MEM-a.md");
  CountingSnapshot third(dir.path);
  SearchIndex again;
  again.refresh_cached(dir.path, cache, third, {});
  CHECK(third.reads == 1);
  CHECK(again.memory_count() == 1);
  CHECK(again.search("durian", Scope::memories, 10, third).size() == 1);
  CHECK(again.search("apple", Scope::memories, 10, third).empty());

  // A damaged cache file costs a full read, never a wrong answer.
  std::ofstream(cache, std::ios::binary | std::ios::trunc) << "git-vault search-cache 1\ngarbage";
  CountingSnapshot fourth(dir.path);
  CHECK(search(dir.path, cache, fourth, "cherry") == std::vector<std::string>{"MEM-b"});
  CHECK(fourth.reads >= 2);
}

TEST_CASE("a search ranked from the saved file equals the one that wrote it", "[search]") {
  const TempDir dir;
  const fs::path cache = dir.path / "git/search-cache";
  for (int i = 0; i < 40; ++i) {
    std::string body;
    for (int w = 0; w < 5 + i % 7; ++w) {
      body += (w % 3 == 0 ? "retry " : w % 3 == 1 ? "caches " : "backoff ");
    }
    write_memory(dir.path, "MEM-" + std::to_string(100 + i), body,
                 i % 4 == 0 ? "keywords: [retry]\nretrieval_count: " + std::to_string(i) + "\n"
                            : std::string{});
  }
  const auto run = [&](int& reads) {
    CountingSnapshot snapshot(dir.path);
    SearchIndex index;
    index.refresh_cached(dir.path, cache, snapshot, {});
    std::vector<std::pair<std::string, double>> out;
    for (const Hit& hit : index.search("retry cache", Scope::memories, 25, snapshot)) {
      out.emplace_back(hit.id + " " + hit.snippet + " " + std::to_string(hit.line), hit.score);
    }
    reads = snapshot.reads;
    return out;
  };
  int cold_reads = 0;
  int warm_reads = 0;
  const auto cold = run(cold_reads);
  const auto warm = run(warm_reads);
  // Besides every memory when cold: the first three, which feedback expansion reads (a vault
  // of 30 or more is expanded), and the snippets of the hits shown.
  CHECK(cold_reads == 40 + 3 + 25);
  CHECK(warm_reads == 3 + 25);
  CHECK(warm == cold);
  REQUIRE(cold.size() == 25);
}

TEST_CASE("a settled memory folder is not listed again, and a file added to it is still found",
          "[search]") {
  const TempDir dir;
  const fs::path cache = dir.path / "git/search-cache";
  const fs::path folder = dir.path / ".memory/10-Memories";
  write_memory(dir.path, "MEM-a", "apple banana");
  write_memory(dir.path, "MEM-b", "banana cherry");
  const auto cache_inode = [&] {
    struct ::stat info {};
    REQUIRE(::stat(cache.c_str(), &info) == 0);
    return info.st_ino;
  };
  const auto settle_folder = [&] {
    const struct timespec times[2] = {{1'600'000'000, 0}, {1'600'000'000, 0}};
    REQUIRE(::utimensat(AT_FDCWD, folder.c_str(), times, 0) == 0);
  };

  // The folder changed just now: its stat data is not trusted yet, and every run lists it.
  CountingSnapshot cold(dir.path);
  CHECK(search(dir.path, cache, cold, "banana").size() == 2);
  const auto written = cache_inode();
  CountingSnapshot racy(dir.path);
  CHECK(search(dir.path, cache, racy, "banana").size() == 2);
  CHECK(cache_inode() == written);  // nothing to save: the folder still changed too recently

  // Once the folder has settled, the cache is saved once more with the folder's stamp ...
  settle_folder();
  CountingSnapshot settled(dir.path);
  CHECK(search(dir.path, cache, settled, "banana").size() == 2);
  CHECK(settled.reads == 2);  // only the snippets: no memory was read again
  const auto resaved = cache_inode();
  CHECK(resaved != written);
  // ... and the next run finds everything current without saving.
  CountingSnapshot warm(dir.path);
  CHECK(search(dir.path, cache, warm, "banana").size() == 2);
  CHECK(cache_inode() == resaved);

  // A file added, with the folder's modification time put back: its change time still differs,
  // so the folder is listed and the new memory found.
  write_memory(dir.path, "MEM-c", "banana durian");
  settle_folder();
  CountingSnapshot added(dir.path);
  CHECK(search(dir.path, cache, added, "durian") == std::vector<std::string>{"MEM-c"});
  // A file edited in place leaves the folder as it was: its own stat data tells.
  write_memory(dir.path, "MEM-a", "apple elderberry");
  CountingSnapshot edited(dir.path);
  CHECK(search(dir.path, cache, edited, "elderberry") == std::vector<std::string>{"MEM-a"});
  // A file removed is gone from the results.
  fs::remove(folder / "MEM-b.md");
  settle_folder();
  CountingSnapshot removed(dir.path);
  CHECK(search(dir.path, cache, removed, "cherry").empty());
}

}  // namespace search_cache_test
