#include <catch2/catch.hpp>

#include "core/review/memory_diff.hpp"
#include "tests/unit/review_support.hpp"

namespace review_memory_diff_test {

using gv::review::diff_memories;
using gv::review::MemoryDiff;
using gv::test::memory_path_of;
using gv::test::memory_text;
using gv::test::ReviewSnapshot;

TEST_CASE("review reads only the memory files whose blob changed", "[review]") {
  std::map<std::string, std::string> files;
  for (const char* id : {"MEM-a", "MEM-b", "MEM-c"}) {
    files[memory_path_of(id)] = memory_text(id);
  }
  files[memory_path_of("MEM-d")] = memory_text("Old title");
  const ReviewSnapshot base(files);
  files[memory_path_of("MEM-d")] = memory_text("New title");
  const ReviewSnapshot head(files);

  const MemoryDiff diff = diff_memories(base, head);
  CHECK(diff.unchanged == 3);
  CHECK(head.reads.size() == 1);
  CHECK(base.reads.size() == 1);
  CHECK(head.reads.count(memory_path_of("MEM-d")) == 1);
  REQUIRE(diff.changed.size() == 1);
  CHECK(diff.changed[0].id == "MEM-d");
  CHECK(diff.changed[0].title == "New title");
  CHECK(diff.changed[0].fields == std::vector<std::string>{"title"});
  // The `# title` heading is in the body, so the body changed too; same word count.
  CHECK(diff.changed[0].body_changed);
  CHECK(diff.changed[0].tokens_before == 16);  // `# Old title` + 10 words = 13 words
  CHECK(diff.changed[0].tokens_after == 16);
}

TEST_CASE("added and deleted memories; deleting a tombstoned one is gc", "[review]") {
  const ReviewSnapshot base({
      {memory_path_of("MEM-gone"),
       memory_text("Gone", "status: tombstoned\ntombstoned_at: 2026-11-01\n")},
      {memory_path_of("MEM-lost"), memory_text("Lost")},
      {".memory/10-Memories/README.md", "not a memory\n"},
  });
  const ReviewSnapshot head({
      {memory_path_of("MEM-new"), memory_text("New", "", 20)},
      {".memory/10-Memories/README.md", "changed, still not a memory\n"},
  });
  const MemoryDiff diff = diff_memories(base, head);
  REQUIRE(diff.added.size() == 1);
  CHECK(diff.added[0].id == "MEM-new");
  CHECK(diff.added[0].category == "PATTERN");
  CHECK(diff.added[0].topic == "tests/review");
  CHECK(diff.added[0].token_count == 28);  // (2 + 20) * 1.3 = 28.6
  CHECK_FALSE(diff.added[0].tombstoned);
  REQUIRE(diff.deleted.size() == 2);
  CHECK(diff.deleted[0].id == "MEM-gone");
  CHECK(diff.deleted[0].was_tombstoned);
  CHECK(diff.deleted[1].id == "MEM-lost");
  CHECK_FALSE(diff.deleted[1].was_tombstoned);
  CHECK(diff.changed.empty());
}

TEST_CASE("a purge tombstone is listed with its reason and not as a change", "[review]") {
  const ReviewSnapshot base({{memory_path_of("MEM-p"), memory_text("P")}});
  const ReviewSnapshot head(
      {{memory_path_of("MEM-p"), memory_text("P",
                                             "status: tombstoned\ntombstoned_at: 2026-11-30\n"
                                             "tombstone_reason: \"purge\"\n")}});
  const MemoryDiff diff = diff_memories(base, head);
  REQUIRE(diff.tombstoned.size() == 1);
  CHECK(diff.tombstoned[0].id == "MEM-p");
  CHECK(diff.tombstoned[0].reason == "purge");
  CHECK(diff.changed.empty());
  CHECK(diff.merged.empty());
}

TEST_CASE("a merge shows one pair, the primary's field changes and the summed retrievals",
          "[review]") {
  const ReviewSnapshot base({
      {memory_path_of("MEM-p"), memory_text("P", "", 10, "[a, b]")},
      {memory_path_of("MEM-s"), memory_text("S", "", 10, "[b, c]")},
  });
  std::string primary =
      memory_text("P", "", 10, "[a, b, c]", "\n## Merged From MEM-s\n\nthree more words\n");
  primary.replace(primary.find("retrieval_count: 0"), 18, "retrieval_count: 2");
  const ReviewSnapshot head({
      {memory_path_of("MEM-p"), primary},
      {memory_path_of("MEM-s"), memory_text("S",
                                            "status: tombstoned\ntombstoned_at: 2026-11-30\n"
                                            "tombstone_reason: \"merged_into:MEM-p\"\n",
                                            10, "[b, c]")},
  });
  const MemoryDiff diff = diff_memories(base, head);
  REQUIRE(diff.merged.size() == 1);
  CHECK(diff.merged[0].primary == "MEM-p");
  CHECK(diff.merged[0].secondary == "MEM-s");
  CHECK(diff.tombstoned.empty());
  REQUIRE(diff.changed.size() == 1);
  CHECK(diff.changed[0].id == "MEM-p");
  CHECK(diff.changed[0].fields == std::vector<std::string>{"keywords"});
  CHECK(diff.changed[0].body_changed);
  CHECK(diff.changed[0].tokens_before == 15);
  CHECK(diff.changed[0].tokens_after == 24);  // 12 + `## Merged From MEM-s` 4 + 3 = 19 words
  REQUIRE(diff.retrieval.size() == 1);
  CHECK(diff.retrieval[0].count_before == 0);
  CHECK(diff.retrieval[0].count_after == 2);
}

TEST_CASE("a merge heading copied from an earlier merge is not a merge of the range", "[review]") {
  // At the base, MEM-old was merged into MEM-s already; the range merges MEM-s into MEM-p,
  // whose body gains both `## Merged From` headings.
  const std::string old_tombstone = memory_text(
      "Old",
      "status: tombstoned\ntombstoned_at: 2026-10-31\ntombstone_reason: \"merged_into:MEM-s\"\n",
      10, "[c]");
  const ReviewSnapshot base({
      {memory_path_of("MEM-p"), memory_text("P", "", 10, "[a, b]")},
      {memory_path_of("MEM-s"),
       memory_text("S", "", 10, "[b, c]", "\n## Merged From MEM-old\n\nolder words\n")},
      {memory_path_of("MEM-old"), old_tombstone},
  });
  const ReviewSnapshot head({
      {memory_path_of("MEM-p"), memory_text("P", "", 10, "[a, b, c]",
                                            "\n## Merged From MEM-s\n\nthree more words\n"
                                            "\n## Merged From MEM-old\n\nolder words\n")},
      {memory_path_of("MEM-s"),
       memory_text("S",
                   "status: tombstoned\ntombstoned_at: 2026-11-30\n"
                   "tombstone_reason: \"merged_into:MEM-p\"\n",
                   10, "[b, c]", "\n## Merged From MEM-old\n\nolder words\n")},
      {memory_path_of("MEM-old"), old_tombstone},
  });
  const MemoryDiff diff = diff_memories(base, head);
  REQUIRE(diff.merged.size() == 1);
  CHECK(diff.merged[0].primary == "MEM-p");
  CHECK(diff.merged[0].secondary == "MEM-s");
}

TEST_CASE("a new Pre-Compression section marks a compress with tokens before and after",
          "[review]") {
  const ReviewSnapshot base({{memory_path_of("MEM-c"), memory_text("C", "", 100)}});
  const ReviewSnapshot head(
      {{memory_path_of("MEM-c"), memory_text("C", "", 8, "[a, b]",
                                             "\n## History\n\n### Pre-Compression (2026-11-30)\n\n"
                                             "the old words live here\n")}});
  const MemoryDiff diff = diff_memories(base, head);
  REQUIRE(diff.compressed.size() == 1);
  CHECK(diff.compressed[0].tokens_before == 132);  // 102 * 1.3 = 132.6
  CHECK(diff.compressed[0].tokens_after == 13);    // 10 * 1.3; History is not counted
  CHECK(diff.changed.empty());
}

TEST_CASE("a keyword added is a field change; restyling a list is no change", "[review]") {
  const ReviewSnapshot base({
      {memory_path_of("MEM-k"), memory_text("K", "", 10, "[a, b]")},
      {memory_path_of("MEM-s"), memory_text("S", "", 10, "[a, b]")},
  });
  const ReviewSnapshot head({
      {memory_path_of("MEM-k"), memory_text("K", "", 10, "[a, b, c]")},
      {memory_path_of("MEM-s"), memory_text("S", "", 10, "\n  - a\n  - \"b\"")},
  });
  const MemoryDiff diff = diff_memories(base, head);
  REQUIRE(diff.changed.size() == 1);
  CHECK(diff.changed[0].id == "MEM-k");
  CHECK(diff.changed[0].fields == std::vector<std::string>{"keywords"});
  CHECK_FALSE(diff.changed[0].body_changed);
  CHECK(diff.unchanged == 0);  // both blobs differ, only one means something
}

TEST_CASE("retrieval bumps are listed apart from edits", "[review]") {
  const ReviewSnapshot base({{memory_path_of("MEM-r"), memory_text("R")}});
  std::string bumped = memory_text("R");
  const std::string old_fields = "retrieval_count: 0\nlast_retrieved: null";
  bumped.replace(bumped.find(old_fields), old_fields.size(),
                 "retrieval_count: 3\nlast_retrieved: 2026-11-29");
  const ReviewSnapshot head({{memory_path_of("MEM-r"), bumped}});
  const MemoryDiff diff = diff_memories(base, head);
  CHECK(diff.changed.empty());
  REQUIRE(diff.retrieval.size() == 1);
  CHECK(diff.retrieval[0].count_after == 3);
  CHECK_FALSE(diff.retrieval[0].last_before.has_value());
  REQUIRE(diff.retrieval[0].last_after.has_value());
  CHECK(gv::format_date(*diff.retrieval[0].last_after) == "2026-11-29");
}

TEST_CASE("a tombstone removed is a restore; a file that no longer parses is unreadable",
          "[review]") {
  const ReviewSnapshot base({
      {memory_path_of("MEM-back"),
       memory_text("Back", "status: tombstoned\ntombstoned_at: 2026-11-01\n")},
      {memory_path_of("MEM-bad"), memory_text("Bad")},
  });
  const ReviewSnapshot head({
      {memory_path_of("MEM-back"), memory_text("Back")},
      {memory_path_of("MEM-bad"), "---\ntitle: [unclosed\n---\nbody\n"},
  });
  const MemoryDiff diff = diff_memories(base, head);
  CHECK(diff.restored == std::vector<std::string>{"MEM-back"});
  CHECK(diff.unreadable == std::vector<std::string>{"MEM-bad"});
  CHECK(diff.changed.empty());
}

TEST_CASE("a changed memory says each field's old and new value, and a list's items in and out",
          "[review]") {
  const std::string before =
      "---\ntitle: \"Retry\"\ncreated: 2026-11-01\nkeywords: [http, retry]\nsummary: \"Old\"\n"
      "source: \"user\"\n---\n\n# Retry\n\nline one\nline two\n";
  const std::string after =
      "---\ntitle: \"Retry\"\ncreated: 2026-11-01\nkeywords: [http, backoff]\nsummary: \"New\"\n"
      "topic: \"python\"\n---\n\n# Retry\n\nline one\nline 2\n";
  const ReviewSnapshot base({{memory_path_of("MEM-r"), before}});
  const ReviewSnapshot head({{memory_path_of("MEM-r"), after}});
  const MemoryDiff diff = diff_memories(base, head);
  REQUIRE(diff.changed.size() == 1);
  const gv::review::ChangedMemory& changed = diff.changed[0];
  REQUIRE(changed.changes.size() == 4);
  CHECK(changed.changes[0].field == "keywords");
  CHECK(changed.changes[0].added == std::vector<std::string>{"backoff"});
  CHECK(changed.changes[0].removed == std::vector<std::string>{"retry"});
  CHECK(changed.changes[1].field == "summary");
  CHECK(changed.changes[1].before == "Old");
  CHECK(changed.changes[1].after == "New");
  CHECK(changed.changes[2].field == "topic");
  CHECK_FALSE(changed.changes[2].before);
  CHECK(changed.changes[2].after == "python");
  CHECK(changed.changes[3].field == "source");
  CHECK(changed.changes[3].before == "user");
  CHECK_FALSE(changed.changes[3].after);
  // One line replaced by another of the same length: the token count says nothing, the lines do.
  CHECK(changed.tokens_before == changed.tokens_after);
  CHECK(changed.body_lines_added == 1);
  CHECK(changed.body_lines_removed == 1);
}

}  // namespace review_memory_diff_test
