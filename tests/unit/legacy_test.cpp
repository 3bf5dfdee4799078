#include "core/memory/legacy.hpp"

#include <catch2/catch.hpp>

#include "core/memory/parse.hpp"

namespace legacy_test {

namespace {

constexpr const char* k_path = ".memory/10-Memories/MEM-2026-03-05-001-clean-break.md";

// The early layout: no frontmatter, a `# Memory:` heading and bold metadata lines.
constexpr const char* k_bold =
    "# Memory: Clean-Break Renaming\n"
    "\n"
    "**Category**: [PATTERN]\n"
    "**Source**: Task 142 - knowledge capture\n"
    "**Artifact**: specs/142/summary.md\n"
    "**Date**: 2026-03-05\n"
    "\n"
    "## Pattern\n"
    "\n"
    "Rename with no aliases.\n";

std::string never_asked() {
  FAIL("the fallback date was asked for although the file names one");
  return "";
}

}  // namespace

TEST_CASE("a memory with bold metadata lines gets frontmatter from them", "[legacy]") {
  const gv::legacy::Conversion conversion = gv::legacy::convert(k_path, k_bold, never_asked);
  REQUIRE(conversion.layout == gv::legacy::Layout::bold_fields);
  CHECK(conversion.bytes ==
        "---\n"
        "title: \"Clean-Break Renaming\"\n"
        "created: 2026-03-05\n"
        "tags:\n"
        "  - PATTERN\n"
        "topic: \"\"\n"
        "source: \"Task 142 - knowledge capture\"\n"
        "keywords: []\n"
        "summary: \"\"\n"
        "artifact: \"specs/142/summary.md\"\n"
        "---\n"
        "\n"
        "# Clean-Break Renaming\n"
        "\n"
        "## Pattern\n"
        "\n"
        "Rename with no aliases.\n");
  CHECK_FALSE(conversion.created_from_fallback);
  REQUIRE(conversion.changes.size() == 2);
  CHECK(conversion.changes[0] ==
        "frontmatter from the **Category**, **Source**, **Artifact** and **Date** lines");
  CHECK(conversion.changes[1] == "title from the heading");

  const gv::ParsedMemory parsed = gv::parse_memory(k_path, conversion.bytes, "");
  REQUIRE(parsed.memory);
  CHECK(parsed.memory->category == "PATTERN");
  CHECK(parsed.findings.empty());
}

TEST_CASE("a converted memory keeps every body byte after the metadata lines", "[legacy]") {
  const std::string body = "## Pattern\n\n```\n**Not**: metadata inside a fence\n```\n\nEnd";
  const std::string bytes = std::string("# Memory: T\n**Date**: 2026-03-05\n\n") + body;
  const gv::legacy::Conversion conversion = gv::legacy::convert(k_path, bytes, never_asked);
  REQUIRE(conversion.layout == gv::legacy::Layout::bold_fields);
  CHECK(conversion.bytes.size() > body.size());
  CHECK(conversion.bytes.substr(conversion.bytes.size() - body.size()) == body);
}

TEST_CASE("a file that names no date asks for the fallback once and says so", "[legacy]") {
  int asked = 0;
  const auto fallback = [&asked] {
    ++asked;
    return std::string("2025-12-24");
  };
  SECTION("no frontmatter and no metadata: the title comes from the file name") {
    const gv::legacy::Conversion conversion = gv::legacy::convert(
        ".memory/10-Memories/MEM-retry-with-backoff.md", "Always back off.\n", fallback);
    REQUIRE(conversion.layout == gv::legacy::Layout::bold_fields);
    CHECK(asked == 1);
    CHECK(conversion.created_from_fallback);
    CHECK_THAT(conversion.bytes, Catch::Contains("title: \"Retry with backoff\"\n"));
    CHECK_THAT(conversion.bytes, Catch::Contains("created: 2025-12-24\n"));
    CHECK_THAT(conversion.bytes, Catch::EndsWith("# Retry with backoff\n\nAlways back off.\n"));
  }
  SECTION("frontmatter without a created date") {
    const gv::legacy::Conversion conversion =
        gv::legacy::convert(k_path, "---\ntitle: \"T\"\ntags: [CONFIG]\n---\n\n# T\n", fallback);
    REQUIRE(conversion.layout == gv::legacy::Layout::old_fields);
    CHECK(asked == 1);
    CHECK(conversion.bytes ==
          "---\ntitle: \"T\"\ncreated: 2025-12-24\ntags: [CONFIG]\n---\n\n# T\n");
  }
}

TEST_CASE("the early skeleton's date and last_updated become created and modified", "[legacy]") {
  const std::string bytes =
      "---\nid: MEM-2026-03-05-001\ntitle: \"Old\"\ndate: 2026-03-05\nlast_updated: 2026-04-01\n"
      "tags: [PATTERN]  # kept\n---\n\n# Old\n\nBody.\n";
  const gv::legacy::Conversion conversion = gv::legacy::convert(k_path, bytes, never_asked);
  REQUIRE(conversion.layout == gv::legacy::Layout::old_fields);
  CHECK(conversion.bytes ==
        "---\nid: MEM-2026-03-05-001\ntitle: \"Old\"\ncreated: 2026-03-05\nmodified: 2026-04-01\n"
        "tags: [PATTERN]  # kept\n---\n\n# Old\n\nBody.\n");
  CHECK(conversion.changes ==
        std::vector<std::string>{"date -> created", "last_updated -> modified"});
}

TEST_CASE("a missing title is taken from the body's heading", "[legacy]") {
  const gv::legacy::Conversion conversion = gv::legacy::convert(
      k_path, "---\ncreated: 2026-03-05\n---\n\n# Memory: From The Heading\n", never_asked);
  REQUIRE(conversion.layout == gv::legacy::Layout::old_fields);
  CHECK_THAT(conversion.bytes, Catch::StartsWith("---\ntitle: \"From The Heading\"\ncreated:"));
}

TEST_CASE("current memories and broken ones are left alone", "[legacy]") {
  SECTION("current") {
    const gv::legacy::Conversion conversion = gv::legacy::convert(
        k_path, "---\ntitle: \"T\"\ncreated: 2026-03-05\n---\n\n# T\n", never_asked);
    CHECK(conversion.layout == gv::legacy::Layout::current);
    CHECK(conversion.bytes.empty());
  }
  SECTION("broken YAML is reported with its line, not rewritten") {
    const gv::legacy::Conversion conversion = gv::legacy::convert(
        k_path, "---\ntitle: [unclosed\ncreated: 2026-03-05\n---\n", never_asked);
    CHECK(conversion.layout == gv::legacy::Layout::unreadable);
    CHECK_THAT(conversion.problem, Catch::StartsWith(std::string(k_path) + ":"));
    CHECK(conversion.bytes.empty());
  }
  SECTION("an unclosed frontmatter block") {
    const gv::legacy::Conversion conversion =
        gv::legacy::convert(k_path, "---\ntitle: \"T\"\n", never_asked);
    CHECK(conversion.layout == gv::legacy::Layout::unreadable);
  }
}

TEST_CASE("CRLF files stay CRLF through the conversion", "[legacy]") {
  const gv::legacy::Conversion conversion = gv::legacy::convert(
      k_path, "# Memory: T\r\n**Date**: 2026-03-05\r\n\r\nBody.\r\n", never_asked);
  REQUIRE(conversion.layout == gv::legacy::Layout::bold_fields);
  CHECK_THAT(conversion.bytes, Catch::StartsWith("---\r\ntitle: \"T\"\r\ncreated: 2026-03-05\r\n"));
  CHECK_THAT(conversion.bytes, Catch::EndsWith("# T\r\n\r\nBody.\r\n"));
  CHECK(conversion.bytes.find("\n\n") == std::string::npos);
}

}  // namespace legacy_test
