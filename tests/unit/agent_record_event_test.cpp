#include <catch2/catch.hpp>
#include <filesystem>
#include <nlohmann/json.hpp>

#include "core/agent/agent_sessions.hpp"
#include "core/agent/record_event.hpp"
#include "core/error.hpp"
#include "core/events/event_record.hpp"
#include "core/events/event_store.hpp"
#include "core/util/file.hpp"

namespace agent_record_event_test {

namespace fs = std::filesystem;
namespace agent = gv::agent;
using nlohmann::ordered_json;

namespace {

struct TempDir {
  fs::path path;
  TempDir() {
    std::string pattern = (fs::temp_directory_path() / "gv-event-XXXXXX").string();
    path = ::mkdtemp(pattern.data());
  }
  ~TempDir() { fs::remove_all(path); }
};

agent::EventSetting setting_in(const fs::path& dir) {
  agent::EventSetting setting;
  setting.common_dir = dir / ".git";
  setting.workdir = dir;
  setting.now = gv::Instant{1796040000};  // 2026-11-30T12:00:00Z
  setting.millisecond = 123;
  setting.cwd = dir.string();
  return setting;
}

}  // namespace

TEST_CASE("an event from flags gets its id, timestamp, directory and a session of its own",
          "[agent][events]") {
  const TempDir dir;
  agent::EventRequest request;
  request.category = "deviation";
  request.event_type = "deviation";
  request.message = "Skipped the retry step";
  request.task = 259;
  request.checkpoint = "phase_2";
  const ordered_json event = agent::build_event(request, setting_in(dir.path));
  CHECK(gv::events::valid_event_id(event["event_id"].get<std::string>()));
  CHECK_THAT(event["event_id"].get<std::string>(), Catch::StartsWith("evt_1796040000123_"));
  CHECK(event["timestamp"] == "2026-11-30T12:00:00.123Z");
  CHECK_THAT(event["session_id"].get<std::string>(), Catch::StartsWith("sess_1796040000_"));
  CHECK(event["cwd"] == dir.path.string());
  CHECK(event["task"] == 259);
  CHECK_FALSE(gv::events::check_event(event));
}

TEST_CASE("events of one agent session share one session id, others get their own",
          "[agent][events]") {
  const TempDir dir;
  const fs::path map = agent::agent_sessions_path(dir.path / ".git");
  const std::optional<std::string> first = agent::session_for(map, "uuid-a", gv::Instant{100});
  const std::optional<std::string> again = agent::session_for(map, "uuid-a", gv::Instant{900});
  const std::optional<std::string> other = agent::session_for(map, "uuid-b", gv::Instant{200});
  REQUIRE(first);
  CHECK(again == first);
  CHECK(other != first);
  CHECK_THAT(*first, Catch::StartsWith("sess_100_"));
  CHECK_THAT(*other, Catch::StartsWith("sess_200_"));
  CHECK(gv::util::read_file(map).find("\"agent_session\":\"uuid-a\"") != std::string::npos);
}

TEST_CASE("a hook payload on stdin gives the event of a tool failure, joined to its session",
          "[agent][events]") {
  const TempDir dir;
  agent::EventRequest request;
  request.input =
      R"({"session_id":"cc-1","cwd":"/work/repo","hook_event_name":"PostToolUseFailure",)"
      R"("tool_name":"Bash","tool_input":{"command":"make engine"},"error":"link failed"})";
  const std::optional<ordered_json> written = agent::record_event(request, setting_in(dir.path));
  REQUIRE(written);
  CHECK((*written)["cc_session_id"] == "cc-1");
  CHECK((*written)["cwd"] == "/work/repo");
  CHECK((*written)["checkpoint"] == "Bash:make engine");
  CHECK((*written)["category"] == "blocker");
  const gv::events::EventQuery query = gv::events::query_store(
      gv::events::store_files(dir.path, dir.path / ".git"), gv::events::EventFilter{});
  REQUIRE(query.events.size() == 1);
  CHECK(query.events[0].event_id == (*written)["event_id"]);

  // Flags name the event; the payload still gives the session.
  agent::EventRequest flagged;
  flagged.input = R"({"session_id":"cc-1","hook_event_name":"UserPromptSubmit","prompt":"x"})";
  flagged.category = "deviation";
  flagged.event_type = "plan_change";
  flagged.message = "Switched to the streaming parser";
  const ordered_json joined = agent::build_event(flagged, setting_in(dir.path));
  CHECK(joined["session_id"] == (*written)["session_id"]);

  agent::EventRequest bare;
  bare.input = R"({"session_id":"cc-1","hook_event_name":"UserPromptSubmit","prompt":"x"})";
  CHECK_THROWS_AS(agent::build_event(bare, setting_in(dir.path)), gv::UsageError);
}

TEST_CASE("a JSON event on stdin is taken as it is, flags win, unknown keys are refused",
          "[agent][events]") {
  const TempDir dir;
  agent::EventRequest request;
  request.input =
      R"({"event_id":"evt_1_abcdef","event_type":"milestone","category":"milestone",)"
      R"("timestamp":"2026-11-01T09:00:00Z","session_id":"sess_1_x","message":"Parser done"})";
  request.message = "Parser done, tests green";
  const ordered_json event = agent::build_event(request, setting_in(dir.path));
  CHECK(event["event_id"] == "evt_1_abcdef");
  CHECK(event["message"] == "Parser done, tests green");

  agent::EventRequest unknown;
  unknown.input = R"({"event_type":"x","category":"success","message":"m","repo":"r"})";
  CHECK_THROWS_WITH(agent::build_event(unknown, setting_in(dir.path)),
                    Catch::Contains("`repo` is not a field of an event"));
  agent::EventRequest missing;
  missing.message = "only a message";
  CHECK_THROWS_WITH(agent::build_event(missing, setting_in(dir.path)),
                    Catch::Contains("`category` is required (--category)"));
  agent::EventRequest broken;
  broken.input = "{\"a\":";
  CHECK_THROWS_WITH(agent::build_event(broken, setting_in(dir.path)),
                    Catch::Contains("--stdin: line 1: not valid JSON"));
}

TEST_CASE("an event holding a credential never reaches the disk", "[agent][events][secrets]") {
  const TempDir dir;
  agent::EventRequest request;
  request.category = "blocker";
  request.event_type = "tool_failure";
  request.message = "curl failed";
  request.detail = R"({"error":"401 for token ghp_0123456789abcdefghijABCDEFGHIJ012345"})";
  CHECK_THROWS_WITH(agent::record_event(request, setting_in(dir.path)),
                    Catch::Contains("`detail.error` line 1 looks like a GitHub token") &&
                        !Catch::Contains("ghp_"));
  CHECK_FALSE(fs::exists(gv::events::event_journal_path(dir.path / ".git")));
}

}  // namespace agent_record_event_test
