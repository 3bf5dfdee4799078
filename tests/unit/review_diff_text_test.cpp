#include <catch2/catch.hpp>

#include "core/review/frontmatter_fields.hpp"

namespace review_diff_text_test {

using gv::review::normalise_for_diff;

TEST_CASE("diff text puts every frontmatter field and list item on its own line", "[review]") {
  const std::string file =
      "---\ntitle: \"Use uv\"\ncreated: 2026-01-01\ntags: [PATTERN, python]\n"
      "keywords: [uv, pip]\nsummary: \"\"\nlast_retrieved:\nlinks: []\n"
      "meta: {a: 1}\n---\n\n# Use uv\n\nkeywords: [not, frontmatter]\n";
  CHECK(normalise_for_diff(file) ==
        "---\ntitle: Use uv\ncreated: 2026-01-01\ntags:\n  - PATTERN\n  - python\n"
        "keywords:\n  - uv\n  - pip\nsummary: \"\"\nlast_retrieved: null\nlinks: []\n"
        "meta:\n  a: 1\n---\n\n# Use uv\n\nkeywords: [not, frontmatter]\n");
}

TEST_CASE("diff text keeps block lists and flow lists the same, so a restyle is no diff",
          "[review]") {
  const std::string flow = "---\ntitle: T\nkeywords: [a, b]\n---\nbody\n";
  const std::string block = "---\ntitle: T\nkeywords:\n- a\n- 'b'\n---\nbody\n";
  CHECK(normalise_for_diff(flow) == normalise_for_diff(block));
}

TEST_CASE("diff text leaves a file without readable frontmatter unchanged", "[review]") {
  CHECK(normalise_for_diff("# README\n\nno frontmatter\n") == "# README\n\nno frontmatter\n");
  const std::string broken = "---\ntitle: [unclosed\n---\nbody\n";
  CHECK(normalise_for_diff(broken) == broken);
  const std::string unterminated = "---\ntitle: T\nbody\n";
  CHECK(normalise_for_diff(unterminated) == unterminated);
}

TEST_CASE("diff text writes a multi-line scalar as a literal block", "[review]") {
  CHECK(normalise_for_diff("---\nsummary: |\n  one\n  two\n---\n") ==
        "---\nsummary: |\n  one\n  two\n---\n");
}

}  // namespace review_diff_text_test
