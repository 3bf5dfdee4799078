#include "core/distill/memory_write.hpp"

#include <fmt/format.h>

#include <catch2/catch.hpp>

#include "core/agent/learn.hpp"
#include "core/memory/parse.hpp"
#include "tests/unit/gate_test_snapshot.hpp"

namespace memory_write_test {

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

// learn's key terms and overlap, as the command passes them to the telemetry sub-modes.
const TermScoring k_terms = gv::agent::learn_term_scoring();

WrittenMemory write_memory(const Snapshot& before, const MemoryWrite& write, Date today) {
  return gv::distill::write_memory(before, write, today, k_terms);
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

TEST_CASE("CREATE renders a valid memory from the template", "[memory-write]") {
  const test::MapSnapshot before(Files{});
  const WrittenMemory written =
      write_memory(before, write_of(HarvestOp::create, "Body text."), *parse_date("2026-12-01"));
  CHECK(written.id == "MEM-new-idea-caching");
  CHECK(written.path == ".memory/10-Memories/MEM-new-idea-caching.md");
  CHECK_THAT(written.bytes, Catch::Contains("tags:\n  - TECHNIQUE\n"));
  CHECK_THAT(written.bytes, Catch::Contains("keywords:\n  - cache\n  - idea\n"));
  CHECK_THAT(written.bytes,
             Catch::Contains("# New idea for caching\n\nBody text.\n\n## Connections"));
  const ParsedMemory parsed = parse_memory(written.path, written.bytes, "");
  CHECK(parsed.findings.empty());
}

TEST_CASE("CREATE reads like its neighbours: their naming, topic and category", "[memory-write]") {
  const auto neighbour = [](std::string_view id, std::string_view topic, std::string_view category,
                            std::string_view keywords) {
    return std::pair{fmt::format(".memory/10-Memories/{}.md", id),
                     fmt::format("---\ntitle: \"{}\"\ncreated: 2026-01-02\ntags: [{}]\n"
                                 "topic: \"{}\"\nkeywords: [{}]\n---\n\n# {}\n\nText.\n",
                                 id, category, topic, keywords, id)};
  };
  const test::MapSnapshot before(
      Files{neighbour("MEM-2026-12-01-001-cache-warmup", "perf/cache", "WORKFLOW", "cache, warmup"),
            neighbour("MEM-2026-11-02-004-lint-rules", "tooling/lint", "CONFIG", "lint, rules")});
  MemoryWrite write = write_of(HarvestOp::create,
                               "Warm the cache before timing. Cold runs mislead, e.g. the first.");
  write.category.clear();
  const WrittenMemory written = write_memory(before, write, *parse_date("2026-12-01"));
  CHECK(written.id == "MEM-2026-12-01-002-new-idea-caching");
  CHECK_THAT(written.bytes, Catch::Contains("topic: \"perf/cache\"\n"));
  CHECK_THAT(written.bytes, Catch::Contains("tags:\n  - WORKFLOW\n"));
  CHECK_THAT(written.bytes, Catch::Contains("summary: \"Warm the cache before timing.\"\n"));
  CHECK(parse_memory(written.path, written.bytes, "").findings.empty());
}

TEST_CASE("a summary is one sentence, never cut inside a clause", "[memory-write]") {
  CHECK(first_sentence("# Heading\n\n| a | b |\n\nFirst one, e.g. this. Second.") ==
        "First one, e.g. this.");
  CHECK(first_sentence("```\ncode.\n```\n- a list item. More.") == "a list item.");
  CHECK_FALSE(first_sentence("```\ncode only\n```\n"));
  const std::string long_sentence =
      "Service workers in MV3 stop after thirty seconds of idle time, which drops every "
      "in-memory cache the extension kept, so state goes to chrome.storage before each await "
      "and is read back when the worker wakes";
  CHECK(first_sentence(long_sentence, 120) ==
        "Service workers in MV3 stop after thirty seconds of idle time, which drops every "
        "in-memory cache the extension kept...");
}

TEST_CASE("UPDATE keeps the memory's source, the link to its task", "[memory-write]") {
  const test::MapSnapshot before(
      Files{{std::string(k_path),
             "---\ntitle: \"X\"\ncreated: 2026-01-02\ntags: [PATTERN]\nkeywords: [a]\n"
             "source: \"specs/259_retry/summary.md\"\n---\n\n# X\n\nOld text.\n"}});
  const WrittenMemory written =
      write_memory(before, write_of(HarvestOp::update, "New text."), *parse_date("2026-12-01"));
  CHECK_THAT(written.bytes, Catch::Contains("source: \"specs/259_retry/summary.md\"\n"));
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

}  // namespace memory_write_test
