#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace gv::merge {

// The `vault-state` merge driver's rule for `specs/state.json`, which git-vault shares with other
// tools: a three-way merge of its top-level keys. A key only one side changed takes that side;
// a key both changed is a conflict, except `memory_health`, git-vault's own, merged key by key:
// `last_*` cursors take the later time, `*_count` counters add both sides' increments to the
// ancestor's, and the health figures come from the side that distilled last (ours on a tie). Two
// branches that each ran a maintenance action then merge without a conflict
// (doc/merges.md, "specs/state.json").
//
// `ancestor` may be empty (both sides added the file). nullopt when a side is not a JSON object
// or both changed another key differently: the driver then leaves git's line-by-line conflict.
// Written with two-space indents and a trailing newline, keys in ours' order.
[[nodiscard]] std::optional<std::string> merge_state(std::string_view ancestor,
                                                     std::string_view ours,
                                                     std::string_view theirs);

}  // namespace gv::merge
