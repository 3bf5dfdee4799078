#include "core/vault/index_reader.hpp"

#include <catch2/catch.hpp>

#include "core/memory/lines.hpp"
#include "tests/unit/index_test_fixtures.hpp"

namespace index_reader_test {

using gv::test::ymd;

namespace {

constexpr std::string_view k_path = ".memory/memory-index.json";

}  // namespace

TEST_CASE("the reader takes the current index form", "[index]") {
  const std::string bytes = R"({
  "version": "1.0.0",
  "generated_at": "2026-09-18",
  "entry_count": 2,
  "total_tokens": 0,
  "entries": [
    {"id": "MEM-b", "retrieval_count": 72, "last_retrieved": "2026-09-18", "status": "active"},
    {"id": "MEM-a", "retrieval_count": 0, "last_retrieved": null}
  ]
}
)";
  const gv::IndexReadResult result = gv::read_index(k_path, bytes);
  REQUIRE(result.index);
  CHECK(result.findings.empty());
  REQUIRE(result.index->entries.size() == 2);
  CHECK(result.index->entries[0].id == "MEM-b");  // file order is kept
  CHECK(result.index->entries[0].retrieval_count == 72);
  CHECK(result.index->entries[0].last_retrieved == ymd(2026, 9, 18));
  CHECK(result.index->entries[1].id == "MEM-a");
  CHECK(result.index->entries[1].retrieval_count == 0);
  CHECK_FALSE(result.index->entries[1].last_retrieved);
}

TEST_CASE("the reader takes version 1, a datetime generated_at and sparse entries", "[index]") {
  const std::string bytes = R"({
  "version": 1,
  "generated_at": "2026-04-15T00:00:00Z",
  "extra": {"anything": [1, 2]},
  "entries": [
    {"id": "MEM-x", "custom": true},
    {"id": "MEM-y", "retrieval_count": 4.0, "last_retrieved": "2026-04-20T13:45:00Z"},
    {"id": "MEM-z", "last_retrieved": ""}
  ]
})";
  const gv::IndexReadResult result = gv::read_index(k_path, bytes);
  REQUIRE(result.index);
  CHECK(result.findings.empty());
  REQUIRE(result.index->entries.size() == 3);
  CHECK(result.index->entries[0].retrieval_count == 0);
  CHECK_FALSE(result.index->entries[0].last_retrieved);
  CHECK(result.index->entries[1].retrieval_count == 4);
  CHECK(result.index->entries[1].last_retrieved == ymd(2026, 4, 20));
  CHECK_FALSE(result.index->entries[2].last_retrieved);
}

TEST_CASE("unreadable entry fields become warnings, not failures", "[index]") {
  const std::string bytes = R"({"entries": [
    {"retrieval_count": 3},
    "not an object",
    {"id": "MEM-a", "retrieval_count": "5", "last_retrieved": "2026-02-30"},
    {"id": "MEM-b", "retrieval_count": -2, "last_retrieved": 7},
    {"id": "MEM-c", "retrieval_count": 1.5}
  ]})";
  const gv::IndexReadResult result = gv::read_index(k_path, bytes);
  REQUIRE(result.index);
  REQUIRE(result.index->entries.size() == 3);
  for (const gv::IndexEntryRecord& entry : result.index->entries) {
    CHECK(entry.retrieval_count == 0);
    CHECK_FALSE(entry.last_retrieved);
  }
  REQUIRE(result.findings.size() == 7);
  CHECK(result.findings[0].message == "entry 1 has no id and is ignored");
  CHECK(result.findings[1].message == "entry 2 has no id and is ignored");
  CHECK(result.findings[2].id == "MEM-a");
  CHECK(result.findings[2].message == "retrieval_count is not a non-negative integer");
  CHECK(result.findings[3].message == "last_retrieved is not a date");
  CHECK(result.findings[6].id == "MEM-c");
  for (const gv::Finding& finding : result.findings) {
    CHECK(finding.severity == gv::Severity::warning);
    CHECK(finding.check == "stale-index");
    CHECK(finding.path == k_path);
  }
}

TEST_CASE("an index without an entries array reads as empty with a warning", "[index]") {
  const gv::IndexReadResult result = gv::read_index(k_path, R"({"version": "1.0.0"})");
  REQUIRE(result.index);
  CHECK(result.index->entries.empty());
  REQUIRE(result.findings.size() == 1);
  CHECK(result.findings[0].message == "no `entries` array");
}

TEST_CASE("corrupt JSON gives an error finding with the line of the fault", "[index]") {
  const std::string bytes =
      "{\n"
      "  \"version\": \"1.0.0\",\n"
      "  \"entries\": [\n"
      "    {\"id\": \"MEM-a\",}\n"
      "  ]\n"
      "}\n";
  const gv::IndexReadResult result = gv::read_index(k_path, bytes);
  CHECK_FALSE(result.index);
  REQUIRE(result.findings.size() == 1);
  const gv::Finding& finding = result.findings[0];
  CHECK(finding.check == "stale-index");
  CHECK(finding.severity == gv::Severity::error);
  CHECK(finding.path == k_path);
  CHECK(finding.line == 4);
  CHECK(finding.message.rfind("invalid JSON: syntax error", 0) == 0);
  CHECK(finding.fix == "git vault index");
}

TEST_CASE("a truncated index points at its last line", "[index]") {
  const gv::IndexReadResult result = gv::read_index(k_path, "{\n  \"entries\": [\n");
  CHECK_FALSE(result.index);
  REQUIRE(result.findings.size() == 1);
  CHECK(result.findings[0].line == 3);
}

TEST_CASE("empty bytes and non-object JSON are reported, not thrown", "[index]") {
  const gv::IndexReadResult empty = gv::read_index(k_path, "");
  CHECK_FALSE(empty.index);
  REQUIRE(empty.findings.size() == 1);
  CHECK(empty.findings[0].line == 1);

  const gv::IndexReadResult array = gv::read_index(k_path, "[1, 2]\n");
  CHECK_FALSE(array.index);
  REQUIRE(array.findings.size() == 1);
  CHECK(array.findings[0].message == "not a JSON object");

  const gv::IndexReadResult bad_utf8 = gv::read_index(k_path, "{\"a\": \"\xff\"}");
  CHECK_FALSE(bad_utf8.index);
  CHECK(bad_utf8.findings.size() == 1);
}

TEST_CASE("line_of_offset counts newlines before the offset", "[index]") {
  CHECK(gv::line_of_offset("a\nb\nc", 0) == 1);
  CHECK(gv::line_of_offset("a\nb\nc", 1) == 1);
  CHECK(gv::line_of_offset("a\nb\nc", 2) == 2);
  CHECK(gv::line_of_offset("a\nb\nc", 4) == 3);
  CHECK(gv::line_of_offset("a\nb\nc", 99) == 3);
}

}  // namespace index_reader_test
