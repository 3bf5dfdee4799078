#include "core/util/locked_append.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/wait.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <chrono>
#include <filesystem>
#include <set>
#include <string>

#include "core/util/file.hpp"

namespace locked_append_test {

namespace fs = std::filesystem;
namespace util = gv::util;

namespace {

struct TempDir {
  fs::path path;
  TempDir() {
    std::string pattern = (fs::temp_directory_path() / "gv-append-XXXXXX").string();
    path = ::mkdtemp(pattern.data());
  }
  ~TempDir() { fs::remove_all(path); }
};

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::size_t start = 0;
  while (start < text.size()) {
    const std::size_t end = text.find('\n', start);
    lines.push_back(text.substr(start, end - start));
    start = end == std::string::npos ? text.size() : end + 1;
  }
  return lines;
}

}  // namespace

TEST_CASE("appends create the file and its folders, and end a torn line first", "[util][append]") {
  const TempDir dir;
  const fs::path file = dir.path / "a" / "b" / "log.jsonl";
  CHECK_FALSE(util::read_locked(file, "the log"));
  REQUIRE(util::append_locked(file, "one\n", "the log"));
  util::write_file_atomic(file, util::read_file(file) + "torn");
  REQUIRE(util::append_locked(file, "two\n", "the log"));
  CHECK(*util::read_locked(file, "the log") == "one\ntorn\ntwo\n");
}

TEST_CASE("an append waiting past its deadline gives up and writes nothing", "[util][append]") {
  const TempDir dir;
  const fs::path file = dir.path / "log.jsonl";
  REQUIRE(util::append_locked(file, "one\n", "the log"));
  const int holder = ::open(file.c_str(), O_RDONLY | O_CLOEXEC);
  REQUIRE(holder >= 0);
  REQUIRE(::flock(holder, LOCK_EX) == 0);
  const auto start = std::chrono::steady_clock::now();
  CHECK_FALSE(util::append_locked(file, "two\n", "the log", start + std::chrono::milliseconds(50)));
  CHECK(std::chrono::steady_clock::now() - start < std::chrono::seconds(2));
  ::close(holder);
  CHECK(util::read_file(file) == "one\n");
}

TEST_CASE("dropping a folded prefix keeps what was appended after it", "[util][append]") {
  const TempDir dir;
  const fs::path file = dir.path / "log.jsonl";
  REQUIRE(util::append_locked(file, "a\nb\n", "the log"));
  const std::size_t folded = util::read_locked(file, "the log")->size();
  REQUIRE(util::append_locked(file, "c\n", "the log"));
  util::drop_prefix(file, folded, "the log");
  CHECK(util::read_file(file) == "c\n");
  REQUIRE(util::append_locked(file, "d\n", "the log"));
  CHECK(util::read_file(file) == "c\nd\n");
}

TEST_CASE("two processes appending while a third drops prefixes lose no line", "[util][append]") {
  const TempDir dir;
  const fs::path file = dir.path / "log.jsonl";
  constexpr int k_lines = 300;
  std::vector<pid_t> children;
  for (const std::string name : {"first", "second"}) {
    const pid_t pid = ::fork();
    REQUIRE(pid >= 0);
    if (pid == 0) {
      int status = 0;
      try {
        for (int i = 0; i < k_lines; ++i) {
          util::append_locked(file, name + "-" + std::to_string(i) + "\n", "the log");
        }
      } catch (...) {
        status = 1;
      }
      ::_exit(status);
    }
    children.push_back(pid);
  }
  // The folds: read, keep, drop, again and again while the writers run.
  std::string folded;
  for (int round = 0; round < 50; ++round) {
    const std::optional<std::string> bytes = util::read_locked(file, "the log");
    if (bytes) {
      folded += *bytes;
      util::drop_prefix(file, bytes->size(), "the log");
    }
    ::usleep(1000);
  }
  for (const pid_t pid : children) {
    int status = 0;
    REQUIRE(::waitpid(pid, &status, 0) == pid);
    CHECK(WIFEXITED(status));
    CHECK(WEXITSTATUS(status) == 0);
  }
  folded += util::read_locked(file, "the log").value_or("");
  const std::vector<std::string> lines = lines_of(folded);
  CHECK(lines.size() == 2 * k_lines);
  const std::set<std::string> distinct(lines.begin(), lines.end());
  CHECK(distinct.size() == 2 * k_lines);
  CHECK(distinct.contains("first-299"));
  CHECK(distinct.contains("second-0"));
}

}  // namespace locked_append_test
