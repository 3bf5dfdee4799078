#include "core/vault/index_files.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <catch2/catch.hpp>

#include "tests/unit/index_test_fixtures.hpp"

namespace index_files_test {

using gv::test::memory;
using gv::test::small_vault;
using gv::test::ymd;

namespace {

const std::string k_small_vault_json = R"({
  "version": "1.0.0",
  "generated_at": "2026-11-30",
  "entry_count": 4,
  "total_tokens": 175,
  "entries": [
    {
      "id": "MEM-a-editor",
      "path": ".memory/10-Memories/MEM-a-editor.md",
      "title": "Éditeur café ✓",
      "summary": "",
      "topic": "editor",
      "category": "config",
      "keywords": [],
      "token_count": 40,
      "created": "2026-05-01",
      "modified": "2026-05-02",
      "last_retrieved": null,
      "retrieval_count": 0,
      "status": "active"
    },
    {
      "id": "MEM-b-retry",
      "path": ".memory/10-Memories/MEM-b-retry.md",
      "title": "Retry with \"backoff\" \\ slash",
      "summary": "Retry failed calls",
      "topic": "python/libs",
      "category": "PATTERN",
      "keywords": [
        "retry",
        "backoff"
      ],
      "token_count": 120,
      "created": "2026-04-13",
      "modified": "2026-04-13",
      "last_retrieved": "2026-05-01",
      "retrieval_count": 3,
      "status": "active"
    },
    {
      "id": "MEM-c-old",
      "path": ".memory/10-Memories/MEM-c-old.md",
      "title": "Old insight",
      "summary": "",
      "topic": "python/libs",
      "category": "INSIGHT",
      "keywords": [
        "legacy"
      ],
      "token_count": 10,
      "created": "2026-04-13",
      "modified": "2026-04-13",
      "last_retrieved": null,
      "retrieval_count": 0,
      "status": "tombstoned",
      "tombstoned_at": "2026-11-20",
      "tombstone_reason": "purge"
    },
    {
      "id": "MEM-d-bare",
      "path": ".memory/10-Memories/MEM-d-bare.md",
      "title": "Bare note",
      "summary": "",
      "topic": "",
      "category": "",
      "keywords": [],
      "token_count": 5,
      "created": "2026-04-13",
      "modified": "2026-04-13",
      "last_retrieved": null,
      "retrieval_count": 0,
      "status": "active"
    }
  ]
}
)";

const std::string k_small_vault_index_md = R"(# Memory Vault Index

## Quick Navigation
- [Inbox](../00-Inbox/) - Quick capture for new memories
- [Memories](../10-Memories/) - All stored memory entries
- [Templates](../30-Templates/) - Memory entry templates

## Recent Memories

- [MEM-a-editor](../10-Memories/MEM-a-editor.md) - Éditeur café ✓ (2026-05-01)
- [MEM-d-bare](../10-Memories/MEM-d-bare.md) - Bare note (2026-04-13)
- [MEM-b-retry](../10-Memories/MEM-b-retry.md) - Retry with "backoff" \ slash (2026-04-13)

## By Category

### CONFIG
- [MEM-a-editor](../10-Memories/MEM-a-editor.md) - Éditeur café ✓

### PATTERN
- [MEM-b-retry](../10-Memories/MEM-b-retry.md) - Retry with "backoff" \ slash

### (uncategorized)
- [MEM-d-bare](../10-Memories/MEM-d-bare.md) - Bare note

## By Topic

### editor
- [MEM-a-editor](../10-Memories/MEM-a-editor.md) - Éditeur café ✓

### python/libs
- [MEM-b-retry](../10-Memories/MEM-b-retry.md) - Retry with "backoff" \ slash

### (no topic)
- [MEM-d-bare](../10-Memories/MEM-d-bare.md) - Bare note

## JSON Index

Machine-queryable index available at [memory-index.json](../memory-index.json) with version, entry metadata, keyword search support, and retrieval tracking.

## Statistics
- Total memories: 3 active (1 tombstoned)
- Total tokens: 165
)";

const std::string k_small_vault_readme = R"(# Memories

Organized memory entries. Total: 3 active memories.

## Contents

### Files

- [MEM-a-editor](MEM-a-editor.md) - Éditeur café ✓
- [MEM-b-retry](MEM-b-retry.md) - Retry with "backoff" \ slash
- [MEM-d-bare](MEM-d-bare.md) - Bare note

## Navigation

- [← Parent Directory](../README.md)
)";

}  // namespace

TEST_CASE("memory-index.json renders byte-exact, sorted by id, tombstoned included", "[index]") {
  CHECK(gv::render_index_json(small_vault(), "2026-11-30") == k_small_vault_json);
}

TEST_CASE("index.md lists active memories by recency, category and topic", "[index]") {
  CHECK(gv::render_index_md(small_vault()) == k_small_vault_index_md);
}

TEST_CASE("10-Memories/README.md lists active memories by id", "[index]") {
  CHECK(gv::render_memories_readme(small_vault()) == k_small_vault_readme);
}

TEST_CASE("render_index_files dates memory-index.json with today", "[index]") {
  const gv::IndexFiles files = gv::render_index_files(small_vault(), gv::Date{20787});
  CHECK(files.index_json == k_small_vault_json);
  CHECK(files.index_md == k_small_vault_index_md);
  CHECK(files.memories_readme == k_small_vault_readme);
}

TEST_CASE("the index renders the same bytes whatever order the memories come in", "[index]") {
  std::vector<gv::Memory> memories = small_vault();
  std::sort(memories.begin(), memories.end(),
            [](const gv::Memory& a, const gv::Memory& b) { return a.id < b.id; });
  do {
    CHECK(gv::render_index_json(memories, "2026-11-30") == k_small_vault_json);
    CHECK(gv::render_index_md(memories) == k_small_vault_index_md);
    CHECK(gv::render_memories_readme(memories) == k_small_vault_readme);
  } while (
      std::next_permutation(memories.begin(), memories.end(),
                            [](const gv::Memory& a, const gv::Memory& b) { return a.id < b.id; }));
}

TEST_CASE("an empty vault renders empty lists and zero counts", "[index]") {
  const std::vector<gv::Memory> none;
  CHECK(gv::render_index_json(none, "2026-11-30") ==
        "{\n"
        "  \"version\": \"1.0.0\",\n"
        "  \"generated_at\": \"2026-11-30\",\n"
        "  \"entry_count\": 0,\n"
        "  \"total_tokens\": 0,\n"
        "  \"entries\": []\n"
        "}\n");
  CHECK(gv::render_index_md(none) == R"(# Memory Vault Index

## Quick Navigation
- [Inbox](../00-Inbox/) - Quick capture for new memories
- [Memories](../10-Memories/) - All stored memory entries
- [Templates](../30-Templates/) - Memory entry templates

## Recent Memories

No active memories.

## By Category

No active memories.

## By Topic

No active memories.

## JSON Index

Machine-queryable index available at [memory-index.json](../memory-index.json) with version, entry metadata, keyword search support, and retrieval tracking.

## Statistics
- Total memories: 0 active (0 tombstoned)
- Total tokens: 0
)");
  CHECK(gv::render_memories_readme(none) == R"(# Memories

Organized memory entries. Total: 0 active memories.

## Contents

### Files

No active memories.

## Navigation

- [← Parent Directory](../README.md)
)");
}

TEST_CASE("Recent Memories keeps the ten newest", "[index]") {
  std::vector<gv::Memory> memories;
  for (int day = 1; day <= 12; ++day) {
    memories.push_back(
        memory(fmt::format("MEM-{:02}", day), fmt::format("Day {}", day), ymd(2026, 3, day)));
  }
  const std::string md = gv::render_index_md(memories);
  const auto recent_begin = md.find("## Recent Memories");
  const auto recent_end = md.find("## By Category");
  const std::string recent = md.substr(recent_begin, recent_end - recent_begin);
  CHECK(recent.find("(2026-03-12)\n- [MEM-11]") != std::string::npos);
  CHECK(recent.find("MEM-03](") != std::string::npos);
  CHECK(recent.find("MEM-02](") == std::string::npos);
  CHECK(recent.find("MEM-01](") == std::string::npos);
  CHECK(std::count(recent.begin(), recent.end(), '\n') == 2 + 10 + 1);
}

TEST_CASE("categories differing only in case share one upper-cased heading", "[index]") {
  gv::Memory lower = memory("MEM-a", "A", ymd(2026, 1, 1));
  lower.category = "enforcement";
  gv::Memory upper = memory("MEM-b", "B", ymd(2026, 1, 1));
  upper.category = "ENFORCEMENT";
  const std::string md = gv::render_index_md({upper, lower});
  CHECK(md.find("## By Category\n\n"
                "### ENFORCEMENT\n"
                "- [MEM-a](../10-Memories/MEM-a.md) - A\n"
                "- [MEM-b](../10-Memories/MEM-b.md) - B\n"
                "\n## By Topic") != std::string::npos);
}

TEST_CASE("a title with a line break stays on one Markdown line", "[index]") {
  const gv::Memory odd = memory("MEM-a", "first\nsecond", ymd(2026, 1, 1));
  CHECK(gv::render_memories_readme({odd}).find("- [MEM-a](MEM-a.md) - first second\n") !=
        std::string::npos);
  CHECK(gv::render_index_json({odd}, "2026-11-30").find(R"("title": "first\nsecond")") !=
        std::string::npos);
}

TEST_CASE("invalid UTF-8 in a title does not stop the index from rendering", "[index]") {
  const gv::Memory odd = memory("MEM-a", "bad \xff byte", ymd(2026, 1, 1));
  CHECK(gv::render_index_json({odd}, "2026-11-30").find("\"title\": \"bad \xEF\xBF\xBD byte\"") !=
        std::string::npos);
}

TEST_CASE("dates render as calendar dates from days since the epoch", "[index]") {
  gv::Memory m = memory("MEM-a", "A", gv::Date{19782});  // a leap day
  m.modified = gv::Date{0};
  const std::string json = gv::render_index_json({m}, "x");
  CHECK(json.find(R"("created": "2024-02-29")") != std::string::npos);
  CHECK(json.find(R"("modified": "1970-01-01")") != std::string::npos);
  CHECK(ymd(2026, 11, 30).days == 20787);
}

}  // namespace index_files_test
