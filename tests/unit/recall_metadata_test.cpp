#include <catch2/catch.hpp>

#include "core/error.hpp"
#include "core/recall/metadata.hpp"
#include "core/recall/metadata_scan.hpp"

namespace recall_metadata_test {

namespace {

constexpr std::string_view k_path = "memory/.recall/metadata.json";

gv::recall::MetadataRead read(std::string_view bytes) {
  return gv::recall::parse_metadata(bytes, k_path);
}

bool has_message(const std::vector<gv::Finding>& findings, std::string_view part) {
  for (const auto& finding : findings) {
    if (finding.message.find(part) != std::string::npos) {
      return true;
    }
  }
  return false;
}

}  // namespace

TEST_CASE("a canonical metadata file reads without findings and writes back byte-identical",
          "[recall][metadata]") {
  const std::string bytes =
      "{\n"
      "  \"tr0000000001\": {\n"
      "    \"created_at\": \"2026-02-12T10:15:30Z\",\n"
      "    \"last_reviewed_at\": \"2026-02-12T10:15:30Z\",\n"
      "    \"pinned\": false,\n"
      "    \"snoozed_until\": null,\n"
      "    \"status\": \"active\",\n"
      "    \"tier\": \"working\"\n"
      "  },\n"
      "  \"tr0000000002\": {\n"
      "    \"created_at\": \"2026-02-12T10:15:30Z\",\n"
      "    \"pinned\": true,\n"
      "    \"snoozed_until\": \"2026-03-14T10:15:30Z\",\n"
      "    \"status\": \"superseded\",\n"
      "    \"tier\": \"register\"\n"
      "  }\n"
      "}\n";
  const auto result = read(bytes);
  CHECK(result.findings.empty());
  REQUIRE(result.records.size() == 2);
  const auto& second = result.records.at("tr0000000002");
  CHECK(second.pinned);
  CHECK(second.snoozed_until == "2026-03-14T10:15:30Z");
  CHECK(second.status == "superseded");
  CHECK_FALSE(second.last_reviewed_at);
  CHECK(gv::recall::serialize_metadata(result.records) == bytes);
}

TEST_CASE("metadata is written with keys sorted at every level", "[recall][metadata]") {
  const auto result = read(
      R"({"trb000000000": {"tier": "archive", "zeta": {"b": 1, "a": [true, null]}, "status": "archived"},
          "tra000000000": {"status": "active"}})");
  CHECK(gv::recall::serialize_metadata(result.records) ==
        "{\n"
        "  \"tra000000000\": {\n"
        "    \"pinned\": false,\n"
        "    \"snoozed_until\": null,\n"
        "    \"status\": \"active\"\n"
        "  },\n"
        "  \"trb000000000\": {\n"
        "    \"pinned\": false,\n"
        "    \"snoozed_until\": null,\n"
        "    \"status\": \"archived\",\n"
        "    \"tier\": \"archive\",\n"
        "    \"zeta\": {\n"
        "      \"a\": [\n"
        "        true,\n"
        "        null\n"
        "      ],\n"
        "      \"b\": 1\n"
        "    }\n"
        "  }\n"
        "}\n");
}

TEST_CASE("empty metadata is written as an empty object and a newline", "[recall][metadata]") {
  CHECK(gv::recall::serialize_metadata({}) == "{}\n");
  CHECK(read("{}").records.empty());
}

TEST_CASE("metadata strings keep non-ASCII raw and escape control characters",
          "[recall][metadata]") {
  const auto result = read("{\"tr0000000001\": {\"note\": \"Café \\u0001 \\\"q\\\"\"}}");
  const std::string out = gv::recall::serialize_metadata(result.records);
  CHECK(out.find("\"note\": \"Café \\u0001 \\\"q\\\"\"") != std::string::npos);
}

TEST_CASE("invalid JSON is an error naming the file and line", "[recall][metadata]") {
  try {
    (void)read("{\n  \"tr0000000001\": {\n    \"pinned\": flase\n  }\n}\n");
    FAIL("expected an error");
  } catch (const gv::Error& e) {
    const std::string what = e.what();
    CHECK(what.rfind("memory/.recall/metadata.json:3: invalid JSON: ", 0) == 0);
  }
}

TEST_CASE("an empty metadata file is invalid JSON", "[recall][metadata]") {
  CHECK_THROWS_AS(read(""), gv::Error);
}

TEST_CASE("metadata that is not an object of objects is an error", "[recall][metadata]") {
  CHECK_THROWS_WITH(
      read("[]"),
      Catch::StartsWith(
          "memory/.recall/metadata.json:1: expected a JSON object keyed by id, found array; "
          "fix: correct it by hand, or restore a version that reads"));
  CHECK_THROWS_WITH(
      read("{\n\"tr0000000001\": 3}"),
      Catch::StartsWith("memory/.recall/metadata.json:2: record `tr0000000001` must be an "
                        "object, found number; fix: "));
}

TEST_CASE("a key with a caret is read as the bare id", "[recall][metadata]") {
  const auto result =
      read(R"({"^tr4a9c2e81b7": {"created_at": "2026-02-25T15:42:00+00:00", "tier": "register"}})");
  REQUIRE(result.records.count("tr4a9c2e81b7") == 1);
  CHECK(result.records.at("tr4a9c2e81b7").created_at == "2026-02-25T15:42:00+00:00");
  REQUIRE(result.findings.size() == 1);
  CHECK(result.findings[0].check == "metadata");
  CHECK(result.findings[0].severity == gv::Severity::warning);
  CHECK(result.findings[0].id == "tr4a9c2e81b7");
  CHECK(result.findings[0].message == "key `^tr4a9c2e81b7` has a caret; read as `tr4a9c2e81b7`");
}

TEST_CASE("the old plugin format is read with a warning per oddity", "[recall][metadata]") {
  const auto result = read(
      "{\n"
      "  \"3b9de8d046\": {\n"
      "    \"created_at\": \"2026-03-23\",\n"
      "    \"pinned\": false,\n"
      "    \"status\": \"closed\",\n"
      "    \"tier\": \"registers/decisions.md\"\n"
      "  },\n"
      "  \"a3f8c2e914\": {\"tier\": \"CLAUDE.local.md\"}\n"
      "}\n");
  REQUIRE(result.records.count("tr3b9de8d046") == 1);
  const auto& record = result.records.at("tr3b9de8d046");
  CHECK(record.tier == "register");
  CHECK(record.status == "closed");
  CHECK(record.created_at == "2026-03-23");
  CHECK(result.records.at("tra3f8c2e914").tier == "working");
  CHECK(has_message(result.findings, "lacks the `tr` prefix"));
  CHECK(has_message(result.findings, "date without a time"));
  CHECK(has_message(result.findings, "status `closed`"));
  CHECK(has_message(result.findings, "tier `registers/decisions.md` is a file path"));
  CHECK(has_message(result.findings, "tier `CLAUDE.local.md` is a file path"));
  for (const auto& finding : result.findings) {
    CHECK(finding.path == "memory/.recall/metadata.json");
  }
  CHECK(result.findings.front().line == 2);
}

TEST_CASE("wrongly typed fields read as defaults with warnings", "[recall][metadata]") {
  const auto result = read(
      R"({"tr0000000001": {"pinned": "yes", "status": 3, "snoozed_until": 5, "created_at": "soon"}})");
  const auto& record = result.records.at("tr0000000001");
  CHECK_FALSE(record.pinned);
  CHECK(record.status == "active");
  CHECK_FALSE(record.snoozed_until);
  CHECK(record.created_at == "soon");
  CHECK(result.findings.size() == 4);
}

TEST_CASE("keys that are not ids are kept as written", "[recall][metadata]") {
  const auto result = read(R"({"hello": {"status": "active"}})");
  CHECK(result.records.count("hello") == 1);
  CHECK(has_message(result.findings, "is not an id"));
}

TEST_CASE("two spellings of one id keep both records", "[recall][metadata]") {
  const auto result =
      read(R"({"tr0000000001": {"pinned": true}, "^tr0000000001": {"pinned": false}})");
  CHECK(result.records.size() == 2);
  CHECK(result.records.at("tr0000000001").pinned);
}

TEST_CASE("missing records are added with now, active and the file's tier", "[recall][metadata]") {
  auto metadata = read(R"({"tr0000000001": {"status": "superseded", "tier": "working"}})").records;
  const std::vector<gv::recall::InlineId> inline_ids{
      {"tr0000000001", gv::recall::Tier::working},
      {"tr0000000002", gv::recall::Tier::register_},
  };
  CHECK(gv::recall::add_missing_records(metadata, inline_ids, "2026-03-01T00:00:00Z") == 1);
  CHECK(metadata.at("tr0000000001").status == "superseded");
  CHECK(gv::recall::serialize_metadata(metadata) ==
        "{\n"
        "  \"tr0000000001\": {\n"
        "    \"pinned\": false,\n"
        "    \"snoozed_until\": null,\n"
        "    \"status\": \"superseded\",\n"
        "    \"tier\": \"working\"\n"
        "  },\n"
        "  \"tr0000000002\": {\n"
        "    \"created_at\": \"2026-03-01T00:00:00Z\",\n"
        "    \"last_reviewed_at\": \"2026-03-01T00:00:00Z\",\n"
        "    \"pinned\": false,\n"
        "    \"snoozed_until\": null,\n"
        "    \"status\": \"active\",\n"
        "    \"tier\": \"register\"\n"
        "  }\n"
        "}\n");
  CHECK(gv::recall::add_missing_records(metadata, inline_ids, "2026-03-02T00:00:00Z") == 0);
}

TEST_CASE("the file's location overwrites a stored tier, orphans are left alone",
          "[recall][metadata]") {
  auto metadata =
      read(R"({"tr0000000001": {"tier": "register"}, "tr0000000009": {"tier": "register"}})")
          .records;
  CHECK(gv::recall::recompute_tiers(metadata, {{"tr0000000001", gv::recall::Tier::working}}) == 1);
  CHECK(metadata.at("tr0000000001").tier == "working");
  CHECK(metadata.at("tr0000000009").tier == "register");
  CHECK(gv::recall::metadata_ids(metadata) ==
        std::set<std::string>{"tr0000000001", "tr0000000009"});
}

TEST_CASE("writing the same metadata twice gives the same bytes", "[recall][metadata]") {
  const auto first = read(R"({"tr0000000002": {"b": 2, "a": 1}, "tr0000000001": {}})");
  const std::string once = gv::recall::serialize_metadata(first.records);
  const std::string twice = gv::recall::serialize_metadata(read(once).records);
  CHECK(once == twice);
}

namespace {

// Every field of a read, so the two readers can be compared whole.
std::string describe(const gv::recall::MetadataRead& read) {
  std::string out = gv::recall::serialize_metadata(read.records);
  for (const auto& [id, record] : read.records) {
    out += id + " extra " + record.extra.dump() + "\n";
  }
  for (const auto& finding : read.findings) {
    out += finding.path + ":" + std::to_string(finding.line.value_or(0)) + " " + finding.id + " " +
           finding.message + "\n";
  }
  return out;
}

}  // namespace

TEST_CASE("the flat-file fast path reads every file as the general reader does",
          "[recall][metadata]") {
  struct Case {
    std::string_view bytes;
    bool flat;  // whether the fast path answers for it
  };
  const std::vector<Case> cases{
      {"{}", true},
      {" \n{ }\n", true},
      {"{\n  \"tr0000000001\": {\n    \"created_at\": \"2026-02-12T10:15:30Z\",\n    \"pinned\": "
       "false,\n    \"snoozed_until\": null,\n    \"status\": \"active\",\n    \"tier\": "
       "\"working\"\n  }\n}\n",
       true},
      // Out of order, with every oddity the reader warns about, on lines of their own.
      {"{\n\"tr00000000bb\": {\"tier\": \"archive\"},\n"
       "\"3b9de8d046\": {\"created_at\": \"2026-03-23\", \"status\": \"closed\",\n"
       "  \"tier\": \"registers/decisions.md\"},\n"
       "\"^tr00000000bb\": {\"pinned\": true},\n"
       "\"hello\": {\"tier\": \"CLAUDE.local.md\", \"note\": \"kept\", \"flag\": true},\n"
       "\"tr00000000aa\": {\"pinned\": \"yes\", \"status\": null, \"tier\": false,\n"
       "  \"last_reviewed_at\": \"soon\", \"snoozed_until\": true}\n}",
       true},
      {R"({"tr0000000001": {}, "tr0000000002": {"status": "superseded"}})", true},
      {R"({"tr0000000001": {"created_at": "2026-02-12T10:15:30Z", "née": "é"}})", true},
      // What only the general reader answers for.
      {R"({"tr0000000001": {"pinned": 1, "status": 3, "snoozed_until": 5}})", false},
      {R"({"tr0000000001": {"zeta": {"b": 1, "a": [true, null]}}})", false},
      {R"({"tr0000000001": {"status": "act\u0069ve", "tier": "work\ting"}})", false},
      {R"({"tr000000000\u0031": {"status": "active"}})", false},
      {R"({"tr0000000001": {"pinned": true}, "tr0000000001": {"pinned": false}})", false},
      {R"({"tr0000000001": {"pinned": true, "pinned": false}})", false},
      {"\xEF\xBB\xBF{\"tr0000000001\": {}}", false},
  };
  for (const Case& c : cases) {
    INFO(c.bytes);
    CHECK(gv::recall::scan_flat_metadata(c.bytes).has_value() == c.flat);
    CHECK(describe(read(c.bytes)) == describe(gv::recall::parse_metadata_fully(c.bytes, k_path)));
  }
}

TEST_CASE("files the fast path refuses are refused with the general reader's message",
          "[recall][metadata]") {
  for (const std::string_view bytes :
       {"{\"tr0000000001\": {}", "{\"tr0000000001\": {},}", "{\"tr0000000001\": {}} x",
        "{\"tr0000000001\": 3}", "{\"tr0000000001\": {\"status\": \"a\nb\"}}", "[]", ""}) {
    INFO(bytes);
    CHECK_FALSE(gv::recall::scan_flat_metadata(bytes).has_value());
    const auto message = [](auto&& reader) {
      try {
        (void)reader();
      } catch (const gv::Error& e) {
        return std::string{e.what()};
      }
      return std::string{"no error"};
    };
    const std::string expected =
        message([&] { return gv::recall::parse_metadata_fully(bytes, k_path); });
    CHECK(expected.rfind("memory/.recall/metadata.json:", 0) == 0);
    CHECK(message([&] { return read(bytes); }) == expected);
  }
}

TEST_CASE("a metadata warning names the line of its record's key", "[recall][metadata]") {
  // The first key's text appears earlier as a value: the warning is about the key's line.
  const std::string bytes =
      "{\n"
      "  \"3b9de8d046\": {\"note\": \"see ^tr00000000aa\", \"other\": \"00000000aa\"},\n"
      "  \"00000000aa\": {\n"
      "    \"created_at\": \"2026-03-23\"\n"
      "  }\n"
      "}\n";
  for (const auto& result : {read(bytes), gv::recall::parse_metadata_fully(bytes, k_path)}) {
    REQUIRE(result.findings.size() == 3);
    CHECK(result.findings[0].id == "tr00000000aa");
    CHECK(result.findings[0].line == 3);  // lacks `tr`
    CHECK(result.findings[1].line == 3);  // date without a time
    CHECK(result.findings[2].id == "tr3b9de8d046");
    CHECK(result.findings[2].line == 2);
  }
}

TEST_CASE("a key written twice is read, and named, as its last record", "[recall][metadata]") {
  const std::string bytes =
      "{\n"
      "  \"tr00000000aa\": {\"created_at\": \"2026-03-23\"},\n"
      "  \"tr00000000bb\": {},\n"
      "  \"tr00000000aa\": {\"created_at\": \"2026-03-24\"}\n"
      "}\n";
  CHECK_FALSE(gv::recall::scan_flat_metadata(bytes).has_value());
  const auto result = read(bytes);
  CHECK(result.records.at("tr00000000aa").created_at == "2026-03-24");
  REQUIRE(result.findings.size() == 2);
  CHECK(result.findings[0].line == 4);
  CHECK(has_message(result.findings, "`2026-03-24`"));
  CHECK(result.findings[1].line == 4);
  CHECK(result.findings[1].message ==
        "record `tr00000000aa` is written twice (lines 2 and 4); the last is read, and the next "
        "write keeps only it");
}

}  // namespace recall_metadata_test
