#include <fmt/format.h>

#include <catch2/catch.hpp>
#include <limits>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "core/memory/lines.hpp"
#include "core/vault/index_reader.hpp"

// read_index walks the bytes with a streaming parser instead of building the document. This
// reference reads the same fields from the built document, as read_index (and gc, for
// tombstoned_at) first did; both must give the same records and findings on every shape.
namespace gv::index_reader_stream_test {
namespace {

using OrderedJson = nlohmann::ordered_json;

Finding warning(std::string_view path, std::string id, std::string message) {
  Finding finding;
  finding.check = "stale-index";
  finding.severity = Severity::warning;
  finding.path = std::string(path);
  finding.id = std::move(id);
  finding.message = std::move(message);
  finding.fix = "git vault index";
  return finding;
}

std::optional<std::int64_t> as_count(const OrderedJson& value) {
  constexpr auto k_max = std::numeric_limits<std::int64_t>::max();
  if (value.is_number_unsigned()) {
    const auto count = value.get<std::uint64_t>();
    return count <= static_cast<std::uint64_t>(k_max)
               ? std::optional(static_cast<std::int64_t>(count))
               : std::nullopt;
  }
  if (value.is_number_integer()) {
    const auto count = value.get<std::int64_t>();
    return count >= 0 ? std::optional(count) : std::nullopt;
  }
  if (value.is_number_float()) {
    const double number = value.get<double>();
    if (number >= 0 && number < 9.0e15 &&
        number == static_cast<double>(static_cast<std::int64_t>(number))) {
      return static_cast<std::int64_t>(number);
    }
  }
  return std::nullopt;
}

// Records and findings from the document; nullopt when the bytes are not JSON.
std::optional<std::pair<std::vector<IndexEntryRecord>, std::vector<Finding>>> reference(
    std::string_view path, std::string_view bytes) {
  OrderedJson document;
  try {
    document = OrderedJson::parse(bytes.begin(), bytes.end());
  } catch (const OrderedJson::parse_error&) {
    return std::nullopt;
  }
  std::vector<IndexEntryRecord> records;
  std::vector<Finding> findings;
  if (!document.is_object()) {
    findings.push_back(warning(path, "", "not a JSON object"));
    return std::pair(records, findings);
  }
  const auto entries = document.find("entries");
  if (entries == document.end() || !entries->is_array()) {
    findings.push_back(warning(path, "", "no `entries` array"));
    return std::pair(records, findings);
  }
  std::size_t position = 0;
  for (const OrderedJson& entry : *entries) {
    ++position;
    const auto id = entry.is_object() ? entry.find("id") : entry.end();
    if (!entry.is_object() || id == entry.end() || !id->is_string() ||
        id->get_ref<const std::string&>().empty()) {
      findings.push_back(
          warning(path, "", fmt::format("entry {} has no id and is ignored", position)));
      continue;
    }
    IndexEntryRecord record;
    record.id = id->get<std::string>();
    if (const auto count = entry.find("retrieval_count"); count != entry.end()) {
      if (const auto value = as_count(*count)) {
        record.retrieval_count = *value;
      } else {
        findings.push_back(
            warning(path, record.id, "retrieval_count is not a non-negative integer"));
      }
    }
    if (const auto last = entry.find("last_retrieved");
        last != entry.end() && !last->is_null() &&
        !(last->is_string() && last->get_ref<const std::string&>().empty())) {
      record.last_retrieved =
          last->is_string() ? parse_date(last->get_ref<const std::string&>()) : std::nullopt;
      if (!record.last_retrieved) {
        findings.push_back(warning(path, record.id, "last_retrieved is not a date"));
      }
    }
    if (const auto at = entry.find("tombstoned_at"); at != entry.end() && at->is_string()) {
      record.tombstoned_at = at->get<std::string>();
    }
    records.push_back(std::move(record));
  }
  return std::pair(records, findings);
}

TEST_CASE("the streaming index reader gives what the document gives", "[index]") {
  const char* const documents[] = {
      R"({"version": "1.0.0", "entries": [{"id": "MEM-a", "retrieval_count": 3,
          "last_retrieved": "2026-01-02", "keywords": ["x", {"id": "nested"}]}]})",
      R"({"entries": [{"id": "MEM-a", "id": "MEM-b", "retrieval_count": 1,
          "retrieval_count": 2}]})",
      R"({"entries": [{"id": "MEM-a"}], "entries": [{"id": "MEM-c"}]})",
      R"({"entries": [{"id": "MEM-a"}], "entries": {"id": "MEM-c"}})",
      R"({"entries": [{"id": "MEM-a"}], "entries": 5})",
      R"({"entries": [1, "x", null, [], [{"id": "MEM-in-array"}], {}, {"id": ""},
          {"id": 7}, {"id": ["MEM-a"]}, {"id": {"x": 1}}, {"id": "MEM-ok"}]})",
      R"({"entries": [{"id": "MEM-a", "retrieval_count": -1}, {"id": "MEM-b",
          "retrieval_count": 5.0}, {"id": "MEM-c", "retrieval_count": 5.5},
          {"id": "MEM-d", "retrieval_count": 18446744073709551615},
          {"id": "MEM-e", "retrieval_count": "5"}, {"id": "MEM-f", "retrieval_count": null},
          {"id": "MEM-g", "retrieval_count": true}, {"id": "MEM-h", "retrieval_count": [1]},
          {"id": "MEM-i", "retrieval_count": 1e20}, {"id": "MEM-j", "retrieval_count": -0}]})",
      R"({"entries": [{"id": "MEM-a", "last_retrieved": ""}, {"id": "MEM-b",
          "last_retrieved": null}, {"id": "MEM-c", "last_retrieved": "yesterday"},
          {"id": "MEM-d", "last_retrieved": 20260101}, {"id": "MEM-e",
          "last_retrieved": {"date": "2026-01-01"}}, {"id": "MEM-f",
          "last_retrieved": "2026-01-01", "last_retrieved": null}]})",
      R"({"other": {"entries": [{"id": "MEM-deep"}]}, "entries": []})",
      R"({"entries": [{"id": "MEM-a", "tombstoned_at": "2026-01-01"}, {"id": "MEM-b",
          "tombstoned_at": 5}, {"id": "MEM-c", "tombstoned_at": "x", "tombstoned_at": null},
          {"id": "MEM-d", "tombstoned_at": {"at": "2026-01-01"}}, {"id": "MEM-e",
          "tombstoned_at": null, "tombstoned_at": "2026-02-02"}]})",
      R"({"version": 1})",
      R"([{"id": "MEM-a"}])",
      R"("text")",
      R"({})",
  };
  for (const char* document : documents) {
    INFO(document);
    const auto expected = reference("index.json", document);
    REQUIRE(expected);
    const IndexReadResult actual = read_index("index.json", document);
    if (expected->second.size() == 1 && expected->second[0].message == "not a JSON object") {
      CHECK_FALSE(actual.index);
      REQUIRE(actual.findings.size() == 1);
      CHECK(actual.findings[0].message == "not a JSON object");
      continue;
    }
    REQUIRE(actual.index);
    REQUIRE(actual.index->entries.size() == expected->first.size());
    for (std::size_t i = 0; i < expected->first.size(); ++i) {
      CHECK(actual.index->entries[i].id == expected->first[i].id);
      CHECK(actual.index->entries[i].retrieval_count == expected->first[i].retrieval_count);
      CHECK(actual.index->entries[i].last_retrieved == expected->first[i].last_retrieved);
      CHECK(actual.index->entries[i].tombstoned_at == expected->first[i].tombstoned_at);
    }
    REQUIRE(actual.findings.size() == expected->second.size());
    for (std::size_t i = 0; i < expected->second.size(); ++i) {
      CHECK(actual.findings[i].id == expected->second[i].id);
      CHECK(actual.findings[i].message == expected->second[i].message);
      CHECK(actual.findings[i].severity == expected->second[i].severity);
    }
  }
}

}  // namespace
}  // namespace gv::index_reader_stream_test
