#include "core/git/library.hpp"

#include <git2.h>

namespace gv::git {

Library::Library() {
  git_libgit2_init();
  // Process-wide settings belong here, set once at start-up, never inside a command or check.
  // Reading a blob would make libgit2 re-hash it with collision-detecting SHA-1, which for the
  // multi-megabyte generated index files costs more than the rest of a gate run. git itself
  // does not verify objects on read either (`git fsck` does).
  (void)git_libgit2_opts(GIT_OPT_ENABLE_STRICT_HASH_VERIFICATION, 0);
}
Library::~Library() { git_libgit2_shutdown(); }

}  // namespace gv::git
