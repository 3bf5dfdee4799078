#include <dlfcn.h>

#include <catch2/catch.hpp>

#include "core/git/library.hpp"

extern "C" int mbedtls_x509_crt_parse_file(void* chain, const char* path);

TEST_CASE("libgit2's CA bundle loader is ours, and loads nothing", "[git]") {
  // The dynamic linker binds libgit2's call to the first definition in load order: the
  // program's own. Were it mbedTLS's, every start-up would parse the system's certificates.
  const gv::git::Library library;
  void* bound = dlsym(RTLD_DEFAULT, "mbedtls_x509_crt_parse_file");
  REQUIRE(bound != nullptr);
  CHECK(reinterpret_cast<decltype(&mbedtls_x509_crt_parse_file)>(bound) ==
        &mbedtls_x509_crt_parse_file);
  // mbedTLS fails on a missing file; ours reads nothing and succeeds.
  CHECK(mbedtls_x509_crt_parse_file(nullptr, "/nonexistent/ca-certificates.crt") == 0);
}
