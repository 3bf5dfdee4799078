#include <catch2/catch.hpp>

#include "core/review/working_diff.hpp"
#include "tests/unit/review_support.hpp"

namespace review_working_diff_test {

using gv::review::diff_working_memory;
using gv::review::WorkingDiff;
using gv::test::ReviewSnapshot;

TEST_CASE("working-memory entries are matched by id: added, removed, edited, moved", "[review]") {
  const ReviewSnapshot base({
      {"CLAUDE.local.md",
       "# Working memory\n\n- keep ^tr0000000001\n- edit me ^tr0000000002\n"
       "- demote me ^tr0000000003\n- drop me ^tr0000000004\n- untagged line\n"},
      {"memory/registers/people.md", "# People\n\n- Ann ^tr0000000010\n"},
  });
  const ReviewSnapshot head({
      {"CLAUDE.local.md",
       "# Working memory\n\n- keep ^tr0000000001\n- edited ^tr0000000002\n"
       "- brand new ^tr0000000005\n- another untagged line\n"},
      {"memory/registers/people.md", "# People\n\n- Ann ^tr0000000010\n"},
      {"memory/archive/2026.md", "# Archive\n\n- demote me, shortened ^tr0000000003\n"},
  });
  const WorkingDiff diff = diff_working_memory(base, head);
  REQUIRE(diff.added.size() == 1);
  CHECK(diff.added[0].id == "tr0000000005");
  CHECK(diff.added[0].path == "CLAUDE.local.md");
  CHECK(diff.added[0].tier == "working");
  CHECK(diff.added[0].line == 5);
  CHECK(diff.added[0].text == "brand new");
  REQUIRE(diff.removed.size() == 1);
  CHECK(diff.removed[0].id == "tr0000000004");
  REQUIRE(diff.edited.size() == 1);
  CHECK(diff.edited[0].id == "tr0000000002");
  CHECK(diff.edited[0].before == "edit me");
  CHECK(diff.edited[0].after == "edited");
  REQUIRE(diff.moved.size() == 1);
  CHECK(diff.moved[0].from.tier == "working");
  CHECK(diff.moved[0].to.tier == "archive");
  CHECK(diff.moved[0].to.path == "memory/archive/2026.md");
  CHECK(diff.moved[0].edited);
}

TEST_CASE("no working-memory change when the managed files are byte-identical", "[review]") {
  const std::map<std::string, std::string> files{{"CLAUDE.local.md", "- a ^tr0000000001\n"}};
  const WorkingDiff diff = diff_working_memory(ReviewSnapshot(files), ReviewSnapshot(files));
  CHECK(diff.added.empty());
  CHECK(diff.removed.empty());
  CHECK(diff.edited.empty());
  CHECK(diff.moved.empty());
}

}  // namespace review_working_diff_test
