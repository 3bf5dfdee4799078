#include <catch2/catch.hpp>

#include "core/recall/entry.hpp"

namespace recall_entry_test {

namespace {

using gv::recall::Entry;
using gv::recall::EntryState;
using gv::recall::ParsedFile;
using gv::recall::StrayPlace;

ParsedFile parse(std::string bytes, std::string path = "CLAUDE.local.md") {
  gv::recall::ManagedFile file{path, gv::recall::display_path(path),
                               gv::recall::tier_of(path).value_or(gv::recall::Tier::working)};
  return gv::recall::parse_file(std::move(file), std::move(bytes));
}

// The state of the only entry in `line`, which must parse as exactly one entry.
EntryState state_of(const std::string& line) {
  const ParsedFile parsed = parse(line + "\n");
  REQUIRE(parsed.entries.size() == 1);
  return parsed.entries[0].state;
}

std::vector<int> entry_lines(const ParsedFile& parsed) {
  std::vector<int> lines;
  for (const Entry& entry : parsed.entries) {
    lines.push_back(entry.line);
  }
  return lines;
}

}  // namespace

TEST_CASE("a tagged entry yields its text, id and line", "[recall][entry]") {
  const ParsedFile parsed =
      parse("# Working Memory\n\n- Dave prefers concise errors ^tr8f2a1c3d7e\n");
  REQUIRE(parsed.entries.size() == 1);
  const Entry& entry = parsed.entries[0];
  CHECK(entry.state == EntryState::tagged);
  CHECK(entry.line == 3);
  CHECK(entry.text == "Dave prefers concise errors");
  CHECK(entry.id == "tr8f2a1c3d7e");
  CHECK(entry.raw == "- Dave prefers concise errors ^tr8f2a1c3d7e");
  CHECK(entry.begin == 18);
  CHECK(entry.content_end == 18 + entry.raw.size());
  CHECK(entry.end == entry.content_end + 1);
}

TEST_CASE("an entry without an id is untagged", "[recall][entry]") {
  const ParsedFile parsed = parse("- Prefers tabs over spaces  \n");
  REQUIRE(parsed.entries.size() == 1);
  CHECK(parsed.entries[0].state == EntryState::untagged);
  CHECK(parsed.entries[0].text == "Prefers tabs over spaces");
  CHECK(parsed.entries[0].raw == "- Prefers tabs over spaces  ");
  CHECK(parsed.entries[0].id.empty());
}

TEST_CASE("list items inside fenced code blocks are not entries", "[recall][entry]") {
  SECTION("backtick fence with and without an info string") {
    CHECK(entry_lines(parse("```\n- item\n- x ^tr0123456789\n```\n- real\n")) ==
          std::vector<int>{5});
    CHECK(entry_lines(parse("```markdown\n- item\n```\n- real\n")) == std::vector<int>{4});
  }
  SECTION("tilde fence") {
    CHECK(entry_lines(parse("~~~\n- item\n~~~\n- real\n")) == std::vector<int>{4});
  }
  SECTION("a fence indented four spaces is no fence") {
    CHECK(entry_lines(parse("    ```\n- item\n    ```\n")) == std::vector<int>{2});
  }
  SECTION("a fence indented three spaces is a fence") {
    CHECK(entry_lines(parse("   ```\n- item\n   ```\n- real\n")) == std::vector<int>{4});
  }
  SECTION("four backticks are not closed by three") {
    CHECK(parse("````\n- a\n```\n- b\n").entries.empty());
    CHECK(entry_lines(parse("````\n- a\n```\n- b\n`````\n- c\n")) == std::vector<int>{6});
  }
  SECTION("a tilde fence is not closed by backticks") {
    CHECK(entry_lines(parse("~~~\n- a\n```\n- b\n~~~\n- c\n")) == std::vector<int>{6});
  }
  SECTION("a closing fence may carry trailing whitespace but no text") {
    CHECK(entry_lines(parse("```\n- a\n```  \n- b\n")) == std::vector<int>{4});
    CHECK(parse("```\n- a\n``` x\n- b\n").entries.empty());
  }
  SECTION("an unclosed fence runs to the end of the file") {
    CHECK(entry_lines(parse("- before\n```\n- a\n- b\n")) == std::vector<int>{1});
  }
}

TEST_CASE("list items inside HTML comments are not entries", "[recall][entry]") {
  SECTION("one-line comment") { CHECK(parse("<!-- - item -->\n").entries.empty()); }
  SECTION("multi-line comment, including its opening and closing lines") {
    CHECK(entry_lines(parse("<!--\n- a\n- b -->\n- c\n")) == std::vector<int>{4});
    CHECK(entry_lines(parse("- x <!-- start\n- a\n-->\n- c\n")) == std::vector<int>{4});
  }
  SECTION("the open-loops template comment") {
    const std::string text =
        "# Open Loops\n> Track items.\n\n## Active\n<!-- Format:\n"
        "- [ ] [Item description] — created YYYY-MM-DD, due YYYY-MM-DD\n-->\n\n"
        "## Recently Closed\n<!-- Format:\n- [x] [Item description] — closed YYYY-MM-DD\n-->\n";
    CHECK(parse(text, "memory/registers/open-loops.md").entries.empty());
  }
  SECTION("a line with a complete inline comment is still an entry") {
    CHECK(entry_lines(parse("- a <!-- note --> b\n")) == std::vector<int>{1});
  }
  SECTION("a fence marker inside a comment opens no fence") {
    CHECK(entry_lines(parse("<!--\n```\n-->\n- a\n")) == std::vector<int>{4});
  }
}

TEST_CASE("placeholders are neither entries nor untagged", "[recall][entry]") {
  for (const char* line : {"- [None captured yet]", "- [None yet]", "- [not yet set]", "- [none]",
                           "- [ ]", "- ", "-  \t"}) {
    INFO(line);
    CHECK(parse(std::string{line} + "\n").entries.empty());
  }
}

TEST_CASE("a placeholder with an id stays a placeholder and warns", "[recall][entry]") {
  const ParsedFile parsed = parse("- [None yet] ^tr0123456789\n");
  CHECK(parsed.entries.empty());
  REQUIRE(parsed.findings.size() == 1);
  CHECK(parsed.findings[0].check == "ignored-id");
  CHECK(parsed.findings[0].severity == gv::Severity::warning);
  CHECK(parsed.findings[0].line == 1);
}

TEST_CASE("tasks with text are entries", "[recall][entry]") {
  const ParsedFile parsed = parse("- [ ] Call Sam ^tr0123456789\n- [x] Done thing\n");
  REQUIRE(parsed.entries.size() == 2);
  CHECK(parsed.entries[0].state == EntryState::tagged);
  CHECK(parsed.entries[0].text == "[ ] Call Sam");
  CHECK(parsed.entries[1].state == EntryState::untagged);
}

TEST_CASE("trailing whitespace after the id is tolerated and kept in the raw line",
          "[recall][entry]") {
  const ParsedFile parsed = parse("- foo ^tr0123456789   \n");
  REQUIRE(parsed.entries.size() == 1);
  CHECK(parsed.entries[0].state == EntryState::tagged);
  CHECK(parsed.entries[0].id == "tr0123456789");
  CHECK(parsed.entries[0].raw == "- foo ^tr0123456789   ");
}

TEST_CASE("ids that break the format are malformed", "[recall][entry]") {
  SECTION("a tab before the caret") {
    CHECK(state_of("- foo\t^tr0123456789") == EntryState::malformed);
  }
  SECTION("an id mid-line") { CHECK(state_of("- foo ^tr0123456789 bar") == EntryState::malformed); }
  SECTION("two trailing ids") {
    CHECK(state_of("- foo ^tr0123456789 ^tr0123456780") == EntryState::malformed);
  }
  SECTION("uppercase hex") { CHECK(state_of("- foo ^trABCDEF0123") == EntryState::malformed); }
  SECTION("uppercase prefix") { CHECK(state_of("- foo ^TR0123456789") == EntryState::malformed); }
  SECTION("too short") { CHECK(state_of("- foo ^tr12345") == EntryState::malformed); }
  SECTION("too long") { CHECK(state_of("- foo ^tr0123456789a") == EntryState::malformed); }
  SECTION("no space before the caret") {
    CHECK(state_of("- foo^tr0123456789") == EntryState::malformed);
  }
  SECTION("a dash after tr, as older plugin versions wrote") {
    CHECK(state_of("- foo ^tr-3b9de8d046") == EntryState::malformed);
  }
  SECTION("any other caret token at the end") {
    CHECK(state_of("- foo ^abc") == EntryState::malformed);
  }
}

TEST_CASE("a malformed entry records the offending token", "[recall][entry]") {
  const ParsedFile parsed = parse("- foo ^tr12345\n- bar ^tr0123456789 baz\n");
  REQUIRE(parsed.entries.size() == 2);
  CHECK(parsed.entries[0].bad_token == "^tr12345");
  CHECK(parsed.entries[1].bad_token == "^tr0123456789 baz");
  CHECK(parsed.entries[0].id.empty());
}

TEST_CASE("carets in ordinary text do not make an entry malformed", "[recall][entry]") {
  CHECK(state_of("- use a ^ b for xor") == EntryState::untagged);
  CHECK(state_of("- 2^10 is 1024") == EntryState::untagged);
}

TEST_CASE("a bare id is a tagged entry with empty text", "[recall][entry]") {
  const ParsedFile parsed = parse("- ^tr0123456789\n");
  REQUIRE(parsed.entries.size() == 1);
  CHECK(parsed.entries[0].state == EntryState::tagged);
  CHECK(parsed.entries[0].text.empty());
}

TEST_CASE("a thematic break made of dashes is not an entry", "[recall][entry]") {
  CHECK(parse("- - -\n").entries.empty());
  CHECK(parse("- - - -\n").entries.empty());
}

TEST_CASE("only unindented dash bullets are candidates", "[recall][entry]") {
  CHECK(parse("  - indented\n* star\n+ plus\n1. number\n-\tdash tab\n-no space\n").entries.empty());
}

TEST_CASE("continuation lines of a list item are not entries", "[recall][entry]") {
  CHECK(entry_lines(parse("- first line\n  continued here\n- second\n")) == std::vector<int>{1, 3});
}

TEST_CASE("a claim block is one entry whose first line carries the id", "[recall][entry]") {
  const std::string bytes =
      "- **claim**: Postgres 15 ^tr0123456789\n- **confidence**: high\n- **last_verified**: "
      "2026-01-01\n"
      "\n"
      "- **Note**: a — b\n";
  const ParsedFile parsed = parse(bytes, "memory/registers/tech-stack.md");
  REQUIRE(parsed.entries.size() == 2);
  CHECK(parsed.entries[0].line == 1);
  CHECK(parsed.entries[0].state == EntryState::tagged);
  CHECK(parsed.entries[0].id == "tr0123456789");
  CHECK(parsed.entries[0].text == "**claim**: Postgres 15");
  CHECK(parsed.entries[0].all_lines() ==
        "- **claim**: Postgres 15 ^tr0123456789\n- **confidence**: high\n- **last_verified**: "
        "2026-01-01");
  CHECK(bytes.substr(parsed.entries[0].end, 1) == "\n");  // the block ends before the blank
  CHECK(parsed.entries[1].line == 5);
  CHECK(parsed.entries[1].text == "**Note**: a — b");
  CHECK(parsed.findings.empty());
}

TEST_CASE("capitalised claim blocks are one entry, whatever keys follow the first",
          "[recall][entry]") {
  const ParsedFile parsed = parse(
      "## Pools — 2026-02-23\n"
      "- **Decision**: use one pool\n"
      "- **Alternatives considered**: none\n"
      "- **Current state** (2026-03-08): done\n"
      "  - nested detail\n"
      "- **Review artefacts** (gitignored): `x.md`\n"
      "- *Added: 2026-02-25*\n"
      "- plain entry\n",
      "memory/registers/decisions.md");
  REQUIRE(parsed.entries.size() == 2);
  CHECK(parsed.entries[0].line == 2);
  CHECK(parsed.entries[0].state == EntryState::untagged);
  CHECK(parsed.entries[1].line == 8);
}

TEST_CASE("ids off an entry's first line are strays with the entry they belong to",
          "[recall][entry]") {
  const ParsedFile parsed = parse(
      "## Vitest ^tr7c3e9f1d2a\n"
      "- **Choice**: Vitest\n"
      "- **Status**: active\n"
      "\n"
      "## Loop\n"
      "- **Type**: question\n"
      "- *Added: 2026-02-25* ^tr4a9c2e81b7\n"
      "\n"
      "## Two entries ^tr-a5f2c8e1b7\n"
      "- one\n"
      "- two\n"
      "  Added: 2026-02-23 ^tr-e2b8d4c037\n"
      "- [none] ^tr1111111111\n",
      "memory/registers/open-loops.md");
  REQUIRE(parsed.entries.size() == 4);
  REQUIRE(parsed.strays.size() == 5);
  CHECK(parsed.strays[0].place == StrayPlace::heading);
  CHECK(parsed.strays[0].id == "tr7c3e9f1d2a");
  CHECK(parsed.strays[0].owner == std::optional<std::size_t>{0});
  CHECK(parsed.strays[1].place == StrayPlace::block_line);
  CHECK(parsed.strays[1].owner == std::optional<std::size_t>{1});
  CHECK(parsed.strays[2].place == StrayPlace::heading);
  CHECK(parsed.strays[2].id == "tra5f2c8e1b7");     // the older dashed spelling, read
  CHECK_FALSE(parsed.strays[2].owner.has_value());  // two entries: no single owner
  CHECK(parsed.strays[3].place == StrayPlace::continuation);
  CHECK(parsed.strays[3].owner == std::optional<std::size_t>{3});
  CHECK(parsed.strays[4].place == StrayPlace::placeholder);
  CHECK(parsed.findings.size() == 5);
}

TEST_CASE("front matter list items are skipped", "[recall][entry]") {
  CHECK(entry_lines(parse("---\ntags:\n- tag\n---\n- real\n")) == std::vector<int>{5});
  CHECK(entry_lines(parse("---\n- tag\n...\n- real\n")) == std::vector<int>{4});
}

TEST_CASE("a leading dash line without a closing one is not front matter", "[recall][entry]") {
  CHECK(entry_lines(parse("---\n- a\n- b\n")) == std::vector<int>{2, 3});
}

TEST_CASE("ids are found in CRLF files and the terminator is outside the raw line",
          "[recall][entry]") {
  const std::string bytes = "# W\r\n- one ^tr0123456789\r\n- two\r\n";
  const ParsedFile parsed = parse(bytes);
  REQUIRE(parsed.entries.size() == 2);
  CHECK(parsed.entries[0].state == EntryState::tagged);
  CHECK(parsed.entries[0].raw == "- one ^tr0123456789");
  CHECK(bytes.substr(parsed.entries[0].content_end,
                     parsed.entries[0].end - parsed.entries[0].content_end) == "\r\n");
  CHECK(parsed.entries[1].line == 3);
  CHECK(parsed.entries[1].text == "two");
}

TEST_CASE("a last line without a newline is an entry that ends at the end of file",
          "[recall][entry]") {
  const std::string bytes = "- a\n- b ^tr0123456789";
  const ParsedFile parsed = parse(bytes);
  REQUIRE(parsed.entries.size() == 2);
  CHECK(parsed.entries[1].state == EntryState::tagged);
  CHECK(parsed.entries[1].content_end == bytes.size());
  CHECK(parsed.entries[1].end == bytes.size());
}

TEST_CASE("a BOM before the first entry is ignored", "[recall][entry]") {
  const ParsedFile parsed = parse("\xEF\xBB\xBF- x ^tr0123456789\n");
  REQUIRE(parsed.entries.size() == 1);
  CHECK(parsed.entries[0].state == EntryState::tagged);
  CHECK(parsed.entries[0].line == 1);
  CHECK(parsed.entries[0].begin == 3);
  CHECK(parsed.entries[0].text == "x");
}

TEST_CASE("an empty file has no entries", "[recall][entry]") {
  CHECK(parse("").entries.empty());
  CHECK(parse("\xEF\xBB\xBF").entries.empty());
}

TEST_CASE("ids on headings and indented lines are ignored with a warning", "[recall][entry]") {
  const ParsedFile parsed = parse(
      "## Decision ^tr-c9e4b2d781\n- entry\n  continued ^tr0123456789\n```\n# x "
      "^tr0123456789\n```\n");
  REQUIRE(parsed.findings.size() == 2);
  CHECK(parsed.findings[0].line == 1);
  CHECK(parsed.findings[0].message.find("heading") != std::string::npos);
  CHECK(parsed.findings[1].line == 3);
  CHECK(parsed.findings[1].message.find("indented") != std::string::npos);
}

TEST_CASE("non-ASCII text passes through unchanged", "[recall][entry]") {
  const ParsedFile parsed = parse(
      "- Café a\xC2\xA0"
      "b ^tr0123456789\n");
  REQUIRE(parsed.entries.size() == 1);
  CHECK(parsed.entries[0].text ==
        "Café a\xC2\xA0"
        "b");
}

TEST_CASE("valid ids are tr and ten lowercase hex digits", "[recall][entry]") {
  CHECK(gv::recall::is_valid_id("tr0123456789"));
  CHECK(gv::recall::is_valid_id("trabcdef0123"));
  CHECK_FALSE(gv::recall::is_valid_id("^tr0123456789"));
  CHECK_FALSE(gv::recall::is_valid_id("tr012345678"));
  CHECK_FALSE(gv::recall::is_valid_id("trABCDEF0123"));
  CHECK_FALSE(gv::recall::is_valid_id("0123456789"));
}

TEST_CASE("id tokens are found anywhere in a file", "[recall][entry]") {
  CHECK(gv::recall::find_id_tokens(
            "## h ^tr0123456789\n```\n- x ^trabcdefabcd\n```\n^tr12 ^TR0123456789") ==
        std::vector<std::string>{"tr0123456789", "trabcdefabcd"});
}

TEST_CASE("a claim block whose first field describes it is shown by its section's heading",
          "[recall][entry]") {
  const gv::recall::ParsedFile parsed = gv::recall::parse_file(
      {"memory/registers/open-loops.md", "registers/open-loops.md", gv::recall::Tier::register_},
      "# Open loops\n\n## Ship the release notes ^tr0000000001\n\n- **Type**: follow-up "
      "^tr0000000002\n- **Status**: open\n\n## Tools\n\n- **Decision**: use uv ^tr0000000003\n"
      "- plain entry ^tr0000000004\n");
  REQUIRE(parsed.entries.size() == 3);
  CHECK(parsed.entries[0].text == "**Type**: follow-up");
  CHECK(parsed.entries[0].shown_text() == "Ship the release notes");
  CHECK(parsed.entries[1].shown_text() == "**Decision**: use uv");
  CHECK(parsed.entries[2].shown_text() == "plain entry");
}

}  // namespace recall_entry_test
