#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>
#include <string>

#include "core/merge/distill_log_merge.hpp"
#include "core/merge/recall_metadata_merge.hpp"
#include "core/merge/state_merge.hpp"

namespace hooks_merge_test {

using gv::merge::merge_distill_logs;
using gv::merge::merge_recall_metadata;
using gv::merge::merge_state;
using Json = nlohmann::ordered_json;

namespace {

// A log whose summary counters are deliberately wrong, to show they are recomputed.
const char* const k_base_ops = R"(
  {"id": "distill_100", "timestamp": "2026-11-01T10:00:00Z", "type": "purge",
   "affected_memories": ["MEM-a", "MEM-b"], "commit": null}
)";

std::string log_with(const std::string& ops) {
  return R"({"version": "1.0.0", "operations": [)" + ops +
         R"(], "summary": {"total_operations": 99, "total_purged": 99, "last_operation": null,
         "custom": "kept"}})";
}

}  // namespace

TEST_CASE("two branches' log entries are united by id, in time order, counters recomputed",
          "[merge]") {
  const std::string ours = log_with(std::string(k_base_ops) + R"(,
    {"id": "distill_300", "timestamp": "2026-11-03T10:00:00Z", "type": "merge",
     "affected_memories": [{"primary": "MEM-c", "secondary": "MEM-d"}]})");
  const std::string theirs = log_with(std::string(k_base_ops) + R"(,
    {"id": "distill_200", "timestamp": "2026-11-02T10:00:00Z", "type": "purge",
     "affected_memories": ["MEM-e"]})");

  const auto merged = merge_distill_logs(ours, theirs);
  REQUIRE(merged);
  CHECK(merged->ends_with("}\n"));
  const Json doc = Json::parse(*merged);
  REQUIRE(doc["operations"].size() == 3);
  CHECK(doc["operations"][0]["id"] == "distill_100");
  CHECK(doc["operations"][1]["id"] == "distill_200");
  CHECK(doc["operations"][2]["id"] == "distill_300");
  const Json& summary = doc["summary"];
  CHECK(summary["total_operations"] == 3);
  CHECK(summary["total_purged"] == 3);  // MEM-a, MEM-b, MEM-e
  CHECK(summary["total_merged"] == 1);
  CHECK(summary["total_compressed"] == 0);
  CHECK(summary["last_operation"] == "2026-11-03T10:00:00Z");
  CHECK(summary["custom"] == "kept");
  CHECK(doc["version"] == "1.0.0");
}

TEST_CASE("merging a log with itself changes only what the counters should be", "[merge]") {
  const std::string log = log_with(k_base_ops);
  const auto merged = merge_distill_logs(log, log);
  REQUIRE(merged);
  const Json doc = Json::parse(*merged);
  CHECK(doc["operations"].size() == 1);
  CHECK(doc["summary"]["total_operations"] == 1);
  CHECK(doc["summary"]["total_purged"] == 2);
  CHECK(merge_distill_logs(*merged, *merged) == merged);
}

TEST_CASE("an entry whose commit only their side filled in takes their version", "[merge]") {
  const std::string ours = log_with(k_base_ops);
  const std::string theirs = log_with(R"(
    {"id": "distill_100", "timestamp": "2026-11-01T10:00:00Z", "type": "purge",
     "affected_memories": ["MEM-a", "MEM-b"], "commit": "abc123"})");
  const Json doc = Json::parse(*merge_distill_logs(ours, theirs));
  REQUIRE(doc["operations"].size() == 1);
  CHECK(doc["operations"][0]["commit"] == "abc123");
  // And the other way round, ours already has it: ours stays.
  const Json back = Json::parse(*merge_distill_logs(theirs, ours));
  CHECK(back["operations"][0]["commit"] == "abc123");
}

TEST_CASE("two different actions under one id both stay, once each", "[merge]") {
  // Two branches that each acted in the same second gave their entries the same id.
  const std::string ours = log_with(R"(
    {"id": "distill_100", "timestamp": "2026-11-01T10:00:00Z", "type": "purge",
     "affected_memories": ["MEM-a"], "parent_commit": "p1", "commit": null})");
  const std::string theirs = log_with(R"(
    {"id": "distill_100", "timestamp": "2026-11-01T10:00:00Z", "type": "purge",
     "affected_memories": ["MEM-b"], "parent_commit": "p2", "commit": null})");
  const auto merged = merge_distill_logs(ours, theirs);
  REQUIRE(merged);
  const Json doc = Json::parse(*merged);
  REQUIRE(doc["operations"].size() == 2);
  CHECK(doc["operations"][0]["affected_memories"] == Json::array({"MEM-a"}));
  CHECK(doc["operations"][1]["affected_memories"] == Json::array({"MEM-b"}));
  CHECK(doc["summary"]["total_purged"] == 2);
  // Merged again with either side or itself, nothing is added twice.
  CHECK(merge_distill_logs(*merged, *merged) == merged);
  CHECK(Json::parse(*merge_distill_logs(*merged, theirs))["operations"].size() == 2);
  CHECK(Json::parse(*merge_distill_logs(ours, *merged))["operations"].size() == 2);
}

TEST_CASE("same timestamp orders by id; a log without summary gets one", "[merge]") {
  const std::string ours = R"({"operations": [
    {"id": "distill_5_2", "timestamp": "2026-11-05T00:00:00Z", "type": "gc",
     "affected_memories": ["MEM-x"]}]})";
  const std::string theirs = R"({"operations": [
    {"id": "distill_5", "timestamp": "2026-11-05T00:00:00Z", "type": "gc",
     "affected_memories": ["MEM-y", "MEM-z"]}], "extra_key": 7})";
  const Json doc = Json::parse(*merge_distill_logs(ours, theirs));
  CHECK(doc["operations"][0]["id"] == "distill_5");
  CHECK(doc["operations"][1]["id"] == "distill_5_2");
  CHECK(doc["summary"]["total_gc_deleted"] == 3);
  CHECK(doc["extra_key"] == 7);
}

TEST_CASE("a side that is not a valid log is left to a normal conflict", "[merge]") {
  const std::string good = log_with(k_base_ops);
  CHECK_FALSE(merge_distill_logs(good, "<<<<<<< ours\n{"));
  CHECK_FALSE(merge_distill_logs("{\"version\": 1}", good));
  CHECK_FALSE(merge_distill_logs(good, "[]"));
}

TEST_CASE("recall metadata is the union by id and the later review wins", "[merge]") {
  const std::string ours = R"({
    "tr0000000001": {"last_reviewed_at": "2026-11-01T00:00:00Z", "pinned": true, "tier": "working"},
    "tr0000000002": {"last_reviewed_at": "2026-11-20T00:00:00Z", "pinned": false}
  })";
  const std::string theirs = R"({
    "tr0000000001": {"last_reviewed_at": "2026-11-10T00:00:00Z", "pinned": false, "tier": "register"},
    "tr0000000002": {"last_reviewed_at": "2026-11-05T00:00:00Z", "pinned": true},
    "tr0000000003": {"created_at": "2026-11-30T12:00:00Z"}
  })";
  const auto merged = merge_recall_metadata(ours, theirs);
  REQUIRE(merged);
  CHECK(*merged ==
        "{\n"
        "  \"tr0000000001\": {\n"
        "    \"last_reviewed_at\": \"2026-11-10T00:00:00Z\",\n"
        "    \"pinned\": false,\n"
        "    \"tier\": \"register\"\n"
        "  },\n"
        "  \"tr0000000002\": {\n"
        "    \"last_reviewed_at\": \"2026-11-20T00:00:00Z\",\n"
        "    \"pinned\": false\n"
        "  },\n"
        "  \"tr0000000003\": {\n"
        "    \"created_at\": \"2026-11-30T12:00:00Z\"\n"
        "  }\n"
        "}\n");
}

TEST_CASE("a record without last_reviewed_at loses, equal ones keep ours", "[merge]") {
  const auto a = merge_recall_metadata(
      R"({"tr1": {"tier": "a"}})", R"({"tr1": {"tier": "b", "last_reviewed_at": "2026-01-01"}})");
  CHECK(nlohmann::json::parse(*a)["tr1"]["tier"] == "b");
  const auto b =
      merge_recall_metadata(R"({"tr1": {"tier": "a", "last_reviewed_at": "2026-01-01"}})",
                            R"({"tr1": {"tier": "b", "last_reviewed_at": "2026-01-01"}})");
  CHECK(nlohmann::json::parse(*b)["tr1"]["tier"] == "a");
}

TEST_CASE("recall metadata that is not a JSON object is left to a normal conflict", "[merge]") {
  CHECK_FALSE(merge_recall_metadata("{}", "not json"));
  CHECK_FALSE(merge_recall_metadata("[1]", "{}"));
  CHECK(merge_recall_metadata("{}", "{}") == "{}\n");
}

TEST_CASE("state.json: memory_health merged key by key, other keys three-way", "[merge]") {
  const std::string base = R"({"tasks": [1], "memory_health": {"last_distilled":
    "2026-11-01T10:00:00Z", "distill_count": 3, "health_score": 70, "last_revise": null}})";
  // Each side ran one action; theirs later, and theirs also ran revise. Ours changed a key of
  // another tool's, theirs added one.
  const std::string ours = R"({"tasks": [1, 2], "memory_health": {"last_distilled":
    "2026-11-02T10:00:00Z", "distill_count": 4, "health_score": 75, "last_revise": null}})";
  const std::string theirs = R"({"tasks": [1], "memory_health": {"last_distilled":
    "2026-11-03T10:00:00Z", "distill_count": 5, "health_score": 80, "last_revise":
    "2026-11-03T10:00:00Z", "revise_count": 1}, "repository_health": {"ok": true}})";
  const auto merged = merge_state(base, ours, theirs);
  REQUIRE(merged);
  CHECK(merged->ends_with("}\n"));
  const Json doc = Json::parse(*merged);
  CHECK(doc["tasks"] == Json::array({1, 2}));
  CHECK(doc["repository_health"]["ok"] == true);
  const Json& health = doc["memory_health"];
  CHECK(health["last_distilled"] == "2026-11-03T10:00:00Z");
  CHECK(health["distill_count"] == 6);  // 3 + 1 + 2
  CHECK(health["health_score"] == 80);  // from the side that distilled last
  CHECK(health["last_revise"] == "2026-11-03T10:00:00Z");
  CHECK(health["revise_count"] == 1);
  // The other way round gives the same values.
  const Json back = Json::parse(*merge_state(base, theirs, ours));
  CHECK(back["memory_health"] == health);
  CHECK(back["tasks"] == doc["tasks"]);
}

TEST_CASE("state.json added on both sides merges; another tool's key changed twice conflicts",
          "[merge]") {
  const std::string ours =
      R"({"memory_health": {"last_distilled": "2026-11-02T10:00:00Z", "distill_count": 1}})";
  const std::string theirs =
      R"({"memory_health": {"last_distilled": "2026-11-02T10:00:00Z", "distill_count": 1,
      "status": "healthy"}})";
  const auto added = merge_state("", ours, theirs);
  REQUIRE(added);
  // The same value on both sides is one change, as git takes it.
  CHECK(Json::parse(*added)["memory_health"]["distill_count"] == 1);
  CHECK(Json::parse(*added)["memory_health"]["status"] == "healthy");

  CHECK_FALSE(merge_state(R"({"tasks": 1})", R"({"tasks": 2})", R"({"tasks": 3})"));
  CHECK_FALSE(merge_state("{}", "[1]", "{}"));
  // A key removed on one side and untouched on the other is removed.
  CHECK(Json::parse(*merge_state(R"({"a": 1, "b": 2})", R"({"a": 1})", R"({"a": 1, "b": 2})")) ==
        Json::parse(R"({"a": 1})"));
}

}  // namespace hooks_merge_test
