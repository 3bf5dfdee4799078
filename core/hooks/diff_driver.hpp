#pragma once

#include <string_view>

namespace gv::git {
class Repo;
}

namespace gv::hooks {

// The diff driver for memory files: `.gitattributes` routes `.memory/10-Memories/*.md` to it
// (`diff=vault-memory`) and each clone defines its textconv, so `git diff` and `git log -p`
// show frontmatter changes one field and one list item per line. Tools that ignore drivers
// (and plumbing such as `git diff-tree`) still see the plain text.
inline constexpr std::string_view k_diff_driver_name = "vault-memory";
inline constexpr std::string_view k_diff_textconv = "git vault diff-text";

// Sets `diff.vault-memory.textconv` in the repository's own config. Returns true when it
// changed anything (false when already set to our command).
bool configure_diff_driver(git::Repo& repo);

// Removes that key; returns true when it was there.
bool remove_diff_driver(git::Repo& repo);

}  // namespace gv::hooks
