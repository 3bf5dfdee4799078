#include "core/distill/telemetry_log.hpp"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "core/distill/memory_health.hpp"

namespace telemetry_log_test {

using namespace gv;
using namespace gv::distill;
using nlohmann::json;

TEST_CASE("a sub-mode log appends entries with unique ids and keeps its counters",
          "[telemetry-log]") {
  TelemetryLog log = TelemetryLog::parse(k_dream_log_path, std::nullopt, {"total_dreamed"});
  const Instant now{1796000000};
  CHECK(log.append("dream", "dream", now, json::object()) == "dream_1796000000");
  CHECK(log.append("dream", "dream", now, {{"themes_surfaced", 2}}) == "dream_1796000000_2");
  log.add("total_dreamed", 2);
  const json doc = json::parse(log.serialize());
  CHECK(doc["version"] == "1.0.0");
  CHECK(doc["operations"][1]["themes_surfaced"] == 2);
  CHECK(doc["operations"][1]["timestamp"] == "2026-11-30T00:53:20Z");
  CHECK(doc["summary"]["total_dreamed"] == 2);
  CHECK(doc["summary"]["last_operation"] == "2026-11-30T00:53:20Z");

  const std::string old = R"({"operations": [], "summary": {"custom": 1}, "extra": true})";
  const json reread =
      json::parse(TelemetryLog::parse(k_dream_log_path, old, {"total_dreamed"}).serialize());
  CHECK(reread["summary"]["total_dreamed"] == 0);
  CHECK(reread["summary"]["custom"] == 1);
  CHECK(reread["extra"] == true);
  CHECK_THROWS_WITH(TelemetryLog::parse(k_dream_log_path, "{}", {}),
                    Catch::Contains("no `operations` array"));
}

TEST_CASE("memory_health keeps a sub-mode's own cursor", "[telemetry-log]") {
  HealthRefresh refresh;
  refresh.now = Instant{1796000000};
  refresh.status = "healthy";
  refresh.cursor = "dream";
  const std::string first = refresh_memory_health(std::nullopt, refresh);
  const std::string second = refresh_memory_health(first, refresh);
  const json health = json::parse(second)["memory_health"];
  CHECK(health["dream_count"] == 2);
  CHECK(health["last_dream"] == "2026-11-30T00:53:20Z");
  CHECK(health["distill_count"] == 0);
  CHECK_FALSE(health.contains("last_revise"));
  CHECK(read_health_cursor(second, "dream") == "2026-11-30T00:53:20Z");
  CHECK_FALSE(read_health_cursor(second, "revise"));
  CHECK_FALSE(read_health_cursor("not json", "dream"));
  CHECK_FALSE(read_health_cursor(std::nullopt, "dream"));
}

}  // namespace telemetry_log_test
