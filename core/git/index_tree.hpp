#pragma once

#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "core/git/index_file.hpp"

namespace gv::git {

// The id of the tree `git write-tree` would write for the folder `dir` (no trailing slash, e.g.
// `.memory`) from index entries sorted as the index keeps them: hashed, never written. nullopt
// when an entry under `dir` is one git would not put in a tree as it is (a conflict, an
// intent-to-add file) or nothing is under it. The pre-commit gate compares it with the folder's
// id in HEAD's tree to know whether the state it checked last is the one HEAD holds, without
// reading HEAD's trees.
[[nodiscard]] std::optional<std::string> index_tree_id(std::span<const IndexFile::Entry> entries,
                                                       std::string_view dir);

}  // namespace gv::git
