#include "core/distill/memory_write.hpp"

#include <catch2/catch.hpp>

#include "core/memory/parse.hpp"
#include "tests/unit/gate_test_snapshot.hpp"

using namespace gv;
using namespace gv::distill;

namespace {

using Files = std::map<std::string, std::string>;

constexpr std::string_view k_path = ".memory/10-Memories/MEM-x.md";

std::string memory_with(std::string_view body) {
  return std::string(
             "---\ntitle: \"X\"\ncreated: 2026-01-02\ntags: [PATTERN]\nkeywords: [a]\n"
             "modified: 2026-01-02\ncustom: kept\n---\n\n") +
         std::string(body);
}

MemoryWrite write_of(HarvestOp op, std::string content) {
  MemoryWrite write;
  write.op = op;
  write.target_id = "MEM-x";
  write.title = "New idea for caching";
  write.content = std::move(content);
  write.source = "s";
  write.keywords = {"cache", "idea"};
  write.category = "technique";
  return write;
}

}  // namespace

TEST_CASE("key terms: long non-stop words by frequency, technical first on ties",
          "[memory-write]") {
  CHECK(extract_key_terms("Retry the flaky hooks; retry them with backoff and hook_v2 there") ==
        std::vector<std::string>{"retry", "hook_v2", "flaky", "hooks", "backoff"});
  CHECK(extract_key_terms("a an the of").empty());
}

TEST_CASE("overlap scores shared words over the segment's words", "[memory-write]") {
  CHECK(overlap_score({"cache", "invalidation", "hooks"}, {"Cache", "other"}) == Approx(1.0 / 3));
  CHECK(overlap_score({"cache invalidation"}, {"invalidation"}) == Approx(0.5));
  CHECK(overlap_score({}, {"a"}) == 0.0);
}

TEST_CASE("new memory ids follow the slug rule and avoid taken ids", "[memory-write]") {
  const auto none = [](std::string_view) { return false; };
  CHECK(new_memory_id("python/libs/requests", "Retry Patterns With Backoff!", none) ==
        "MEM-requests-retry-patterns-with");
  // `cut -d'-' -f1-3` counts the empty field between `:` and the space.
  CHECK(new_memory_id("", "Hooks: retry twice", none) == "MEM-hooks-retry");
  CHECK(new_memory_id("", "Hooks", [](std::string_view id) { return id == "MEM-hooks"; }) ==
        "MEM-hooks-2");
}

TEST_CASE("CREATE renders a valid memory from the template", "[memory-write]") {
  const test::MapSnapshot before(Files{});
  const WrittenMemory written =
      write_memory(before, write_of(HarvestOp::create, "Body text."), *parse_date("2026-12-01"));
  CHECK(written.id == "MEM-new-idea-for");
  CHECK(written.path == ".memory/10-Memories/MEM-new-idea-for.md");
  CHECK_THAT(written.bytes, Catch::Contains("tags:\n  - TECHNIQUE\n"));
  CHECK_THAT(written.bytes, Catch::Contains("keywords:\n  - cache\n  - idea\n"));
  CHECK_THAT(written.bytes,
             Catch::Contains("# New idea for caching\n\nBody text.\n\n## Connections"));
  const ParsedMemory parsed = parse_memory(written.path, written.bytes, "");
  CHECK(parsed.findings.empty());
}

TEST_CASE("UPDATE moves the old main content into History, keeping the rest", "[memory-write]") {
  SECTION("without a History section") {
    const test::MapSnapshot before(Files{
        {std::string(k_path), memory_with("# X\n\nOld text.\n\n## Connections\n- [[MEM-y]]\n")}});
    const WrittenMemory written =
        write_memory(before, write_of(HarvestOp::update, "New text."), *parse_date("2026-12-01"));
    CHECK(written.bytes ==
          "---\ntitle: \"X\"\ncreated: 2026-01-02\ntags: [PATTERN]\nkeywords: [a]\n"
          "modified: 2026-12-01\ncustom: kept\nsource: \"s\"\n---\n\n# X\n\nNew text.\n\n"
          "## History\n\n### Previous Version (2026-01-02)\n\nOld text.\n\n"
          "## Connections\n- [[MEM-y]]\n");
  }
  SECTION("with one: the new entry goes first") {
    const test::MapSnapshot before(
        Files{{std::string(k_path),
               memory_with("# X\n\nOld text.\n\n## History\n\n### Pre-Compression (2026-01-01)\n\n"
                           "Older.\n")}});
    const WrittenMemory written =
        write_memory(before, write_of(HarvestOp::update, "New text."), *parse_date("2026-12-01"));
    CHECK_THAT(written.bytes,
               Catch::EndsWith("# X\n\nNew text.\n\n## History\n\n### Previous Version "
                               "(2026-01-02)\n\nOld text.\n\n### Pre-Compression (2026-01-01)"
                               "\n\nOlder.\n"));
  }
}

TEST_CASE("EXTEND adds a dated section before Connections", "[memory-write]") {
  const test::MapSnapshot before(
      Files{{std::string(k_path), memory_with("# X\n\nOld text.\n\n## Connections\n")}});
  const WrittenMemory written =
      write_memory(before, write_of(HarvestOp::extend, "More."), *parse_date("2026-12-01"));
  CHECK_THAT(written.bytes, Catch::EndsWith("# X\n\nOld text.\n\n## Extension (2026-12-01)\n\n"
                                            "**Source**: s\n\nMore.\n\n## Connections\n"));
}

TEST_CASE("writes refuse missing or tombstoned targets and section headings", "[memory-write]") {
  const test::MapSnapshot empty(Files{});
  CHECK_THROWS_WITH(
      write_memory(empty, write_of(HarvestOp::update, "x"), *parse_date("2026-12-01")),
      "MEM-x: no such memory");
  CHECK_THROWS_WITH(write_memory(empty, write_of(HarvestOp::create, "a\n## History\nb"),
                                 *parse_date("2026-12-01")),
                    Catch::Contains("`## History` heading"));
}
