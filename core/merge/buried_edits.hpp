#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace gv::merge {

// One memory file at the four points of a merge; absent where the file was not there.
struct MergeSides {
  std::optional<std::string> base;
  std::optional<std::string> ours;
  std::optional<std::string> theirs;
  std::optional<std::string> merged;
};

enum class Side { ours, theirs };

// A memory one side of a merge tombstoned while the other side edited its text. The two
// changes touch different lines (the frontmatter's status, the body), so git merges them without
// a conflict: the merged memory is tombstoned and holds the edit, and `distill --gc` deletes
// both once the tombstone is old enough (doc/merges.md, "A tombstone meets an edit").
struct BuriedEdit {
  Side edited_on = Side::ours;  // the side whose edit the tombstone buries
};

// The buried edit in `sides` of the memory at `path`, if there is one: the merged memory is
// tombstoned, the base's was active, one side tombstoned it and the other kept it active with a
// body that differs from the base's.
[[nodiscard]] std::optional<BuriedEdit> buried_edit(std::string_view path, const MergeSides& sides);

}  // namespace gv::merge
