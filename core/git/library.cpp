#include "core/git/library.hpp"

#include <git2.h>

#include <cstddef>

#include "core/util/system.hpp"

// Debian's libgit2 1.5 speaks HTTPS through mbedTLS and, inside git_libgit2_init, parses the
// system's whole CA bundle (about 140 certificates, some 200 KiB of PEM): half of what a hook's
// start-up costs, for network access git-vault never makes (it opens local repositories only).
// The definitions below take the place of mbedTLS's loaders for libgit2; they load nothing and
// report success, so the trust store stays empty. Nothing else in the program calls them.
#if defined(GIT_VAULT_STATIC_LIBGIT2)
// Linked from the archives (CMakeLists.txt, GIT_VAULT_STATIC_DEPS), libgit2's calls are routed
// here by the linker's --wrap. libssh2_init is wrapped too: it would initialise OpenSSL for SSH
// transports that never run, and libgit2 only checks that it did not fail.
extern "C" {
int __wrap_mbedtls_x509_crt_parse_file(void* chain, const char* path) {
  (void)chain;
  (void)path;
  return 0;
}
int __wrap_mbedtls_x509_crt_parse_path(void* chain, const char* path) {
  (void)chain;
  (void)path;
  return 0;
}
int __wrap_libssh2_init(int flags) {
  (void)flags;
  return 0;
}
// libgit2's TLS set-up seeds a random generator from gathered entropy and builds a TLS
// configuration at every start, a third of the library's start-up. It is skipped, and a TLS
// stream, should one ever be asked for, fails with a message instead of using the missing
// configuration.
static int refuse_tls() {
  git_error_set_str(GIT_ERROR_SSL, "git-vault opens local repositories only: no TLS transport");
  return -1;
}
int __wrap_git_mbedtls_stream_global_init() { return 0; }
int __wrap_git_mbedtls_stream_new(void** out, const char* host, const char* port) {
  (void)host;
  (void)port;
  *out = nullptr;
  return refuse_tls();
}
int __wrap_git_mbedtls__set_cert_location(const char* file, const char* path) {
  (void)file;
  (void)path;
  return refuse_tls();
}
int __wrap_git_mbedtls_stream_wrap(void** out, void* in, const char* host) {
  (void)in;
  (void)host;
  *out = nullptr;
  return refuse_tls();
}
}
#else
// Linked against the shared libraries, the dynamic linker binds libgit2's calls to the
// executable's symbols first.
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
#endif

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
  // A landing makes its objects durable with one syncfs (core/git/transaction.cpp); where the
  // system has none, libgit2 fsyncs each object, and the ref and index it writes, itself.
  if (!util::k_has_syncfs) {
    (void)git_libgit2_opts(GIT_OPT_ENABLE_FSYNC_GITDIR, 1);
  }
}
Library::~Library() { git_libgit2_shutdown(); }

}  // namespace gv::git
