#include "core/memory/tokens.hpp"

#include <catch2/catch.hpp>
#include <string>

#include "core/memory/body.hpp"

namespace tokens_test {

TEST_CASE("words are runs of non-whitespace", "[tokens]") {
  CHECK(gv::count_words("") == 0);
  CHECK(gv::count_words("  \t\r\n\v\f ") == 0);
  CHECK(gv::count_words("one") == 1);
  CHECK(gv::count_words(" one\ttwo\r\nthree\vfour\ffive ") == 5);
  CHECK(gv::count_words("a-b c/d **e**") == 3);
}

TEST_CASE("token count is floor of words times 1.3", "[tokens]") {
  CHECK(gv::token_count("") == 0);
  CHECK(gv::token_count("one") == 1);                   // 1.3
  CHECK(gv::token_count("a b c") == 3);                 // 3.9
  CHECK(gv::token_count("a b c d e f g h i j") == 13);  // 13.0
  CHECK(gv::token_count("a b c d e f g") == 9);         // 9.1
}

TEST_CASE("the History section does not count toward tokens", "[tokens]") {
  const std::string body =
      "\n# Title here\n"  // 3 words
      "main text\n"       // 2
      "## History\n"
      "### Previous Version (2026-01-01)\n"
      "old old old old old\n"
      "## Connections\n"               // 2
      "- [[MEM-x]]\n";                 // 2
  CHECK(gv::token_count(body) == 11);  // 9 words * 1.3 = 11.7
}

TEST_CASE("History at the end of the body runs to the end", "[tokens]") {
  CHECK(gv::token_count("# T\n\n## History\nold words here\n") == 2);  // 2 words
}

TEST_CASE("a History heading inside fenced code is content", "[tokens]") {
  const std::string body =
      "# T\n"
      "```markdown\n"
      "## History\n"
      "```\n"
      "after\n";
  // Every word counts: # T ```markdown ## History ``` after = 7 words
  CHECK(gv::token_count(body) == 9);
  CHECK_FALSE(gv::locate_sections(body).history);
}

TEST_CASE("a level-3 heading does not end the History section", "[tokens][body]") {
  const std::string body = "# T\n## History\n### Old\nx y\n## Next\nkeep\n";
  // Counted: # T ## Next keep = 5 words
  CHECK(gv::token_count(body) == 6);
}

TEST_CASE("body sections are located around the title", "[body]") {
  const std::string body =
      "\n"
      "# My title\n"
      "\n"
      "Main content.\n"
      "## Details\n"
      "more\n"
      "## History\n"
      "old\n"
      "## Connections\n"
      "- [[MEM-a]]\n";
  const auto s = gv::locate_sections(body);
  REQUIRE(s.title_line);
  CHECK(s.title == "My title");
  CHECK(body.substr(s.title_line->begin, s.title_line->end - s.title_line->begin) ==
        "# My title\n");
  CHECK(body.substr(s.main.begin, s.main.end - s.main.begin) ==
        "\nMain content.\n## Details\nmore\n");
  REQUIRE(s.history);
  CHECK(body.substr(s.history->begin, s.history->end - s.history->begin) == "## History\nold\n");
  REQUIRE(s.connections);
  CHECK(body.substr(s.connections->begin) == "## Connections\n- [[MEM-a]]\n");
  CHECK(s.connections->end == body.size());
}

TEST_CASE("a body without a title has main content from the start", "[body]") {
  const std::string body = "text\n## Connections\n";
  const auto s = gv::locate_sections(body);
  CHECK_FALSE(s.title_line);
  CHECK(s.main.begin == 0);
  CHECK(body.substr(s.main.begin, s.main.end) == "text\n");
}

TEST_CASE("tilde fences and longer closing fences are honoured", "[body]") {
  const auto headings = gv::find_headings(
      "~~~\n# not\n~~~\n````\n```\n## still code\n````\n## Real\n#nospace\n####### seven\n");
  REQUIRE(headings.size() == 1);
  CHECK(headings[0].text == "Real");
  CHECK(headings[0].level == 2);
  CHECK(headings[0].line == 8);
}

TEST_CASE("wiki links drop alias and anchor and skip code and comments", "[body]") {
  const std::string body =
      "See [[MEM-a]] and [[MEM-b|the b note]] and [[ MEM-c#Part ]].\n"
      "<!-- Add links to related memories using [[filename]] syntax -->\n"
      "```\n[[MEM-in-code]]\n```\n"
      "<!-- multi\nline [[MEM-hidden]]\n-->[[MEM-d]]\n"
      "[[]] [[MEM-unclosed\n";
  const auto links = gv::wiki_links(body);
  CHECK(links == std::vector<std::string>{"MEM-a", "MEM-b", "MEM-c", "MEM-d"});
}

}  // namespace tokens_test
