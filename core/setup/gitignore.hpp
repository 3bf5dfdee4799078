#pragma once

#include <string_view>

namespace gv::git {
class Repo;
}  // namespace gv::git

namespace gv {

// What `init --recall` did about the private working memory (CLAUDE.local.md): it is the
// agent's scratchpad for one person, so it is ignored unless the repository already tracks it,
// as the recall installer does.
enum class IgnoreOutcome {
  added,            // a `CLAUDE.local.md` line was appended to .gitignore
  already_ignored,  // git already ignores it
  tracked,          // the repository tracks it: left alone
};

// Appends `path` (repo-relative) to the work tree's .gitignore unless git tracks or already
// ignores it; .gitignore is rewritten atomically, its other lines kept byte for byte.
IgnoreOutcome ignore_unless_tracked(const git::Repo& repo, std::string_view path);

}  // namespace gv
