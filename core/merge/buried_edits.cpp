#include "core/merge/buried_edits.hpp"

#include "core/memory/frontmatter.hpp"
#include "core/memory/parse.hpp"

namespace gv::merge {
namespace {

// Tombstoned, active, or unreadable (nullopt): an unreadable side is reported by the gate, not
// here.
std::optional<bool> tombstoned(std::string_view path, const std::optional<std::string>& bytes) {
  if (!bytes) {
    return std::nullopt;
  }
  const ParsedMemory parsed = parse_memory(path, *bytes, {});
  if (!parsed.memory) {
    return std::nullopt;
  }
  return parsed.memory->tombstoned;
}

std::string_view body(const std::string& bytes) { return split_frontmatter(bytes).body(bytes); }

}  // namespace

std::optional<BuriedEdit> buried_edit(std::string_view path, const MergeSides& sides) {
  if (tombstoned(path, sides.merged) != true || tombstoned(path, sides.base) != false) {
    return std::nullopt;
  }
  const auto buried = [&](const std::optional<std::string>& killer,
                          const std::optional<std::string>& editor) {
    return tombstoned(path, killer) == true && tombstoned(path, editor) == false &&
           body(*editor) != body(*sides.base);
  };
  if (buried(sides.theirs, sides.ours)) {
    return BuriedEdit{Side::ours};
  }
  if (buried(sides.ours, sides.theirs)) {
    return BuriedEdit{Side::theirs};
  }
  return std::nullopt;
}

}  // namespace gv::merge
