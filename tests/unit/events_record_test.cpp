#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "core/events/event.hpp"
#include "core/events/event_record.hpp"

namespace events_record_test {

namespace events = gv::events;
using nlohmann::ordered_json;

namespace {

ordered_json valid_event() {
  return ordered_json{{"event_id", "evt_1736700005456_d4e5f6"},
                      {"event_type", "deviation"},
                      {"category", "deviation"},
                      {"timestamp", "2026-07-15T10:22:36.456Z"},
                      {"session_id", "sess_1736700000_abc123"},
                      {"task", 259},
                      {"checkpoint", "phase_2"},
                      {"message", "Skipped optional retry step"},
                      {"detail", {{"reason", "Not needed"}}},
                      {"cwd", "/home/user/project"},
                      {"cc_session_id", "3f9c2a10-8b4e-4c3d-9a1f-6e2d5c7b8a90"}};
}

}  // namespace

TEST_CASE("ids, session ids and timestamps follow the schema's patterns", "[events][record]") {
  CHECK(events::valid_event_id("evt_1736700005456_d4e5f6"));
  CHECK_FALSE(events::valid_event_id("evt_1736700005456_d4e5f"));
  CHECK_FALSE(events::valid_event_id("evt_x_d4e5f6"));
  CHECK_FALSE(events::valid_event_id("event_1_abcdef"));
  CHECK(events::valid_session_id("sess_1736700000_abc123"));
  CHECK_FALSE(events::valid_session_id("3f9c2a10-8b4e-4c3d-9a1f-6e2d5c7b8a90"));
  CHECK_FALSE(events::valid_session_id("sess_1_"));
  CHECK(events::valid_timestamp("2026-07-15T10:22:36Z"));
  CHECK(events::valid_timestamp("2026-07-15T10:22:36.456Z"));
  CHECK(events::valid_timestamp("2026-07-15T10:22:36+02:00"));
  CHECK_FALSE(events::valid_timestamp("2026-07-15"));
  CHECK_FALSE(events::valid_timestamp("2026-07-15T10:22:36"));
  CHECK_FALSE(events::valid_timestamp("2026-07-15T10:22:36.Z"));

  const std::string id = events::make_event_id(1736700005456, events::random_alnum(6));
  CHECK(events::valid_event_id(id));
  CHECK(events::valid_session_id(events::make_session_id(1736700000, events::random_alnum(8))));
  CHECK(events::format_timestamp_ms(1736700005456) == "2025-01-12T16:40:05.456Z");
  CHECK(events::format_timestamp_ms(0) == "1970-01-01T00:00:00.000Z");
  CHECK(events::valid_timestamp(events::format_timestamp_ms(1796040000123)));
}

TEST_CASE("a writer's event is checked field by field", "[events][record]") {
  CHECK_FALSE(events::check_event(valid_event()));
  const auto why = [](auto edit) {
    ordered_json event = valid_event();
    edit(event);
    return events::check_event(event).value_or("");
  };
  CHECK(why([](ordered_json& e) { e.erase("message"); }) == "`message` is required");
  CHECK(why([](ordered_json& e) { e["message"] = ""; }) == "`message` must be a non-empty string");
  CHECK_THAT(why([](ordered_json& e) { e["message"] = "two\nlines"; }),
             Catch::Contains("must be one line"));
  CHECK_THAT(why([](ordered_json& e) { e["session_id"] = "3f9c2a10"; }),
             Catch::Contains("goes in `cc_session_id`"));
  CHECK_THAT(why([](ordered_json& e) { e["category"] = "failure"; }),
             Catch::Contains("is not one of deviation, blocker, milestone, success"));
  CHECK_THAT(why([](ordered_json& e) { e["task"] = "259"; }), Catch::Contains("`task` must be"));
  CHECK_THAT(why([](ordered_json& e) { e["detail"] = "text"; }),
             Catch::Contains("`detail` must be an object"));
  CHECK_THAT(why([](ordered_json& e) { e["duration_seconds"] = -1; }),
             Catch::Contains("duration_seconds"));
  CHECK_THAT(why([](ordered_json& e) { e["repo"] = "x"; }),
             Catch::Contains("`repo` is not a field of an event"));
  CHECK_THAT(why([](ordered_json& e) { e["timestamp"] = "yesterday"; }),
             Catch::Contains("not an ISO 8601 date-time"));
  CHECK(why([](ordered_json& e) { e["task"] = nullptr; }).empty());
}

TEST_CASE("an event line carries every field in the schema's order, and reads back",
          "[events][record]") {
  ordered_json event = valid_event();
  event.erase("detail");
  const std::string line = events::event_line(event);
  CHECK(line ==
        R"({"event_id":"evt_1736700005456_d4e5f6","event_type":"deviation","category":"deviation",)"
        R"("timestamp":"2026-07-15T10:22:36.456Z","duration_seconds":null,)"
        R"("session_id":"sess_1736700000_abc123","task":259,"checkpoint":"phase_2",)"
        R"("message":"Skipped optional retry step","detail":{},"error_ref":null,)"
        R"("cwd":"/home/user/project","cc_session_id":"3f9c2a10-8b4e-4c3d-9a1f-6e2d5c7b8a90"})"
        "\n");
  const auto parsed = events::parse_event_line(line.substr(0, line.size() - 1));
  REQUIRE(std::holds_alternative<events::Event>(parsed));
  CHECK(std::get<events::Event>(parsed).repo() == "project");
}

}  // namespace events_record_test
