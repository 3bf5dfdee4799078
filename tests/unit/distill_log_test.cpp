#include <catch2/catch.hpp>

#include "core/distill/log.hpp"
#include "core/distill/memory_health.hpp"
#include "core/error.hpp"

namespace distill_log_test {

using namespace gv;
using namespace gv::distill;

TEST_CASE("a new log counts operations and ids stay unique within one second", "[distill-log]") {
  DistillLog log;
  NewOperation op;
  op.type = "purge";
  op.timestamp = Instant{1800000000};
  op.affected_memories = {"MEM-a", "MEM-b"};
  const std::string first = log.append(op);
  const std::string second = log.append(op);
  CHECK(first == "distill_1800000000");
  CHECK(second == "distill_1800000000_2");
  const auto doc = nlohmann::json::parse(log.serialize());
  CHECK(doc["summary"]["total_operations"] == 2);
  CHECK(doc["summary"]["total_purged"] == 4);
  CHECK(doc["summary"]["last_operation"] == "2027-01-15T08:00:00Z");
  CHECK(doc["operations"][0]["commit"].is_null());
}

TEST_CASE("an existing log keeps its bytes and gains missing counters", "[distill-log]") {
  const std::string text = R"({
  "version": "1.0.0",
  "operations": [
    {
      "id": "distill_1",
      "type": "report"
    }
  ],
  "summary": {
    "total_operations": 1,
    "last_operation": null
  }
}
)";
  DistillLog log = DistillLog::parse(".memory/distill-log.json", text);
  REQUIRE(log.operations().size() == 1);
  NewOperation op;
  op.type = "gc";
  op.timestamp = Instant{0};
  op.affected_memories = {"MEM-x"};
  log.append(op);
  const auto doc = nlohmann::json::parse(log.serialize());
  CHECK(doc["summary"]["total_gc_deleted"] == 1);
  CHECK(doc["summary"]["total_operations"] == 2);
  CHECK(log.serialize().starts_with(
      "{\n  \"version\": \"1.0.0\",\n  \"operations\": [\n    {\n      \"id\": \"distill_1\","));
}

TEST_CASE("a corrupt log names its file and line", "[distill-log]") {
  try {
    (void)DistillLog::parse(".memory/distill-log.json", "{\n  \"operations\": [\n  oops\n}");
    FAIL("expected an error");
  } catch (const Error& e) {
    CHECK_THAT(e.what(), Catch::StartsWith(".memory/distill-log.json:3:"));
  }
}

TEST_CASE("memory_health is refreshed without touching the rest of state.json", "[state]") {
  HealthRefresh refresh;
  refresh.now = Instant{1800000000};
  refresh.total_memories = 5;
  refresh.never_retrieved = 2;
  refresh.health_score = 85;
  refresh.status = "healthy";

  SECTION("missing file") {
    const auto doc = nlohmann::json::parse(refresh_memory_health(std::nullopt, refresh));
    CHECK(doc["memory_health"]["distill_count"] == 0);
    CHECK(doc["memory_health"]["health_score"] == 85);
  }
  SECTION("other keys keep their exact bytes") {
    const std::string before =
        "{\"repository_health\":{\"status\":\"ok\"},  \"memory_health\": {\"distill_count\": 3, "
        "\"dream_count\": 1}, \"z\": [1,2]}\n";
    refresh.changed_memories = true;
    const std::string after = refresh_memory_health(before, refresh);
    CHECK(after.starts_with("{\"repository_health\":{\"status\":\"ok\"},  \"memory_health\": {"));
    CHECK(after.ends_with("}, \"z\": [1,2]}\n"));
    const auto doc = nlohmann::json::parse(after);
    CHECK(doc["memory_health"]["distill_count"] == 4);
    CHECK(doc["memory_health"]["dream_count"] == 1);
    CHECK(doc["memory_health"]["last_distilled"] == "2027-01-15T08:00:00Z");
  }
  SECTION("memory_health is appended when absent") {
    const std::string after = refresh_memory_health("{\n  \"a\": 1\n}\n", refresh);
    CHECK(after.starts_with("{\n  \"a\": 1,\n  \"memory_health\": {\n    \"last_distilled\""));
    CHECK(nlohmann::json::parse(after)["a"] == 1);
  }
  SECTION("an invalid file is refused with its line") {
    CHECK_THROWS_WITH(refresh_memory_health("{\n\n]", refresh),
                      Catch::StartsWith("specs/state.json:3:"));
  }
}

}  // namespace distill_log_test
