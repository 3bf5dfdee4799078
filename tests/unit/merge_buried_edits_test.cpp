#include <catch2/catch.hpp>
#include <string>

#include "core/merge/buried_edits.hpp"

namespace merge_buried_edits_test {

using gv::merge::buried_edit;
using gv::merge::MergeSides;
using gv::merge::Side;

namespace {

constexpr const char* k_path = ".memory/10-Memories/MEM-pins.md";

std::string memory(bool tombstoned, const std::string& body) {
  return std::string("---\ntitle: Pins\ncreated: 2026-01-01\n") +
         (tombstoned ? "status: tombstoned\ntombstoned_at: 2026-11-20\n" : "") + "---\n# Pins\n\n" +
         body;
}

}  // namespace

TEST_CASE("a tombstone on one side and an edit on the other is a buried edit", "[merge]") {
  MergeSides sides;
  sides.base = memory(false, "Pin it.\n");
  sides.ours = memory(true, "Pin it.\n");
  sides.theirs = memory(false, "Pin it.\nAlso nextest.\n");
  sides.merged = memory(true, "Pin it.\nAlso nextest.\n");
  const auto found = buried_edit(k_path, sides);
  REQUIRE(found);
  CHECK(found->edited_on == Side::theirs);

  std::swap(sides.ours, sides.theirs);
  REQUIRE(buried_edit(k_path, sides));
  CHECK(buried_edit(k_path, sides)->edited_on == Side::ours);
}

TEST_CASE("no buried edit without an edit, a tombstone from the merge, or an active result",
          "[merge]") {
  MergeSides sides;
  sides.base = memory(false, "Pin it.\n");
  sides.ours = memory(true, "Pin it.\n");
  sides.theirs = memory(false, "Pin it.\n");  // only its frontmatter could have changed
  sides.merged = memory(true, "Pin it.\n");
  CHECK_FALSE(buried_edit(k_path, sides));

  sides.theirs = memory(false, "Pin it.\nAlso nextest.\n");
  sides.merged = memory(false, "Pin it.\nAlso nextest.\n");  // resolved as active
  CHECK_FALSE(buried_edit(k_path, sides));

  sides.base = memory(true, "Pin it.\n");  // tombstoned before the fork
  sides.merged = memory(true, "Pin it.\nAlso nextest.\n");
  CHECK_FALSE(buried_edit(k_path, sides));

  sides.base = std::nullopt;  // added on both sides: no base to compare with
  CHECK_FALSE(buried_edit(k_path, sides));
  sides.base = "not a memory";
  CHECK_FALSE(buried_edit(k_path, sides));
}

}  // namespace merge_buried_edits_test
