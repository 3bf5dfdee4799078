#include <git2.h>

#include <catch2/catch.hpp>

#include "core/git/library.hpp"

TEST_CASE("libgit2's CA bundle loader is ours, and loads nothing", "[git]") {
  // libgit2 hands a CA file to mbedTLS's loader, which fails on a file that does not exist.
  // Ours takes its place (through the dynamic linker, or the static link's --wrap) and loads
  // nothing, so neither start-up nor this call parses certificates.
  const gv::git::Library library;
  CHECK(git_libgit2_opts(GIT_OPT_SET_SSL_CERT_LOCATIONS, "/nonexistent/ca-certificates.crt",
                         nullptr) == 0);
}
