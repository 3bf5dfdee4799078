#pragma once

#include <vector>

#include "core/finding.hpp"

namespace gv {
namespace git {
class Repo;
}

// When HEAD is a git-vault action commit and the index still holds, for the vault paths that
// commit changed, the versions from before it (an action interrupted between moving the branch
// and writing the index, by an older git-vault or a crash), the next `git commit` would silently
// revert the action. One `index-behind-head` error naming the first such path and how many more;
// empty when the index is in line (or HEAD is not an action).
[[nodiscard]] std::vector<Finding> index_behind_head_findings(const git::Repo& repo);

}  // namespace gv
