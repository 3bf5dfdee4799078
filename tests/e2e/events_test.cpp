#include <fmt/format.h>

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "tests/e2e/sandbox.hpp"

namespace events_test {

using gv::test::Sandbox;
using nlohmann::json;

namespace {

std::string event(std::string_view id, std::string_view category, std::string_view timestamp,
                  std::string_view extra = "") {
  return fmt::format(R"({{"event_id":"{}","event_type":"{}","category":"{}","timestamp":"{}",)"
                     R"("session_id":"sess_1_abc","message":"m {}"{}}})"
                     "\n",
                     id, category, category, timestamp, id, extra);
}

}  // namespace

TEST_CASE("events prints the store's rows with their repo, filtered", "[events]") {
  Sandbox sandbox;
  sandbox.write("specs/events.jsonl",
                event("e1", "deviation", "2026-01-01T00:00:00Z", R"(,"task":5,"cwd":"/x/alpha")") +
                    event("e2", "blocker", "2026-01-02T00:00:00Z") +
                    event("e3", "deviation", "2026-01-03T00:00:00Z", R"(,"task":6)"));
  const auto all = sandbox.vault({"events"});
  INFO(all.err);
  REQUIRE(all.code == 0);
  CHECK(all.err.empty());
  CHECK_THAT(all.out, Catch::StartsWith(R"({"event_id":"e1",)"));
  CHECK_THAT(all.out, Catch::Contains(R"("cwd":"/x/alpha","repo":"alpha"})"));

  const auto deviations = sandbox.vault({"events", "--category", "deviation", "--since",
                                         "2026-01-02T00:00:00Z", "--format", "json-array"});
  REQUIRE(deviations.code == 0);
  const json rows = json::parse(deviations.out);
  REQUIRE(rows.size() == 1);
  CHECK(rows[0]["event_id"] == "e3");

  const auto task = sandbox.vault({"events", "--task", "5", "--json"});
  REQUIRE(task.code == 0);
  const json document = json::parse(task.out);
  CHECK(document["schema"] == 1);
  REQUIRE(document["events"].size() == 1);
  CHECK(document["events"][0]["event_id"] == "e1");

  const auto counts = sandbox.vault({"events", "--format", "summary-counts"});
  const json summary = json::parse(counts.out);
  CHECK(summary["total_events"] == 3);
  CHECK(summary["by_category"]["deviation"] == 2);
  CHECK(summary["by_repo"]["null"] == 2);
}

TEST_CASE("events reports malformed and truncated lines by number and skips them", "[events]") {
  Sandbox sandbox;
  sandbox.write("specs/events.jsonl", event("e1", "deviation", "t1") + "{oops\n" +
                                          R"({"event_id":"e2","category":"blocker"})" + "\n" +
                                          event("e3", "success", "t3") +
                                          R"({"event_id":"e4","event_t)");
  const auto result = sandbox.vault({"events", "--format", "summary-counts"});
  REQUIRE(result.code == 0);
  CHECK(json::parse(result.out)["total_events"] == 2);
  CHECK_THAT(
      result.err,
      Catch::Contains("git-vault: warning: specs/events.jsonl:2: not valid JSON; line skipped"));
  CHECK_THAT(result.err, Catch::Contains("specs/events.jsonl:3: missing `event_type`"));
  CHECK_THAT(result.err,
             Catch::Contains("specs/events.jsonl:5: not valid JSON (truncated last line)"));
  const json document = json::parse(sandbox.vault({"events", "--json"}).out);
  CHECK(document["invalid_lines"] == 3);
}

TEST_CASE("a missing event store reads as empty in every format", "[events]") {
  Sandbox sandbox;
  const auto jsonl = sandbox.vault({"events"});
  CHECK(jsonl.code == 0);
  CHECK(jsonl.out.empty());
  CHECK(sandbox.vault({"events", "--format", "json-array"}).out == "[]\n");
  const json counts = json::parse(sandbox.vault({"events", "--format", "summary-counts"}).out);
  CHECK(counts == json::parse(R"({"total_events":0,"by_category":{},"by_event_type":{}})"));
}

TEST_CASE("events rejects an unknown format as a usage error", "[events]") {
  Sandbox sandbox;
  const auto result = sandbox.vault({"events", "--format", "xml"});
  CHECK(result.code == 129);
  CHECK_THAT(result.err, Catch::Contains("invalid --format 'xml' (must be one of: "
                                         "jsonl|json-array|summary-counts)"));
  CHECK(result.out.empty());
}

}  // namespace events_test
