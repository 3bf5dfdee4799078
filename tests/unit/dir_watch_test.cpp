#include "core/util/dir_watch.hpp"

#include <unistd.h>

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <random>
#include <string>

namespace dir_watch_test {

namespace fs = std::filesystem;

namespace {

struct TempDir {
  fs::path path;
  TempDir() {
    path = fs::temp_directory_path() / ("gv-dir-watch-" + std::to_string(std::random_device{}()) +
                                        "-" + std::to_string(::getpid()));
    fs::create_directories(path);
  }
  ~TempDir() {
    std::error_code ec;
    fs::remove_all(path, ec);
  }
};

void write(const fs::path& path, const std::string& text) {
  std::ofstream(path, std::ios::binary | std::ios::trunc) << text;
}

}  // namespace

TEST_CASE("a folder watch reports each change under its roots once, and quiet as quiet",
          "[util][watch]") {
  TempDir dir;
  fs::create_directories(dir.path / ".memory/10-Memories");
  write(dir.path / ".memory/10-Memories/MEM-a.md", "a\n");
  gv::util::DirWatch watch({{dir.path / ".memory", true}, {dir.path, false}});
  REQUIRE(watch.active());
  CHECK(watch.changed());  // the first call always says yes
  CHECK(!watch.changed());

  write(dir.path / ".memory/10-Memories/MEM-a.md", "a, edited\n");  // in place, a nested folder
  CHECK(watch.changed());
  CHECK(!watch.changed());

  write(dir.path / "CLAUDE.local.md", "# Working\n");  // the top folder, not recursive
  CHECK(watch.changed());
  CHECK(!watch.changed());

  fs::create_directories(dir.path / ".memory/20-Indices");  // a new folder gets its own watch
  CHECK(watch.changed());
  write(dir.path / ".memory/20-Indices/index.md", "x\n");
  CHECK(watch.changed());

  fs::remove(dir.path / ".memory/10-Memories/MEM-a.md");
  CHECK(watch.changed());
  fs::rename(dir.path / ".memory", dir.path / ".memory-old");  // the root itself moves away
  CHECK(watch.changed());
  CHECK(!watch.changed());
}

TEST_CASE("a folder watch sees a missing root being created", "[util][watch]") {
  TempDir dir;
  gv::util::DirWatch watch({{dir.path / "memory", true}});
  CHECK(watch.changed());
  CHECK(!watch.changed());
  fs::create_directories(dir.path / "memory/registers");
  CHECK(watch.changed());
}

}  // namespace dir_watch_test
