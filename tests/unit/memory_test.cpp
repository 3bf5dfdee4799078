#include <catch2/catch.hpp>
#include <string>

#include "core/memory/parse.hpp"

namespace memory_test {

using gv::parse_memory;
using gv::Severity;

namespace {

const char* const k_path = ".memory/10-Memories/MEM-test.md";

gv::ParsedMemory parse(const std::string& bytes) { return parse_memory(k_path, bytes, "oid1"); }

// The only finding, which must be a schema error.
const gv::Finding& only_error(const gv::ParsedMemory& parsed) {
  REQUIRE(parsed.findings.size() == 1);
  CHECK(parsed.findings[0].check == "schema");
  CHECK(parsed.findings[0].severity == Severity::error);
  CHECK(parsed.findings[0].path == k_path);
  CHECK(parsed.findings[0].id == "MEM-test");
  return parsed.findings[0];
}

}  // namespace

TEST_CASE("a full memory parses with every field normalised", "[memory]") {
  const auto parsed = parse(
      "---\n"
      "title: \"Retry pattern\"\n"
      "created: 2026-01-10\n"
      "tags: [PATTERN, STANDARD]\n"
      "topic: \"python/requests\"  # trailing comment\n"
      "source: \"user input\"\n"
      "modified: 2026-02-01\n"
      "retrieval_count: 4\n"
      "last_retrieved: 2026-03-01\n"
      "keywords:\n"
      "  - retry\n"
      "  - \"back off\"\n"
      "  - 'jitter'\n"
      "summary: \"How to retry\"\n"
      "token_count: 999\n"
      "custom_field: kept\n"
      "---\n"
      "\n"
      "# Retry pattern\n"
      "\n"
      "Use backoff. See [[MEM-other]].\n");
  REQUIRE(parsed.findings.empty());
  REQUIRE(parsed.memory);
  const gv::Memory& m = *parsed.memory;
  CHECK(m.id == "MEM-test");
  CHECK(m.path == k_path);
  CHECK(m.blob_oid == "oid1");
  CHECK(m.title == "Retry pattern");
  CHECK(gv::format_date(m.created) == "2026-01-10");
  CHECK(gv::format_date(m.modified) == "2026-02-01");
  CHECK(m.tags == std::vector<std::string>{"PATTERN", "STANDARD"});
  CHECK(m.topic == "python/requests");
  CHECK(m.source == "user input");
  CHECK(m.keywords == std::vector<std::string>{"retry", "back off", "jitter"});
  CHECK(m.summary == "How to retry");
  CHECK(m.category == "PATTERN");
  CHECK(m.retrieval_count == 4);
  REQUIRE(m.last_retrieved);
  CHECK(gv::format_date(*m.last_retrieved) == "2026-03-01");
  CHECK(m.active());
  CHECK(m.token_count == 9);  // 7 words: # Retry pattern Use backoff. See [[MEM-other]].
  CHECK(m.links == std::vector<std::string>{"MEM-other"});
}

TEST_CASE("absent optional fields take their defaults", "[memory]") {
  const auto parsed = parse("---\ntitle: T\ncreated: 2026-05-05\n---\n");
  REQUIRE(parsed.findings.empty());
  REQUIRE(parsed.memory);
  CHECK(parsed.memory->modified == parsed.memory->created);
  CHECK(parsed.memory->tags.empty());
  CHECK(parsed.memory->keywords.empty());
  CHECK(parsed.memory->topic.empty());
  CHECK(parsed.memory->summary.empty());
  CHECK(parsed.memory->category.empty());
  CHECK(parsed.memory->retrieval_count == 0);
  CHECK_FALSE(parsed.memory->last_retrieved);
  CHECK(parsed.memory->token_count == 0);
}

TEST_CASE("an empty or null last_retrieved means never", "[memory]") {
  for (const char* value : {"last_retrieved:\n", "last_retrieved: null\n", "last_retrieved: ~\n",
                            "last_retrieved:   # never\n"}) {
    const auto parsed =
        parse(std::string("---\ntitle: T\ncreated: 2026-05-05\n") + value + "---\n");
    INFO(value);
    CHECK(parsed.findings.empty());
    REQUIRE(parsed.memory);
    CHECK_FALSE(parsed.memory->last_retrieved);
  }
}

TEST_CASE("timestamps count as their date", "[memory]") {
  const auto parsed = parse(
      "---\ntitle: T\ncreated: 2026-04-15T10:20:30Z\nlast_retrieved: "
      "\"2026-04-16T00:00:00+00:00\"\n"
      "---\n");
  REQUIRE(parsed.findings.empty());
  CHECK(gv::format_date(parsed.memory->created) == "2026-04-15");
  CHECK(gv::format_date(*parsed.memory->last_retrieved) == "2026-04-16");
}

TEST_CASE("the explicit category wins over the first tag", "[memory]") {
  const auto parsed =
      parse("---\ntitle: T\ncreated: 2026-01-01\ntags: [pattern]\ncategory: \"preference\"\n---\n");
  CHECK(parsed.memory->category == "preference");
  CHECK(gv::category_key(*parsed.memory) == "PREFERENCE");
  CHECK(gv::keyword_key("  Back Off \t") == "back off");
}

TEST_CASE("a scalar where a list belongs is one item with a warning", "[memory]") {
  const auto parsed = parse("---\ntitle: T\ncreated: 2026-01-01\ntags: PATTERN\n---\n");
  REQUIRE(parsed.memory);
  CHECK(parsed.memory->tags == std::vector<std::string>{"PATTERN"});
  REQUIRE(parsed.findings.size() == 1);
  CHECK(parsed.findings[0].severity == Severity::warning);
  CHECK(parsed.findings[0].line == 4);
}

TEST_CASE("a tombstoned memory carries its tombstone fields", "[memory]") {
  const auto parsed = parse(
      "---\ntitle: T\ncreated: 2026-01-01\nstatus: tombstoned\ntombstoned_at: 2026-09-18\n"
      "tombstone_reason: \"merged_into:MEM-a\"\n---\n");
  REQUIRE(parsed.findings.empty());
  CHECK(parsed.memory->tombstoned);
  CHECK_FALSE(parsed.memory->active());
  CHECK(gv::format_date(*parsed.memory->tombstoned_at) == "2026-09-18");
  CHECK(parsed.memory->tombstone_reason == "merged_into:MEM-a");
}

TEST_CASE("a tombstoned memory without tombstoned_at is an error at its status line", "[memory]") {
  const auto parsed = parse("---\ntitle: T\ncreated: 2026-01-01\nstatus: tombstoned\n---\n");
  const auto& finding = only_error(parsed);
  CHECK(finding.line == 4);
  CHECK(finding.message == "a tombstoned memory needs tombstoned_at");
  REQUIRE(parsed.memory);
  CHECK(parsed.memory->tombstoned);
}

TEST_CASE("an unknown status is an error", "[memory]") {
  const auto parsed = parse("---\ntitle: T\ncreated: 2026-01-01\nstatus: archived\n---\n");
  const auto& finding = only_error(parsed);
  CHECK(finding.line == 4);
  CHECK(finding.message == "status 'archived' must be active or tombstoned");
}

TEST_CASE("a missing title makes no memory and names the field", "[memory]") {
  const auto parsed = parse("---\ncreated: 2026-01-01\n---\n");
  const auto& finding = only_error(parsed);
  CHECK(finding.message == "missing required field title");
  CHECK(finding.line == 1);
  CHECK_FALSE(parsed.memory);
}

TEST_CASE("an empty title is an error at its line", "[memory]") {
  const auto parsed = parse("---\ntitle: \"  \"\ncreated: 2026-01-01\n---\n");
  CHECK(only_error(parsed).line == 2);
  CHECK_FALSE(parsed.memory);
}

TEST_CASE("a title line with no value is named as empty, not as missing", "[memory]") {
  for (const char* title : {"title:\n", "title: null\n", "title: ~\n"}) {
    const auto parsed = parse(std::string("---\n") + title + "created: 2026-01-01\n---\n");
    const auto& finding = only_error(parsed);
    CHECK(finding.message == "title is empty");
    CHECK(finding.line == 2);
    CHECK_FALSE(parsed.memory);
  }
}

TEST_CASE("a missing created makes no memory", "[memory]") {
  const auto parsed = parse("---\ntitle: T\n---\n");
  CHECK(only_error(parsed).message == "missing required field created");
  CHECK_FALSE(parsed.memory);
}

TEST_CASE("an impossible created date is an error at its line", "[memory]") {
  const auto parsed = parse("---\ntitle: T\ncreated: 2026-02-30\n---\n");
  const auto& finding = only_error(parsed);
  CHECK(finding.line == 3);
  CHECK(finding.message == "created '2026-02-30' is not a valid date (YYYY-MM-DD)");
  CHECK_FALSE(parsed.memory);
}

TEST_CASE("a bad optional field is reported but keeps the memory", "[memory]") {
  const auto parsed = parse("---\ntitle: T\ncreated: 2026-01-01\nmodified: soon\n---\n");
  CHECK(only_error(parsed).line == 4);
  REQUIRE(parsed.memory);
  CHECK(parsed.memory->modified == parsed.memory->created);
}

TEST_CASE("a negative retrieval_count is an error", "[memory]") {
  const auto parsed = parse("---\ntitle: T\ncreated: 2026-01-01\nretrieval_count: -3\n---\n");
  const auto& finding = only_error(parsed);
  CHECK(finding.line == 4);
  CHECK(finding.message == "retrieval_count must not be negative (found -3)");
  CHECK(parsed.memory->retrieval_count == 0);
}

TEST_CASE("a non-numeric retrieval_count is an error", "[memory]") {
  CHECK(only_error(parse("---\ntitle: T\ncreated: 2026-01-01\nretrieval_count: 2.5\n---\n"))
            .message == "retrieval_count '2.5' is not a whole number");
}

TEST_CASE("a file without frontmatter is one finding on line 1", "[memory]") {
  const auto parsed = parse("# Memory: legacy\n\n**Category**: [PATTERN]\n");
  const auto& finding = only_error(parsed);
  CHECK(finding.line == 1);
  CHECK(finding.message == "unreadable: no frontmatter: the file must start with a --- line");
  CHECK_FALSE(parsed.memory);
}

TEST_CASE("an unclosed frontmatter is a finding", "[memory]") {
  CHECK(only_error(parse("---\ntitle: T\n")).message == "frontmatter is not closed by a --- line");
}

TEST_CASE("broken yaml is reported at the line yaml-cpp names", "[memory]") {
  const auto parsed = parse("---\ntitle: T\ncreated: 2026-01-01\nbad: : :\n  - x\n---\n");
  const auto& finding = only_error(parsed);
  CHECK(finding.line == 4);
  CHECK(finding.message.rfind("frontmatter is not valid yaml", 0) == 0);
  CHECK_FALSE(parsed.memory);
}

TEST_CASE("invalid utf-8 in the frontmatter is an error at its line", "[memory]") {
  const auto parsed = parse("---\ntitle: T\ncreated: 2026-01-01\nsummary: \"bad \xFF\"\n---\n");
  const auto& finding = only_error(parsed);
  CHECK(finding.line == 4);
  CHECK(finding.message == "frontmatter is not valid utf-8");
}

TEST_CASE("invalid utf-8 in the body is not a schema problem", "[memory]") {
  const auto parsed = parse("---\ntitle: T\ncreated: 2026-01-01\n---\nbody \xFF\n");
  CHECK(parsed.findings.empty());
  CHECK(parsed.memory);
}

TEST_CASE("a repeated key is an error at its second line", "[memory]") {
  const auto parsed = parse("---\ntitle: T\ncreated: 2026-01-01\ntitle: U\n---\n");
  bool found = false;
  for (const auto& f : parsed.findings) {
    if (f.message == "field title appears twice") {
      found = true;
      CHECK(f.line == 4);
    }
  }
  CHECK(found);
}

TEST_CASE("BOM, CRLF and a missing final newline parse like plain files", "[memory]") {
  const auto parsed = parse(
      "\xEF\xBB\xBF---\r\ntitle: \"T\"\r\ncreated: 2026-01-01\r\nkeywords: [\"a b\", c]\r\n"
      "---\r\n# T\r\nsome words");
  REQUIRE(parsed.findings.empty());
  REQUIRE(parsed.memory);
  CHECK(parsed.memory->keywords == std::vector<std::string>{"a b", "c"});
  CHECK(parsed.memory->token_count == 5);  // # T some words = 4 words
}

TEST_CASE("a block list at column zero is read", "[memory]") {
  const auto parsed = parse("---\ntitle: T\ncreated: 2026-01-01\nkeywords:\n- a\n- b\n---\n");
  REQUIRE(parsed.memory);
  CHECK(parsed.memory->keywords == std::vector<std::string>{"a", "b"});
}

TEST_CASE("a file above the size limit is rejected without parsing", "[memory]") {
  std::string bytes = "---\ntitle: T\ncreated: 2026-01-01\n---\n";
  bytes.append(gv::k_max_memory_file_bytes, 'x');
  const auto parsed = parse(bytes);
  const auto& finding = only_error(parsed);
  CHECK(finding.line == 1);
  CHECK_FALSE(parsed.memory);
}

TEST_CASE("deeply nested flow collections do not crash the parser", "[memory]") {
  std::string bytes = "---\ntitle: T\ncreated: 2026-01-01\ntags: ";
  bytes.append(100000, '[');
  bytes += "\n---\n";
  const auto parsed = parse(bytes);
  CHECK_FALSE(parsed.findings.empty());
}

TEST_CASE("the id is the file name without .md", "[memory]") {
  CHECK(gv::memory_id_from_path(".memory/10-Memories/MEM-a-b.md") == "MEM-a-b");
  CHECK(gv::memory_id_from_path("MEM-x.md") == "MEM-x");
}

TEST_CASE("each link's line is counted from the top of the file", "[memory]") {
  const auto parsed = parse(
      "---\n"
      "title: T\n"
      "created: 2026-05-05\n"
      "---\n"
      "\n"
      "See [[MEM-a]] and [[MEM-b|b]].\n"
      "```\n"
      "[[MEM-in-code]]\n"
      "```\n"
      "\n"
      "Then [[MEM-c#part]].\n");
  REQUIRE(parsed.memory);
  CHECK(parsed.memory->links == std::vector<std::string>{"MEM-a", "MEM-b", "MEM-c"});
  CHECK(parsed.memory->link_lines == std::vector<int>{6, 6, 11});
}

}  // namespace memory_test
