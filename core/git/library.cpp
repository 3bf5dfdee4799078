#include "core/git/library.hpp"

#include <git2.h>

namespace gv::git {

Library::Library() { git_libgit2_init(); }
Library::~Library() { git_libgit2_shutdown(); }

}  // namespace gv::git
