#include <catch2/catch.hpp>

#include "core/distill/compress.hpp"
#include "core/error.hpp"

namespace distill_compress_test {

using gv::distill::checked_summary;
using gv::distill::compress_file;

namespace {

gv::Date today() { return *gv::parse_date("2026-11-30"); }

const std::string k_cache =
    "---\n"
    "title: \"Cache\"\n"
    "created: 2026-01-01\n"
    "modified: 2026-02-01\n"
    "keywords: [redis, ttl]\n"
    "summary: \"c\"\n"
    "token_count: 99\n"
    "---\n"
    "\n"
    "# Cache\n"
    "\n"
    "Use redis for the cache. Set a ttl on every key. Other words here.\n"
    "\n"
    "## History\n"
    "\n"
    "### Previous Version (2026-01-15)\n"
    "\n"
    "Old.\n"
    "\n"
    "## Connections\n"
    "- [[MEM-x]]\n";

}  // namespace

TEST_CASE("the main content is what lies between the title and History", "[compress]") {
  CHECK(gv::distill::main_content_of("m.md", k_cache) ==
        "\nUse redis for the cache. Set a ttl on every key. Other words here.\n\n");
  CHECK_THROWS_WITH(gv::distill::main_content_of("m.md", "# no frontmatter\n"),
                    "m.md:1: no frontmatter block; cannot compress");
}

TEST_CASE("the old main content becomes the first History entry and lost keywords a line",
          "[compress]") {
  const auto compressed =
      compress_file("m.md", k_cache, "- Use redis for the cache.\n", {"redis", "TTL"}, today());
  CHECK(compressed.bytes ==
        "---\n"
        "title: \"Cache\"\n"
        "created: 2026-01-01\n"
        "modified: 2026-11-30\n"
        "keywords: [redis, ttl]\n"
        "summary: \"c\"\n"
        "token_count: 99\n"
        "---\n"
        "\n"
        "# Cache\n"
        "\n"
        "- Use redis for the cache.\n"
        "\n"
        "**Keywords**: ttl\n"
        "\n"
        "## History\n"
        "\n"
        "### Pre-Compression (2026-11-30)\n"
        "\n"
        "Use redis for the cache. Set a ttl on every key. Other words here.\n"
        "\n"
        "### Previous Version (2026-01-15)\n"
        "\n"
        "Old.\n"
        "\n"
        "## Connections\n"
        "- [[MEM-x]]\n");
  CHECK_FALSE(compressed.keywords_preserved);
  CHECK(compressed.keywords_added == std::vector<std::string>{"ttl"});
  // D3 leaves History out: `# Cache` 2 + 14 + Connections 4 = 20 words before; 2 + 6 + 2 + 4
  // = 14 after.
  CHECK(compressed.tokens_before == 26);
  CHECK(compressed.tokens_after == 18);
}

TEST_CASE("a memory without History gains one, in its own line endings", "[compress]") {
  const std::string crlf =
      "---\r\ntitle: \"C\"\r\ncreated: 2026-01-01\r\nkeywords: [alpha]\r\n---\r\n\r\n# C\r\n\r\n"
      "Alpha text here.\r\n";
  const auto compressed = compress_file("c.md", crlf, "- Alpha.\n", {"alpha"}, today());
  CHECK(compressed.bytes ==
        "---\r\ntitle: \"C\"\r\ncreated: 2026-01-01\r\nmodified: 2026-11-30\r\nkeywords: [alpha]"
        "\r\n---\r\n\r\n# C\r\n\r\n- Alpha.\r\n\r\n## History\r\n\r\n### Pre-Compression "
        "(2026-11-30)\r\n\r\nAlpha text here.\r\n");
  CHECK(compressed.keywords_preserved);
  CHECK(compressed.keywords_added.empty());
}

TEST_CASE("History placed after Connections still gets the new entry first", "[compress]") {
  const std::string file =
      "---\ntitle: \"C\"\ncreated: 2026-01-01\n---\n# C\nLong text.\n## Connections\n- [[MEM-x]]\n"
      "## History\n### Previous Version (2026-01-15)\nOld.\n";
  const auto compressed = compress_file("c.md", file, "- Short.\n", {}, today());
  CHECK(compressed.bytes ==
        "---\ntitle: \"C\"\ncreated: 2026-01-01\nmodified: 2026-11-30\n---\n# C\n\n- Short.\n\n"
        "## Connections\n- [[MEM-x]]\n## History\n\n### Pre-Compression (2026-11-30)\n\n"
        "Long text.\n\n### Previous Version (2026-01-15)\nOld.\n");
}

TEST_CASE("a summary is trimmed and must not be blank or split the sections", "[compress]") {
  CHECK(checked_summary("cmd", "\n\n  - point\n\n\n") == "  - point\n");
  CHECK_THROWS_WITH(checked_summary("my-cmd", " \n\t\n"),
                    "summarizer `my-cmd` printed nothing; nothing was written");
  CHECK_THROWS_WITH(checked_summary("my-cmd", "text\n## History\nx\n"),
                    Catch::Contains("printed a `## History` heading"));
  CHECK_THROWS_WITH(checked_summary("my-cmd", "text\n\xff\n"), Catch::Contains("not UTF-8"));
  // Inside a fence it is only text.
  CHECK(checked_summary("cmd", "```\n## Connections\n```\n") == "```\n## Connections\n```\n");
}

TEST_CASE("headings moved into History go two levels down so History stays one section",
          "[compress]") {
  const std::string file =
      "---\ntitle: \"C\"\ncreated: 2026-01-01\n---\n# C\n\nLead.\n\n## Merged From MEM-s\n\n"
      "Text.\n\n```\n## not a heading\n```\n##### Deep\n";
  const auto compressed = compress_file("c.md", file, "- Lead.\n", {}, today());
  CHECK(compressed.bytes ==
        "---\ntitle: \"C\"\ncreated: 2026-01-01\nmodified: 2026-11-30\n---\n# C\n\n- Lead.\n\n"
        "## History\n\n### Pre-Compression (2026-11-30)\n\nLead.\n\n#### Merged From MEM-s\n\n"
        "Text.\n\n```\n## not a heading\n```\n###### Deep\n");
  // `# C` and `- Lead.`: the whole old text is History now.
  CHECK(compressed.tokens_after == 5);
}

}  // namespace distill_compress_test
