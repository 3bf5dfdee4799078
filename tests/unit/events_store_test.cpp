#include <fmt/format.h>

#include <catch2/catch.hpp>
#include <sstream>
#include <string>
#include <variant>
#include <vector>

#include "core/events/event_store.hpp"
#include "core/events/line_reader.hpp"
#include "core/events/output.hpp"

namespace events_store_test {

using namespace gv::events;

namespace {

std::string event_line(std::string_view id, std::string_view category, std::string_view timestamp,
                       std::string_view extra = "") {
  return fmt::format(R"({{"event_id":"{}","event_type":"{}","category":"{}","timestamp":"{}",)"
                     R"("session_id":"sess_1_abc","message":"m {}"{}}})",
                     id, category, category, timestamp, id, extra);
}

struct Scan {
  std::vector<Event> events;
  std::vector<InvalidLine> invalid;
  ScanStats stats;
};

Scan scan(const std::string& text) {
  std::istringstream in(text);
  Scan out;
  out.stats = scan_events(
      in, [&](const Event& event) { out.events.push_back(event); },
      [&](const InvalidLine& line) { out.invalid.push_back(line); });
  return out;
}

std::string print(OutputFormat format, bool json_document, const std::vector<Event>& events,
                  bool exists = true) {
  std::string out;
  EventPrinter printer(format, json_document, [&](std::string_view text) { out += text; });
  for (const Event& event : events) {
    printer.row(event);
  }
  printer.finish(exists, 0);
  return out;
}

}  // namespace

TEST_CASE("an event line is parsed with its optional fields and its derived repo", "[events]") {
  const auto parsed = parse_event_line(event_line(
      "evt_1_abcdef", "deviation", "2026-07-15T10:22:36.456Z",
      R"(,"task":259,"checkpoint":"phase_2","cwd":"/home/u/proj/","detail":{"reason":"x"},"cc_session_id":null,"future_key":1)"));
  REQUIRE(std::holds_alternative<Event>(parsed));
  const Event& event = std::get<Event>(parsed);
  CHECK(event.task == 259);
  CHECK(event.checkpoint == "phase_2");
  CHECK(event.repo() == "proj");
  CHECK(event.detail["reason"] == "x");
  CHECK_FALSE(event.cc_session_id);
  CHECK(output_row(event)["repo"] == "proj");
}

TEST_CASE("lines that are not events say why", "[events]") {
  const auto why = [](const std::string& line) {
    const auto parsed = parse_event_line(line);
    return std::holds_alternative<std::string>(parsed) ? std::get<std::string>(parsed) : "";
  };
  CHECK(why("{not json") == "not valid JSON");
  CHECK(why("[1,2]") == "not a JSON object");
  CHECK(why(R"({"event_id":"e"})") == "missing `event_type`");
  CHECK(why(event_line("e", "party", "t")) == "unknown category `party`");
  CHECK(why(event_line("e", "blocker", "t", R"(,"task":"259")")) ==
        "`task` must be an integer or null");
  CHECK(why(event_line("e", "blocker", "t", R"(,"detail":[1])")) == "`detail` must be an object");
  CHECK(why(event_line("e", "blocker", "t", R"(,"duration_seconds":-1)")) ==
        "`duration_seconds` must be a number >= 0 or null");
  CHECK(why(event_line("e", "blocker", "t", R"(,"cwd":5)")) == "`cwd` must be a string or null");
}

TEST_CASE("the store is scanned line by line: invalid and truncated lines are reported and skipped",
          "[events]") {
  const std::string text = event_line("e1", "deviation", "2026-01-01T00:00:00Z") + "\n" +
                           "\n" +         // blank: neither event nor problem
                           "garbage\n" +  // line 3
                           event_line("e2", "blocker", "2026-01-02T00:00:00Z") + "\r\n" +
                           R"({"event_id":"e3","event_typ)";  // line 5, cut off mid-write
  const Scan result = scan(text);
  REQUIRE(result.events.size() == 2);
  CHECK(result.events[1].event_id == "e2");
  REQUIRE(result.invalid.size() == 2);
  CHECK(result.invalid[0].line == 3);
  CHECK(result.invalid[0].reason == "not valid JSON");
  CHECK(result.invalid[1].line == 5);
  CHECK(result.invalid[1].reason == "not valid JSON (truncated last line)");
  CHECK(result.stats.lines == 5);
  CHECK(result.stats.invalid == 2);
}

TEST_CASE("a valid last line without its newline is still an event", "[events]") {
  CHECK(scan(event_line("e1", "success", "2026-01-01T00:00:00Z")).events.size() == 1);
}

TEST_CASE("the line reader crosses block boundaries and caps overlong lines", "[events]") {
  const std::string long_line(70000, 'x');  // longer than one 64 KiB read
  std::istringstream in("a\n" + long_line + "\nb");
  LineReader reader(in);
  std::string_view line;
  REQUIRE(reader.next(line));
  CHECK(line == "a");
  REQUIRE(reader.next(line));
  CHECK(line.size() == long_line.size());
  CHECK_FALSE(reader.too_long());
  REQUIRE(reader.next(line));
  CHECK(line == "b");
  CHECK(reader.unterminated());
  CHECK(reader.line_number() == 3);
  CHECK_FALSE(reader.next(line));
}

TEST_CASE("filters are exact and AND-ed; since and until compare the text inclusively",
          "[events]") {
  const Scan result = scan(
      event_line("e1", "deviation", "2026-01-01T00:00:00Z",
                 R"(,"task":7,"checkpoint":"GATE_IN","cwd":"/a/alpha")") +
      "\n" + event_line("e2", "blocker", "2026-01-02T00:00:00Z", R"(,"task":null,"cwd":null)") +
      "\n" +
      event_line("e3", "deviation", "2026-01-03T00:00:00Z",
                 R"(,"task":8,"checkpoint":"GATE_IN","cwd":"/b/beta")") +
      "\n");
  const auto ids = [&](const EventFilter& filter) {
    std::vector<std::string> out;
    for (const Event& event : result.events) {
      if (filter.matches(event)) {
        out.push_back(event.event_id);
      }
    }
    return out;
  };
  EventFilter filter;
  filter.category = "deviation";
  CHECK(ids(filter) == std::vector<std::string>{"e1", "e3"});
  filter.since = "2026-01-03T00:00:00Z";
  CHECK(ids(filter) == std::vector<std::string>{"e3"});
  filter = {};
  filter.until = "2026-01-02T00:00:00Z";
  CHECK(ids(filter) == std::vector<std::string>{"e1", "e2"});
  filter = {};
  filter.task = "7";
  CHECK(ids(filter) == std::vector<std::string>{"e1"});
  filter.task = "null";
  CHECK(ids(filter) == std::vector<std::string>{"e2"});
  filter = {};
  filter.repo = "beta";
  CHECK(ids(filter) == std::vector<std::string>{"e3"});
  filter = {};
  filter.checkpoint = "GATE_IN";
  filter.event_type = "deviation";
  filter.session = "sess_1_abc";
  CHECK(ids(filter) == std::vector<std::string>{"e1", "e3"});
  filter.session = "sess_2_x";
  CHECK(ids(filter).empty());
}

TEST_CASE("the three output formats and the missing-store shapes", "[events]") {
  const Scan result = scan(event_line("e1", "deviation", "t1", R"(,"cwd":"/x/alpha")") + "\n" +
                           event_line("e2", "blocker", "t2") + "\n");
  CHECK(
      print(OutputFormat::jsonl, false, result.events) ==
      R"({"event_id":"e1","event_type":"deviation","category":"deviation","timestamp":"t1","session_id":"sess_1_abc","message":"m e1","cwd":"/x/alpha","repo":"alpha"})"
      "\n"
      R"({"event_id":"e2","event_type":"blocker","category":"blocker","timestamp":"t2","session_id":"sess_1_abc","message":"m e2","repo":null})"
      "\n");
  const auto array = nlohmann::json::parse(print(OutputFormat::json_array, false, result.events));
  REQUIRE(array.size() == 2);
  CHECK(array[1]["repo"].is_null());
  const auto counts =
      nlohmann::json::parse(print(OutputFormat::summary_counts, false, result.events));
  CHECK(counts["total_events"] == 2);
  CHECK(counts["by_category"]["deviation"] == 1);
  CHECK(counts["by_repo"]["alpha"] == 1);
  CHECK(counts["by_repo"]["null"] == 1);

  CHECK(print(OutputFormat::jsonl, false, {}, false).empty());
  CHECK(print(OutputFormat::json_array, false, {}, false) == "[]\n");
  CHECK(print(OutputFormat::summary_counts, false, {}, false) ==
        "{\n  \"total_events\": 0,\n  \"by_category\": {},\n  \"by_event_type\": {}\n}\n");
  CHECK(nlohmann::json::parse(print(OutputFormat::summary_counts, false, {}, true))
            .contains("by_repo"));
}

TEST_CASE("the --json document wraps the rows with a schema", "[events]") {
  const Scan result = scan(event_line("e1", "deviation", "t1") + "\n");
  const auto document = nlohmann::json::parse(print(OutputFormat::jsonl, true, result.events));
  CHECK(document["schema"] == 1);
  CHECK(document["events"].size() == 1);
  CHECK(document["invalid_lines"] == 0);
  const auto empty = nlohmann::json::parse(print(OutputFormat::json_array, true, {}));
  CHECK(empty["events"].empty());
  const auto counts =
      nlohmann::json::parse(print(OutputFormat::summary_counts, true, result.events));
  CHECK(counts["schema"] == 1);
  CHECK(counts["total_events"] == 1);
}

}  // namespace events_store_test
