// Regression tests for inputs the fuzz targets found (tests/fuzz/corpus keeps the inputs).
#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "core/memory/frontmatter_edit.hpp"
#include "core/memory/parse.hpp"

namespace frontmatter_fuzz_regress_test {

namespace {

const std::string k_repeated =
    "---\ntitle: \"Retry\"\ncreated: 2026-03-01\nsummary: \"first\"\nretrieval_count: 1\n"
    "summary: \"second\"\nretrieval_count: 2\n---\n\n# Retry\n";

}  // namespace

TEST_CASE("the frontmatter editor changes the occurrence of a repeated key that parsing reads",
          "[frontmatter][fuzz]") {
  // Found by tests/fuzz/fuzz_frontmatter_edit.cpp: with a key written twice, an edit must land
  // where the parser looks, or a retrieval count set by `search --record` would never count.
  gv::FrontmatterEditor editor(".memory/10-Memories/MEM-retry.md", k_repeated);
  editor.set_scalar("retrieval_count", "7");
  const gv::ParsedMemory parsed =
      gv::parse_memory(".memory/10-Memories/MEM-retry.md", editor.bytes(), std::string(40, '0'));
  REQUIRE(parsed.memory.has_value());
  CHECK(parsed.memory->retrieval_count == 7);
}

TEST_CASE("a field is never appended after a value that does not end", "[frontmatter][fuzz]") {
  // Found by tests/fuzz/fuzz_frontmatter_edit.cpp: yaml-cpp reads `reason: "purge` without its
  // closing quote as a string running to the end of the block, so an appended
  // `retrieval_count: 4` became part of the reason instead of a field.
  const std::string bytes =
      "---\r\ntitle: \"Crlf\"\r\ncreated: 2026-01-15\r\ntombstone_reason: \"purge%\r\n---\r\n"
      "\r\n# Crlf\r\n";
  gv::FrontmatterEditor editor(".memory/10-Memories/MEM-crlf.md", bytes);
  CHECK_THROWS_WITH(editor.set_scalar("retrieval_count", "4"),
                    Catch::Contains("MEM-crlf.md") && Catch::Contains("retrieval_count") &&
                        Catch::Contains("does not end"));
  CHECK(editor.bytes() == bytes);             // nothing half-done
  editor.set_scalar("title", "\"Renamed\"");  // an edit in place still works
  CHECK_THAT(editor.bytes(), Catch::Contains("title: \"Renamed\"\r\n"));
}

TEST_CASE("an unclosed quote is reported on the line it opens, with the edit that closes it",
          "[frontmatter]") {
  const std::string bytes =
      "---\ntitle: \"Retry\ncreated: 2026-03-01\nsummary: fine\n---\n\n# Retry\n";
  const gv::ParsedMemory parsed =
      gv::parse_memory(".memory/10-Memories/MEM-retry.md", bytes, std::string(40, '0'));
  REQUIRE(!parsed.findings.empty());
  const gv::Finding& finding = parsed.findings.front();
  CHECK(finding.line == 2);
  CHECK(finding.message ==
        "frontmatter is not valid yaml: the double quote opened on this line is never closed");
  CHECK(finding.fix == "end the value on line 2 with \"");
}

TEST_CASE("a quote that closes lines later, past other fields, is reported where it opens",
          "[frontmatter]") {
  // The title's quote is closed by the summary's first quote, three lines down: yaml-cpp then
  // fails on the summary's text and blames line 6, where nothing is wrong.
  const std::string swallowed =
      "---\ntitle: \"Retry backoff\ncreated: 2026-03-01\nkeywords: [retry, backoff]\n"
      "summary: \"Use exponential backoff\"\n---\n\n# Retry\n";
  const gv::ParsedMemory parsed =
      gv::parse_memory(".memory/10-Memories/MEM-retry.md", swallowed, std::string(40, '0'));
  REQUIRE(!parsed.findings.empty());
  CHECK(parsed.findings.front().line == 2);
  CHECK(parsed.findings.front().message ==
        "frontmatter is not valid yaml: the double quote opened on this line closes only on line "
        "5, so the fields between are read as part of this value");
  CHECK(parsed.findings.front().fix == "end the value on line 2 with \"");

  // A quoted value over two lines is legal: an error further down is reported where it is.
  const std::string legal =
      "---\ntitle: \"Retry backoff\n  over two lines\"\ncreated: 2026-03-01\n"
      "summary: bad: [\n---\n\n# Retry\n";
  const gv::ParsedMemory other =
      gv::parse_memory(".memory/10-Memories/MEM-retry.md", legal, std::string(40, '0'));
  REQUIRE(!other.findings.empty());
  CHECK(other.findings.front().line == 5);
  CHECK_THAT(other.findings.front().message, !Catch::Contains("quote opened"));
}

TEST_CASE("a comment after an empty value stays a comment when the value is set",
          "[frontmatter][fuzz]") {
  // Found by tests/fuzz/fuzz_frontmatter_edit.cpp: `retrieval_count:  # none yet` set to 4 gave
  // `retrieval_count:  4# none yet`, a value of `4# none yet`, and the same edit again gave
  // `retrieval_count:  4`. Lists with an empty value and a comment broke the same way.
  const std::string bytes =
      "---\ntitle: \"Retry\"\ncreated: 2026-03-01\nretrieval_count:  # none yet\n"
      "keywords: # filled later\ntags: # none\n---\n\n# Retry\n";
  const auto edit = [](const std::string& input) {
    gv::FrontmatterEditor editor(".memory/10-Memories/MEM-retry.md", input);
    editor.set_scalar("retrieval_count", "4");
    editor.set_list("keywords", {"retry", "back off"});
    editor.set_list("tags", {});
    return editor.bytes();
  };
  const std::string once = edit(bytes);
  CHECK(once ==
        "---\ntitle: \"Retry\"\ncreated: 2026-03-01\nretrieval_count:  4 # none yet\n"
        "keywords: # filled later\n  - retry\n  - back off\ntags: [] # none\n---\n\n# Retry\n");
  CHECK(edit(once) == once);
  const gv::ParsedMemory parsed =
      gv::parse_memory(".memory/10-Memories/MEM-retry.md", once, std::string(40, '0'));
  REQUIRE(parsed.memory.has_value());
  CHECK(parsed.memory->retrieval_count == 4);
  CHECK(parsed.memory->keywords == std::vector<std::string>{"retry", "back off"});
}

TEST_CASE("fields YAML silently stops before are reported where the reading stopped",
          "[frontmatter][fuzz]") {
  // Found by tests/fuzz/fuzz_frontmatter_edit.cpp: yaml-cpp ends the document at a line that
  // starts with `%` (a directive) or at a key that opens a quote it never closes, without an
  // error. The fields after it vanished, so an edit of retrieval_count landed where nothing read
  // it. Now the file is an error naming that line.
  for (const std::string stray : {"%", "'", "%YAML 1.2"}) {
    const std::string bytes = "---\ntitle: S\ncreated: 2026-08-19\n" + stray +
                              "\nkeywords:\nretrieval_count: 3\nlast_retrieved:\n---\n";
    const gv::ParsedMemory parsed =
        gv::parse_memory(".memory/10-Memories/MEM-s.md", bytes, std::string(40, '0'));
    INFO(stray);
    CHECK_FALSE(parsed.memory.has_value());
    REQUIRE(parsed.findings.size() == 1);
    CHECK(parsed.findings[0].line == 4);
    CHECK_THAT(parsed.findings[0].message, Catch::Contains("field keywords (line 5)"));
    CHECK_THAT(parsed.findings[0].fix, Catch::Contains("line 4"));
  }
}

}  // namespace frontmatter_fuzz_regress_test
