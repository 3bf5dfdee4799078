#include <catch2/catch.hpp>

#include "core/memory/parse.hpp"

namespace memory_values_test {

namespace {

gv::Memory parsed(const std::string& frontmatter) {
  const gv::ParsedMemory result =
      gv::parse_memory(".memory/10-Memories/MEM-x.md",
                       "---\ncreated: 2026-01-01\n" + frontmatter + "---\n\n# X\n", "");
  REQUIRE(result.memory);
  return *result.memory;
}

}  // namespace

TEST_CASE("quoted values keep the spaces inside their quotes", "[memory][parse]") {
  const gv::Memory memory = parsed(
      "title: \"Ends in space \"\n"
      "summary: '  two leading and one trailing '\n"
      "topic: \" net/retry\"\n");
  CHECK(memory.title == "Ends in space ");
  CHECK(memory.summary == "  two leading and one trailing ");
  CHECK(memory.topic == " net/retry");
}

TEST_CASE("plain and block values are read without surrounding whitespace", "[memory][parse]") {
  const gv::Memory memory = parsed(
      "title: Plain title   \n"
      "summary: |\n"
      "  A block summary\n"
      "status: \" active \"\n");
  CHECK(memory.title == "Plain title");
  CHECK(memory.summary == "A block summary");
  CHECK(memory.active());
}

}  // namespace memory_values_test
