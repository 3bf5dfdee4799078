#include "core/git/library.hpp"

#include <git2.h>

#include <cstddef>

// Debian's libgit2 1.5 speaks HTTPS through mbedTLS and, inside git_libgit2_init, parses the
// system's whole CA bundle (about 140 certificates, some 200 KiB of PEM): half of what a hook's
// start-up costs, for network access git-vault never makes (it opens local repositories only).
// These two definitions take the place of mbedTLS's loaders for libgit2, whose calls the dynamic
// linker binds to the executable's symbols first; they load nothing and report success, so the
// trust store stays empty. Nothing else in the program calls them.
extern "C" {
int mbedtls_x509_crt_parse_file(void* chain, const char* path) {
  (void)chain;
  (void)path;
  return 0;
}
int mbedtls_x509_crt_parse_path(void* chain, const char* path) {
  (void)chain;
  (void)path;
  return 0;
}
}

namespace gv::git {

Library::Library() {
  git_libgit2_init();
  // Process-wide settings belong here, set once at start-up, never inside a command or check.
  // Reading a blob would make libgit2 re-hash it with collision-detecting SHA-1, which for the
  // multi-megabyte generated index files costs more than the rest of a gate run. git itself
  // does not verify objects on read either (`git fsck` does).
  (void)git_libgit2_opts(GIT_OPT_ENABLE_STRICT_HASH_VERIFICATION, 0);
  // libgit2 caches no tree above 4 KiB by default, and `.memory/10-Memories/` of a large vault is
  // megabytes: every path looked up in it would inflate and parse the whole tree again. Keeping
  // trees makes a lookup a binary search.
  (void)git_libgit2_opts(GIT_OPT_SET_CACHE_OBJECT_LIMIT, GIT_OBJECT_TREE,
                         static_cast<std::size_t>(64) * 1024 * 1024);
}
Library::~Library() { git_libgit2_shutdown(); }

}  // namespace gv::git
