#include "core/memory/frontmatter.hpp"

#include <catch2/catch.hpp>
#include <string>
#include <variant>

#include "core/memory/lines.hpp"

namespace frontmatter_test {

using gv::FrontmatterStatus;
using gv::split_frontmatter;

TEST_CASE("the frontmatter block is split from the body with key line ranges", "[frontmatter]") {
  const std::string bytes =
      "---\n"
      "title: \"A\"\n"
      "keywords:\n"
      "  - one\n"
      "  - two\n"
      "\n"
      "# a comment\n"
      "created: 2026-01-01\n"
      "---\n"
      "\n"
      "# A\n";
  const auto split = split_frontmatter(bytes);
  REQUIRE(split.status == FrontmatterStatus::ok);
  CHECK(split.closing_line == 9);
  CHECK(split.body(bytes) == "\n# A\n");
  REQUIRE(split.keys.size() == 3);
  CHECK(split.keys[0].key == "title");
  CHECK(split.keys[0].first_line == 2);
  CHECK(split.keys[0].last_line == 2);
  CHECK(split.keys[1].key == "keywords");
  CHECK(split.keys[1].first_line == 3);
  CHECK(split.keys[1].last_line == 5);  // the blank and comment lines belong to no key
  CHECK(split.keys[2].key == "created");
  CHECK(split.keys[2].first_line == 8);
  CHECK(split.find("created") == &split.keys[2]);
  CHECK(split.find("missing") == nullptr);
}

TEST_CASE("a byte order mark and CRLF line endings are tolerated", "[frontmatter]") {
  const std::string bytes = "\xEF\xBB\xBF---\r\ntitle: x\r\n---\r\nbody\r\n";
  const auto split = split_frontmatter(bytes);
  REQUIRE(split.status == FrontmatterStatus::ok);
  CHECK(split.bom);
  CHECK(split.line_ending == "\r\n");
  CHECK(split.block(bytes) == "title: x\r\n");
  CHECK(split.body(bytes) == "body\r\n");
  CHECK(split.closing_line == 3);
  const auto root = gv::load_frontmatter(bytes, split);
  REQUIRE(std::holds_alternative<YAML::Node>(root));
  CHECK(std::get<YAML::Node>(root)["title"].Scalar() == "x");
}

TEST_CASE("a closing fence without a final newline leaves an empty body", "[frontmatter]") {
  const std::string bytes = "---\ntitle: x\n---";
  const auto split = split_frontmatter(bytes);
  REQUIRE(split.status == FrontmatterStatus::ok);
  CHECK(split.body(bytes).empty());
}

TEST_CASE("files without an opening or closing fence are told apart", "[frontmatter]") {
  CHECK(split_frontmatter("# Memory: legacy note\n").status == FrontmatterStatus::missing);
  CHECK(split_frontmatter("").status == FrontmatterStatus::missing);
  CHECK(split_frontmatter("\n---\ntitle: x\n---\n").status == FrontmatterStatus::missing);
  CHECK(split_frontmatter("---\ntitle: x\n").status == FrontmatterStatus::unterminated);
  CHECK(split_frontmatter("----\ntitle: x\n---\n").status == FrontmatterStatus::missing);
}

TEST_CASE("a yaml syntax error reports the file line it is on", "[frontmatter]") {
  const std::string bytes =
      "---\n"
      "title: \"ok\"\n"
      "created: 2026-01-01\n"
      "tags: [a, b\n"
      "topic: x\n"
      "---\n";
  const auto split = split_frontmatter(bytes);
  const auto result = gv::load_frontmatter(bytes, split);
  REQUIRE(std::holds_alternative<gv::FrontmatterError>(result));
  const auto& error = std::get<gv::FrontmatterError>(result);
  // yaml-cpp notices the unclosed flow list when it reaches the next line.
  CHECK((error.line == 4 || error.line == 5));
  CHECK(error.message.rfind("frontmatter is not valid yaml: ", 0) == 0);
}

TEST_CASE("a bad indentation error points at the offending line", "[frontmatter]") {
  const std::string bytes =
      "---\n"
      "title: x\n"
      "summary: \"a\n"
      "  b\" c\n"
      "---\n";
  const auto result = gv::load_frontmatter(bytes, split_frontmatter(bytes));
  REQUIRE(std::holds_alternative<gv::FrontmatterError>(result));
  CHECK(std::get<gv::FrontmatterError>(result).line == 4);
}

TEST_CASE("an empty block is an empty mapping and a list is not a mapping", "[frontmatter]") {
  const std::string empty = "---\n---\nbody\n";
  const auto ok = gv::load_frontmatter(empty, split_frontmatter(empty));
  REQUIRE(std::holds_alternative<YAML::Node>(ok));
  CHECK(std::get<YAML::Node>(ok).IsMap());

  const std::string list = "---\n- a\n- b\n---\n";
  const auto bad = gv::load_frontmatter(list, split_frontmatter(list));
  REQUIRE(std::holds_alternative<gv::FrontmatterError>(bad));
  CHECK(std::get<gv::FrontmatterError>(bad).line == 2);
}

TEST_CASE("malformed utf-8 is located by byte offset", "[frontmatter]") {
  CHECK_FALSE(gv::find_invalid_utf8("plain ascii"));
  CHECK_FALSE(gv::find_invalid_utf8("caf\xC3\xA9 \xE2\x82\xAC \xF0\x9F\x98\x80"));
  CHECK(gv::find_invalid_utf8("ab\xFF") == 2u);
  CHECK(gv::find_invalid_utf8("a\xC3") == 1u);             // truncated sequence
  CHECK(gv::find_invalid_utf8("\xC0\xAF") == 0u);          // overlong slash
  CHECK(gv::find_invalid_utf8("x\xED\xA0\x80") == 1u);     // surrogate
  CHECK(gv::find_invalid_utf8("\xF4\x90\x80\x80") == 0u);  // above U+10FFFF
  CHECK(gv::line_of_offset("a\nb\nc", 4) == 3);
}

}  // namespace frontmatter_test
