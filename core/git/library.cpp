#include "core/git/library.hpp"

#include <git2.h>

#include <cstddef>

namespace gv::git {

Library::Library() {
  git_libgit2_init();
  // libgit2 caches no tree above 4 KiB by default, and `.memory/10-Memories/` of a large vault is
  // megabytes: every path looked up in it would inflate and parse the whole tree again. Keeping
  // trees makes a lookup a binary search.
  git_libgit2_opts(GIT_OPT_SET_CACHE_OBJECT_LIMIT, GIT_OBJECT_TREE,
                   static_cast<std::size_t>(64) * 1024 * 1024);
}
Library::~Library() { git_libgit2_shutdown(); }

}  // namespace gv::git
