#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace gv::git {

class Repo;

// The best common ancestor of two commits (40 hex each), or nullopt when their histories never
// meet. Throws gv::Error when either id names no commit.
[[nodiscard]] std::optional<std::string> merge_base(const Repo& repo, std::string_view one,
                                                    std::string_view two);

// The commit a branch is compared against when the user names none: the default branch
// (`origin/HEAD`, else `main`, `master`, `origin/main`, `origin/master`), other than the branch
// checked out; on the default branch itself, its upstream (`@{upstream}`), else the branch.
// Returns the revision that resolved (so messages can name it) and its commit id; nullopt when
// none does.
struct DefaultBase {
  std::string rev;
  std::string commit;
};
[[nodiscard]] std::optional<DefaultBase> default_base(const Repo& repo);

}  // namespace gv::git
