#pragma once

#include <set>
#include <string>
#include <string_view>

namespace gv::hooks {

// `GIT_VAULT_SKIP=<check>[,<check>…]`: the gate checks a user skips for one commit, the finer
// sibling of `git commit --no-verify`. `all` skips every check.
struct SkipSpec {
  std::set<std::string> checks;
  bool all = false;
};

// Splits on commas, trims blanks around each name, drops empty names. Names are kept as
// written (lower-case is the convention); unknown names are the gate's business.
[[nodiscard]] SkipSpec parse_skip(std::string_view value);

}  // namespace gv::hooks
