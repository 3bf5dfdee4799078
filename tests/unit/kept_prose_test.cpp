#include "core/setup/kept_prose.hpp"

#include <catch2/catch.hpp>
#include <string>

namespace kept_prose_test {

// `init` regenerates generated files an earlier tool left; what a person wrote in them that no
// regeneration writes is kept, never dropped in silence.

TEST_CASE("sections of prose a regeneration does not write are kept, memory lists are not",
          "[setup][init]") {
  const std::string old_text =
      "# Memory Vault Index\n\n"
      "## Quick Navigation\n- [Inbox](00-Inbox/) - Quick capture\n\n"
      "## JSON Index\n\nThe machine-queryable index enables two-phase retrieval.\n\n"
      "## Recent Memories\n- [MEM-a](../10-Memories/MEM-a.md) - A\n";
  const std::string new_text = "# Memory Index\n\n## By Category\n\n- [MEM-a](...) A\n";
  CHECK(gv::prose_not_generated(old_text, new_text) ==
        "## Quick Navigation\n- [Inbox](00-Inbox/) - Quick capture\n\n"
        "## JSON Index\n\nThe machine-queryable index enables two-phase retrieval.\n\n");
}

TEST_CASE("nothing is kept when every section is generated or regenerated as it was",
          "[setup][init]") {
  CHECK_FALSE(
      gv::prose_not_generated("# Index\n\n## Notes\nSame.\n", "# Index\n\n## Notes\nSame.\n"));
  CHECK_FALSE(gv::prose_not_generated("# Index\n- [MEM-a](x)\n", "# Other\n"));
  CHECK_FALSE(gv::prose_not_generated("", "# Index\n"));
}

TEST_CASE("a heading inside a code fence does not start a section", "[setup][init]") {
  CHECK(gv::prose_not_generated("## Usage\n```\n# not a heading\n```\n", "") ==
        "## Usage\n```\n# not a heading\n```\n");
  CHECK(gv::line_count("a\nb\n") == 2);
  CHECK(gv::line_count("a\nb") == 2);
  CHECK(gv::line_count("") == 0);
}

}  // namespace kept_prose_test
