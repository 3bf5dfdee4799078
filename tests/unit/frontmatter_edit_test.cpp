#include "core/memory/frontmatter_edit.hpp"

#include <catch2/catch.hpp>
#include <string>

#include "core/error.hpp"
#include "core/memory/parse.hpp"

namespace frontmatter_edit_test {

using gv::FrontmatterEditor;

namespace {

const std::string k_file =
    "---\n"
    "title: \"Retry\"\n"
    "created: 2026-01-10\n"
    "tags: [PATTERN, STANDARD]\n"
    "topic: \"task-635\"  # task-ref-ok inline\n"
    "modified: 2026-02-01\n"
    "retrieval_count: 0\n"
    "last_retrieved:\n"
    "keywords:\n"
    "  - retry\n"
    "  - backoff\n"
    "summary: \"How\"\n"
    "x_custom: {a: 1}   # unknown field\n"
    "token_count: 12\n"
    "---\n"
    "\n"
    "# Retry\n";

// Replaces the first occurrence of `from` in `text` with `to`.
std::string replaced(std::string text, const std::string& from, const std::string& to) {
  const auto pos = text.find(from);
  REQUIRE(pos != std::string::npos);
  return text.replace(pos, from.size(), to);
}

}  // namespace

TEST_CASE("an editor with no edits reproduces the bytes", "[frontmatter_edit]") {
  for (const std::string& bytes :
       {k_file, std::string("\xEF\xBB\xBF---\r\ntitle: x\r\n---\r\nbody"),
        std::string("---\n---")}) {
    CHECK(FrontmatterEditor("a.md", bytes).bytes() == bytes);
  }
}

TEST_CASE("setting a scalar changes only that line", "[frontmatter_edit]") {
  FrontmatterEditor editor("a.md", k_file);
  editor.set_scalar("modified", "2026-11-30");
  CHECK(editor.bytes() == replaced(k_file, "modified: 2026-02-01", "modified: 2026-11-30"));
}

TEST_CASE("setting a scalar keeps its trailing comment", "[frontmatter_edit]") {
  FrontmatterEditor editor("a.md", k_file);
  editor.set_scalar("topic", gv::yaml_double_quoted("python/requests"));
  CHECK(editor.bytes() == replaced(k_file, "topic: \"task-635\"  # task-ref-ok inline",
                                   "topic: \"python/requests\"  # task-ref-ok inline"));
}

TEST_CASE("an empty value can be set and filled", "[frontmatter_edit]") {
  FrontmatterEditor editor("a.md", k_file);
  editor.set_scalar("last_retrieved", "2026-11-30");
  const std::string filled = replaced(k_file, "last_retrieved:\n", "last_retrieved: 2026-11-30\n");
  CHECK(editor.bytes() == filled);
  editor.set_scalar("last_retrieved", "");
  CHECK(editor.bytes() == k_file);
}

TEST_CASE("a new scalar goes at the end of the block", "[frontmatter_edit]") {
  FrontmatterEditor editor("a.md", k_file);
  editor.set_scalar("category", "\"preference\"");
  CHECK(editor.bytes() ==
        replaced(k_file, "token_count: 12\n", "token_count: 12\ncategory: \"preference\"\n"));
}

TEST_CASE("a block list stays a block list with its indentation", "[frontmatter_edit]") {
  FrontmatterEditor editor("a.md", k_file);
  editor.set_list("keywords", {"retry", "jitter", "needs: quotes"});
  CHECK(editor.bytes() == replaced(k_file, "  - retry\n  - backoff\n",
                                   "  - retry\n  - jitter\n  - \"needs: quotes\"\n"));
}

TEST_CASE("a column-zero block list keeps the first item's indentation and quoting",
          "[frontmatter_edit]") {
  const std::string bytes = "---\nkeywords:\n- 'a'\n-   'b'\nsummary: s\n---\n";
  FrontmatterEditor editor("a.md", bytes);
  editor.set_list("keywords", {"it's", "c"});
  CHECK(editor.bytes() == "---\nkeywords:\n- 'it''s'\n- 'c'\nsummary: s\n---\n");
}

TEST_CASE("a flow list stays a flow list", "[frontmatter_edit]") {
  FrontmatterEditor editor("a.md", k_file);
  editor.set_list("tags", {"PATTERN", "CONFIG", "a, b"});
  CHECK(editor.bytes() ==
        replaced(k_file, "tags: [PATTERN, STANDARD]", "tags: [PATTERN, CONFIG, \"a, b\"]"));
}

TEST_CASE("a quoted padded flow list keeps its quoting and padding", "[frontmatter_edit]") {
  const std::string bytes = "---\nkeywords: [ \"a\", \"b\" ]  # note\n---\n";
  FrontmatterEditor editor("a.md", bytes);
  editor.set_list("keywords", {"x"});
  CHECK(editor.bytes() == "---\nkeywords: [ \"x\" ]  # note\n---\n");
}

TEST_CASE("an emptied list is written as []", "[frontmatter_edit]") {
  FrontmatterEditor editor("a.md", k_file);
  editor.set_list("keywords", {});
  CHECK(editor.bytes() ==
        replaced(k_file, "keywords:\n  - retry\n  - backoff\n", "keywords: []\n"));
}

TEST_CASE("a new list uses block style", "[frontmatter_edit]") {
  const std::string bytes = "---\ntitle: T\n---\nbody\n";
  FrontmatterEditor editor("a.md", bytes);
  editor.set_list("keywords", {"a", "null"});
  CHECK(editor.bytes() == "---\ntitle: T\nkeywords:\n  - a\n  - \"null\"\n---\nbody\n");
}

TEST_CASE("tombstone fields are inserted after summary", "[frontmatter_edit]") {
  FrontmatterEditor editor("a.md", k_file);
  editor.insert_fields({{"status", "tombstoned"},
                        {"tombstoned_at", "2026-11-30"},
                        {"tombstone_reason", gv::yaml_double_quoted("purge")}},
                       "summary", "token_count");
  CHECK(editor.bytes() ==
        replaced(k_file, "summary: \"How\"\n",
                 "summary: \"How\"\nstatus: tombstoned\ntombstoned_at: 2026-11-30\n"
                 "tombstone_reason: \"purge\"\n"));
}

TEST_CASE("without summary, inserted fields go before token_count, else at the end",
          "[frontmatter_edit]") {
  FrontmatterEditor before("a.md", "---\ntitle: T\ntoken_count: 3\n---\n");
  before.insert_fields({{"status", "tombstoned"}}, "summary", "token_count");
  CHECK(before.bytes() == "---\ntitle: T\nstatus: tombstoned\ntoken_count: 3\n---\n");

  FrontmatterEditor end("a.md", "---\ntitle: T\n---\n");
  end.insert_fields({{"status", "tombstoned"}}, "summary", "token_count");
  CHECK(end.bytes() == "---\ntitle: T\nstatus: tombstoned\n---\n");
}

TEST_CASE("inserting a field that exists sets it in place", "[frontmatter_edit]") {
  FrontmatterEditor editor("a.md", "---\nstatus: active\nsummary: s\n---\n");
  editor.insert_fields({{"status", "tombstoned"}, {"tombstoned_at", "2026-11-30"}}, "summary", "");
  CHECK(editor.bytes() == "---\nstatus: tombstoned\nsummary: s\ntombstoned_at: 2026-11-30\n---\n");
}

TEST_CASE("removing a field removes all its lines", "[frontmatter_edit]") {
  FrontmatterEditor editor("a.md", k_file);
  CHECK(editor.remove("keywords"));
  CHECK_FALSE(editor.remove("keywords"));
  CHECK(editor.bytes() == replaced(k_file, "keywords:\n  - retry\n  - backoff\n", ""));
}

TEST_CASE("edits keep CRLF, the BOM and a missing final newline", "[frontmatter_edit]") {
  const std::string bytes = "\xEF\xBB\xBF---\r\ntitle: T\r\nsummary: s\r\n---\r\n# T\r\nno newline";
  FrontmatterEditor editor("a.md", bytes);
  editor.set_scalar("title", "U");
  editor.insert_fields({{"status", "tombstoned"}}, "summary", "");
  editor.set_list("keywords", {"k"});
  CHECK(editor.bytes() ==
        "\xEF\xBB\xBF---\r\ntitle: U\r\nsummary: s\r\nstatus: tombstoned\r\nkeywords:\r\n  - k\r\n"
        "---\r\n# T\r\nno newline");
}

TEST_CASE("an edited file parses back with the new values", "[frontmatter_edit]") {
  FrontmatterEditor editor("a.md", k_file);
  editor.set_scalar("summary", gv::yaml_double_quoted("line1\nsaid \"hi\"\\ \t end"));
  editor.set_list("keywords", {"a: b", "#hash", "- dash", "true", "2026", " pad "});
  editor.set_list("tags", {"[x]", "{y}"});
  const auto parsed = gv::parse_memory(".memory/10-Memories/MEM-a.md", editor.bytes(), "");
  REQUIRE(parsed.memory);
  CHECK(parsed.memory->summary == "line1\nsaid \"hi\"\\ \t end");
  // Items are trimmed on read, so " pad " comes back as "pad".
  CHECK(parsed.memory->keywords ==
        std::vector<std::string>{"a: b", "#hash", "- dash", "true", "2026", "pad"});
  CHECK(parsed.memory->tags == std::vector<std::string>{"[x]", "{y}"});
}

TEST_CASE("the editor refuses files without frontmatter or multi-line values",
          "[frontmatter_edit]") {
  CHECK_THROWS_AS(FrontmatterEditor("a.md", "# no frontmatter\n"), gv::Error);
  CHECK_THROWS_WITH(FrontmatterEditor("a.md", "---\ntitle: x\n"),
                    "a.md:1: cannot edit frontmatter: it is not closed by a --- line");
  FrontmatterEditor editor("a.md", k_file);
  CHECK_THROWS_AS(editor.set_scalar("summary", "a\nb"), gv::Error);
}

TEST_CASE("double quoting escapes what YAML needs", "[frontmatter_edit]") {
  CHECK(gv::yaml_double_quoted("") == "\"\"");
  CHECK(gv::yaml_double_quoted("a\"b\\c") == "\"a\\\"b\\\\c\"");
  CHECK(gv::yaml_double_quoted("\x01") == "\"\\x01\"");
  CHECK(gv::yaml_double_quoted("caf\xC3\xA9") == "\"caf\xC3\xA9\"");
  CHECK(gv::yaml_plain_or_quoted("plain-word") == "plain-word");
  CHECK(gv::yaml_plain_or_quoted("two words") == "two words");
  CHECK(gv::yaml_plain_or_quoted("~") == "\"~\"");
  CHECK(gv::yaml_plain_or_quoted("12") == "\"12\"");
  CHECK(gv::yaml_plain_or_quoted("") == "\"\"");
}

}  // namespace frontmatter_edit_test
