#include <sys/wait.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <filesystem>

#include "core/agent/fold.hpp"
#include "core/agent/journal.hpp"
#include "core/landing/land.hpp"
#include "tests/unit/gate_test_snapshot.hpp"

namespace agent_journal_test {

namespace fs = std::filesystem;
using gv::agent::RetrievalRecord;

namespace {

constexpr gv::Date k_today{20787};  // 2026-11-30

struct TempDir {
  fs::path path;
  TempDir() {
    std::string pattern = (fs::temp_directory_path() / "gv-journal-XXXXXX").string();
    path = ::mkdtemp(pattern.data());
  }
  ~TempDir() { fs::remove_all(path); }
};

}  // namespace

TEST_CASE("journal records are one JSON line each and total by memory", "[journal]") {
  const std::string bytes = gv::agent::format_records({{"MEM-a", gv::Date{20786}, "search"},
                                                       {"MEM-b", k_today, "show"},
                                                       {"MEM-a", k_today, "mcp"}});
  CHECK(bytes ==
        "{\"id\":\"MEM-a\",\"date\":\"2026-11-29\",\"via\":\"search\"}\n"
        "{\"id\":\"MEM-b\",\"date\":\"2026-11-30\",\"via\":\"show\"}\n"
        "{\"id\":\"MEM-a\",\"date\":\"2026-11-30\",\"via\":\"mcp\"}\n");
  const gv::agent::JournalTotals totals =
      gv::agent::total_records(bytes + "{\"id\":\"MEM-a\",\"da\n\n[1]\n{\"id\":\"MEM-c\"}\n");
  CHECK(totals.records == 3);
  CHECK(totals.bad_lines == 3);
  CHECK(totals.by_id.at("MEM-a").count == 2);
  CHECK(totals.by_id.at("MEM-a").last_retrieved == k_today);
  CHECK(totals.by_id.at("MEM-b").count == 1);
}

TEST_CASE("two processes appending at once lose no record", "[journal]") {
  const TempDir dir;
  const fs::path file = gv::agent::journal_path(dir.path);
  constexpr int k_records = 300;
  std::vector<pid_t> children;
  for (const std::string id : {"MEM-first", "MEM-second"}) {
    const pid_t pid = ::fork();
    REQUIRE(pid >= 0);
    if (pid == 0) {
      int status = 0;
      try {
        for (int i = 0; i < k_records; ++i) {
          gv::agent::append_records(file, {{id, k_today, "test"}});
        }
      } catch (...) {
        status = 1;
      }
      ::_exit(status);
    }
    children.push_back(pid);
  }
  for (const pid_t pid : children) {
    int status = 0;
    REQUIRE(::waitpid(pid, &status, 0) == pid);
    CHECK(WIFEXITED(status));
    CHECK(WEXITSTATUS(status) == 0);
  }
  const gv::agent::JournalTotals totals = gv::agent::read_journal(file);
  CHECK(totals.bad_lines == 0);
  CHECK(totals.records == 2 * k_records);
  CHECK(totals.by_id.at("MEM-first").count == k_records);
  CHECK(totals.by_id.at("MEM-second").count == k_records);
}

// A fold's commit consumes the journal as the fold read it; the drop replaces the file with what
// was appended since, so a record appended while it runs waits for the lock and survives.
TEST_CASE("a record appended while a fold's prefix is dropped waits and survives", "[journal]") {
  const TempDir dir;
  const fs::path file = gv::agent::journal_path(dir.path);
  gv::agent::append_records(file, {{"MEM-a", k_today, "test"}, {"MEM-a", k_today, "test"}});
  const gv::agent::JournalContents read = gv::agent::read_journal_contents(file);
  CHECK(read.totals.records == 2);
  // Appended after the fold read, before its commit drops what it read.
  gv::agent::append_records(file, {{"MEM-c", k_today, "test"}});

  // The writer is forked first and appends once the drop holds the journal's lock, with the
  // rest written to the new file that is about to replace it.
  int go[2];
  REQUIRE(::pipe(go) == 0);
  const pid_t pid = ::fork();
  REQUIRE(pid >= 0);
  if (pid == 0) {
    ::close(go[1]);
    char byte = 0;
    int status = ::read(go[0], &byte, 1) == 1 ? 0 : 1;
    try {
      gv::agent::append_records(file, {{"MEM-b", k_today, "test"}});
    } catch (...) {
      status = 1;
    }
    ::_exit(status);
  }
  ::close(go[0]);
  CHECK(gv::util::drop_prefix(read.read, [&] {
    REQUIRE(::write(go[1], "x", 1) == 1);
    ::usleep(100'000);  // the writer is now waiting for the lock of the file being replaced
  }));
  ::close(go[1]);
  int status = 0;
  REQUIRE(::waitpid(pid, &status, 0) == pid);
  CHECK(WEXITSTATUS(status) == 0);
  const gv::agent::JournalTotals after = gv::agent::read_journal(file);
  CHECK(after.records == 2);
  CHECK(after.by_id.count("MEM-a") == 0);
  CHECK(after.by_id.count("MEM-b") == 1);
  CHECK(after.by_id.count("MEM-c") == 1);
  // Never twice: the journal is another file now, so the same prefix is not dropped again.
  CHECK_FALSE(gv::util::drop_prefix(read.read));
  CHECK(gv::agent::read_journal(file).records == 2);
  CHECK_FALSE(fs::exists(file.string() + ".new"));
  CHECK(gv::agent::read_journal(dir.path / "absent.jsonl").records == 0);
}

// Between a fold's commit and its drop, readers leave out what the commit holds already.
TEST_CASE("a reader leaves out the prefix a landed fold consumed", "[journal]") {
  const TempDir dir;
  const fs::path file = gv::agent::journal_path(dir.path);
  gv::agent::append_records(file, {{"MEM-a", k_today, "test"}, {"MEM-b", k_today, "test"}});
  const gv::util::FilePrefix consumed = gv::agent::read_journal_contents(file).read;
  gv::agent::append_records(file, {{"MEM-a", k_today, "test"}});

  const gv::agent::JournalTotals totals = gv::agent::read_journal(file, {consumed});
  CHECK(totals.records == 1);
  CHECK(totals.by_id.at("MEM-a").count == 1);
  CHECK(totals.by_id.count("MEM-b") == 0);
  CHECK(gv::agent::read_journal(file).records == 3);

  // A prefix of another generation of the file, or with other bytes, covers nothing.
  gv::util::FilePrefix other = consumed;
  other.inode += 1;
  CHECK(gv::agent::read_journal(file, {other}).records == 3);
  other = consumed;
  other.digest = std::string(32, '0');
  CHECK(gv::agent::read_journal(file, {other}).records == 3);
}

TEST_CASE("a fold adds the journal to the larger of frontmatter and index counts", "[journal]") {
  gv::test::MapSnapshot snapshot({
      {".memory/10-Memories/MEM-a.md",
       gv::test::note("A", "retrieval_count: 2\nlast_retrieved: 2026-11-01\n")},
      {".memory/10-Memories/MEM-b.md", gv::test::note("B")},
  });
  gv::test::regenerate(snapshot);
  // An index from the original scripts that knows more retrievals than frontmatter (D4).
  std::string index = *snapshot.read(".memory/memory-index.json");
  const std::string from = "\"retrieval_count\": 2";
  REQUIRE(index.find(from) != std::string::npos);
  index.replace(index.find(from), from.size(), "\"retrieval_count\": 42");
  snapshot.set(".memory/memory-index.json", index);

  gv::agent::JournalTotals totals =
      gv::agent::total_records(gv::agent::format_records({{"MEM-a", k_today, "t"},
                                                          {"MEM-a", gv::Date{20700}, "t"},
                                                          {"MEM-a", k_today, "t"},
                                                          {"MEM-gone", k_today, "t"}}));
  const gv::agent::FoldPlan fold = gv::agent::plan_fold(snapshot, totals);
  CHECK(fold.records == 3);
  CHECK(fold.unknown == 1);
  CHECK(fold.memories == std::vector<std::string>{"MEM-a"});
  CHECK(fold.plan.subject == "vault(retrievals): fold 3 retrievals into 1 memory");
  CHECK(fold.plan.action == "retrievals");
  const std::string bytes = *fold.plan.changes.at(".memory/10-Memories/MEM-a.md");
  CHECK_THAT(bytes, Catch::Contains("retrieval_count: 45\nlast_retrieved: 2026-11-30\n"));
  // Landing regenerates the index over the folded counts; nothing is carried back over them.
  gv::landing::Context context;
  context.clock.today = k_today;
  const gv::landing::Built built =
      gv::landing::build(gv::landing::IndexRegeneration{fold.plan}, snapshot, context);
  CHECK(built.carried.empty());
  CHECK_THAT(*built.plan.changes.at(".memory/memory-index.json"),
             Catch::Contains("\"retrieval_count\": 45"));
  CHECK(gv::agent::plan_fold(snapshot, {}).plan.empty());
}

}  // namespace agent_journal_test
