// Built only when linking the archives (CMakeLists.txt, GIT_VAULT_STATIC_DEPS): libgit2 needs
// GSS-API for the "Negotiate" (Kerberos) authentication of its HTTP transport. Debian ships no
// static Kerberos library, and loading the shared ones would bring back six of the libraries whose
// start-up cost the static link removes. git-vault opens local repositories only, so that
// transport never runs; should it ever be reached, every call fails the way GSS-API reports an
// unavailable mechanism, and authentication fails instead of proceeding.
#include <cstdint>

namespace {
using OmUint32 = std::uint32_t;
constexpr OmUint32 k_gss_s_failure = 13U << 16U;  // GSS_S_FAILURE: a routine error, code 13

OmUint32 fail(OmUint32* minor) {
  if (minor != nullptr) {
    *minor = 0;
  }
  return k_gss_s_failure;
}
}  // namespace

extern "C" {
// gss_OID_desc*: the name type libgit2 passes to gss_import_name, never dereferenced here.
void* GSS_C_NT_HOSTBASED_SERVICE = nullptr;

OmUint32 gss_import_name(OmUint32* minor, void*, void*, void*) { return fail(minor); }
OmUint32 gss_init_sec_context(OmUint32* minor, void*, void*, void*, void*, OmUint32, OmUint32,
                              void*, void*, void*, void*, OmUint32*, OmUint32*) {
  return fail(minor);
}
OmUint32 gss_indicate_mechs(OmUint32* minor, void*) { return fail(minor); }
OmUint32 gss_display_status(OmUint32* minor, OmUint32, int, void*, OmUint32*, void*) {
  return fail(minor);
}
// Releasing nothing succeeds, so libgit2's clean-up paths stay quiet.
OmUint32 gss_delete_sec_context(OmUint32* minor, void*, void*) {
  fail(minor);
  return 0;
}
OmUint32 gss_release_buffer(OmUint32* minor, void*) {
  fail(minor);
  return 0;
}
OmUint32 gss_release_name(OmUint32* minor, void*) {
  fail(minor);
  return 0;
}
OmUint32 gss_release_oid_set(OmUint32* minor, void*) {
  fail(minor);
  return 0;
}
}
