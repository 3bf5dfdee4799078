#include <git2.h>

#include <catch2/catch.hpp>
#include <string>

#include "core/git/library.hpp"

namespace git_library_test {

TEST_CASE("libgit2's TLS set-up is skipped, and CA locations are refused with a message", "[git]") {
  // git-vault opens local repositories only. At start-up libgit2 would parse the system's CA
  // bundle and seed a random generator; with the static link's --wrap (core/git/library.cpp)
  // none of that runs, and a later request for CA locations fails instead of reaching a TLS
  // configuration that was never made. Linked against the shared libraries, only the CA
  // loaders are replaced, and the request succeeds while loading nothing.
  const gv::git::Library library;
  const int result =
      git_libgit2_opts(GIT_OPT_SET_SSL_CERT_LOCATIONS, "/nonexistent/ca-certificates.crt", nullptr);
#if defined(GIT_VAULT_STATIC_LIBGIT2)
  CHECK(result < 0);
  const git_error* error = git_error_last();
  REQUIRE(error != nullptr);
  CHECK(std::string(error->message).find("no TLS transport") != std::string::npos);
#else
  CHECK(result == 0);
#endif
}

}  // namespace git_library_test
