#pragma once

#include <optional>
#include <set>
#include <span>
#include <string>
#include <string_view>

#include "core/gate/registry.hpp"

namespace gv {
struct GateOptions;
namespace git {
class Repo;
}  // namespace git
}  // namespace gv

namespace gv::hooks {

// `GIT_VAULT_SKIP=<check>[,<check>…]`: the gate checks a user skips for one commit, the finer
// sibling of `git commit --no-verify`. `all` skips every check. The one reader of the variable:
// the pre-commit hook and every `git vault check` mode go through it.
struct SkipSpec {
  std::set<std::string> checks;
  bool all = false;
  std::string source = "GIT_VAULT_SKIP";  // or "vault.skip", the git config key

  // The gate options that skip what this names.
  [[nodiscard]] GateOptions gate_options() const;
};

// Splits on commas, trims blanks around each name, drops empty names. Every name must be a row
// of `checks` (or `all`): anything else throws gv::UsageError naming the valid checks, since a
// misspelt skip would otherwise silently skip nothing.
[[nodiscard]] SkipSpec parse_skip(std::string_view value,
                                  std::span<const GateCheck> checks = builtin_gate_checks(),
                                  std::string_view source = "GIT_VAULT_SKIP");

// parse_skip of GIT_VAULT_SKIP when it is set (for one command), else of git config
// `vault.skip` (set once, for every commit) read from `repo` when given; nothing otherwise.
[[nodiscard]] SkipSpec skip_from_environment(const git::Repo* repo = nullptr);

// What is being skipped, as lines for stderr (empty when nothing is):
//   git-vault: warning: GIT_VAULT_SKIP=all: every vault check skipped
//   git-vault: skipping schema,stale-index (GIT_VAULT_SKIP)
// A skip from vault.skip is the user's standing choice: only `all` is announced.
[[nodiscard]] std::string skip_notice(const SkipSpec& spec);

}  // namespace gv::hooks
