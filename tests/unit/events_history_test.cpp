#include <unistd.h>

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <variant>

#include "core/events/archive.hpp"
#include "core/events/history.hpp"

namespace events_history_test {

using namespace gv::events;
namespace fs = std::filesystem;

namespace {

// A temporary file removed at the end of the test.
struct TempFile {
  fs::path path;
  explicit TempFile(const std::string& text) {
    path = fs::temp_directory_path() / ("gv-history-" + std::to_string(::getpid()) + "-" +
                                        std::to_string(reinterpret_cast<std::uintptr_t>(this)));
    std::ofstream(path, std::ios::binary) << text;
  }
  ~TempFile() { fs::remove(path); }
  TempFile(const TempFile&) = delete;
  TempFile& operator=(const TempFile&) = delete;
};

}  // namespace

TEST_CASE("a history line gives the prompt, its project and its session", "[events][history]") {
  const auto parsed = parse_history_line(
      R"({"display":"fix the hook","pastedContents":{},"timestamp":1736700000000,"project":"/r","sessionId":"s1"})");
  REQUIRE(std::holds_alternative<Prompt>(parsed));
  const Prompt& prompt = std::get<Prompt>(parsed);
  CHECK(prompt.display == "fix the hook");
  CHECK(prompt.timestamp_ms == 1736700000000);
  CHECK(prompt.session_id == "s1");
  CHECK(prompt.has_session);

  const auto old = parse_history_line(R"({"display":"x","timestamp":86400000,"project":"/r"})");
  REQUIRE(std::holds_alternative<Prompt>(old));
  CHECK(std::get<Prompt>(old).session_id == "day 1970-01-02");
  CHECK_FALSE(std::get<Prompt>(old).has_session);

  CHECK(std::holds_alternative<std::string>(parse_history_line(R"({"display":"x"})")));
  CHECK(std::holds_alternative<std::string>(parse_history_line("[")));
}

TEST_CASE("the history location comes from the flag, then git config, then HOME",
          "[events][history]") {
  CHECK(history_location("/f", "/c", "/h") == fs::path("/f"));
  CHECK(history_location(std::nullopt, "/c", "/h") == fs::path("/c"));
  CHECK(history_location(std::nullopt, std::nullopt, "/h") == fs::path("/h/.claude/history.jsonl"));
  CHECK_FALSE(history_location(std::nullopt, std::nullopt, std::nullopt));
}

TEST_CASE("read_history keeps this repository's prompts and reports bad lines",
          "[events][history]") {
  const TempFile file(R"({"display":"a","timestamp":1000,"project":"/work/repo","sessionId":"s1"})"
                      "\n"
                      R"({"display":"b","timestamp":2000,"project":"/work/other","sessionId":"s2"})"
                      "\n"
                      "not json\n"
                      R"({"display":"c","timestamp":3000,"project":"/work/repo/","sessionId":"s3"})"
                      "\n"
                      R"({"display":"d","timesta)");
  const HistoryQuery all = read_history(file.path, "/work/repo");
  CHECK(all.exists);
  REQUIRE(all.prompts.size() == 2);
  CHECK(all.prompts[1].display == "c");
  CHECK(all.other_projects == 1);
  CHECK(all.invalid_count == 2);
  REQUIRE(all.invalid.size() == 2);
  CHECK(all.invalid[0].line == 3);
  CHECK(all.invalid[1].reason == "not valid JSON (truncated last line)");

  const HistoryQuery since = read_history(file.path, "/work/repo", 1000);
  REQUIRE(since.prompts.size() == 1);
  CHECK(since.prompts[0].display == "c");

  const HistoryQuery missing = read_history(file.path.string() + ".none", "/work/repo");
  CHECK_FALSE(missing.exists);
  CHECK(missing.prompts.empty());
}

TEST_CASE("archived tasks carry their memory candidates and harvest marks", "[events][archive]") {
  const std::string text = R"({
  "completed_projects": [
    {"project_number": 259, "project_name": "retry_hooks", "archived_at": "2026-09-18T22:26:37Z",
     "memory_candidates": [
       {"content": "Hooks retry twice", "category": "PATTERN", "source_artifact": "a.md",
        "confidence": 0.8, "suggested_keywords": ["hooks", "retry"]},
       {"content": "Done already", "category": "INSIGHT", "source_artifact": "b.md",
        "confidence": 0.9, "suggested_keywords": [], "harvested_at": "2026-10-01T00:00:00Z"},
       {"category": "INSIGHT"}
     ]},
    {"project_number": 7, "title": "Whole task harvested", "memory_candidates_harvested": true,
     "memory_candidates": [{"content": "x", "category": "CONFIG", "source_artifact": "",
                            "confidence": 1, "suggested_keywords": []}]},
    {"project_name": "no number"}
  ]
}
)";
  const std::vector<ArchivedTask> tasks = parse_archived_tasks("specs/archive/state.json", text);
  REQUIRE(tasks.size() == 2);
  CHECK(tasks[0].number == 259);
  CHECK(tasks[0].title == "retry hooks");
  REQUIRE(tasks[0].candidates.size() == 2);  // the one without content is not a candidate
  REQUIRE(tasks[0].unharvested().size() == 1);
  CHECK(tasks[0].unharvested()[0]->suggested_keywords.size() == 2);
  CHECK(tasks[1].unharvested().empty());

  const std::string marked = mark_harvested("specs/archive/state.json", text,
                                            {{0, 0, "MEM-hooks-retry"}}, "2026-12-01T00:00:00Z");
  const std::vector<ArchivedTask> after = parse_archived_tasks("specs/archive/state.json", marked);
  CHECK(after[0].unharvested().empty());
  CHECK(after[0].candidates[0].harvested_as == "MEM-hooks-retry");

  CHECK_THROWS_WITH(parse_archived_tasks("specs/archive/state.json", "{\n  \"a\": ,\n}"),
                    Catch::StartsWith("specs/archive/state.json:2: not valid JSON"));
}

TEST_CASE("a task's folder and artifacts sit beside its record", "[events][archive]") {
  ArchivedTask task;
  task.number = 7;
  task.record_path = "specs/archive/state.json";
  const std::vector<std::string> paths{
      "specs/archive/007_fix_x/reports/01_r.md", "specs/archive/007_fix_x/plans/01_p.md",
      "specs/archive/007_fix_x/progress/p.json", "specs/archive/070_other/summary.md"};
  CHECK(task_folder(task, paths) == "specs/archive/007_fix_x");
  CHECK(task_artifacts(task, paths) ==
        std::vector<std::string>{"specs/archive/007_fix_x/plans/01_p.md",
                                 "specs/archive/007_fix_x/reports/01_r.md"});
  CHECK(is_archive_record_path("specs/vault/01-vault/state.json"));
  CHECK_FALSE(is_archive_record_path("specs/vault/a/b/state.json"));
  CHECK_FALSE(is_archive_record_path("specs/state.json"));
}

}  // namespace events_history_test
