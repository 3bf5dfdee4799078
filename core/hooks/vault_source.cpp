#include "core/hooks/vault_source.hpp"

// TEMPORARY: the memory model (core/vault/vault.hpp, core/dates.cpp) is built on its own
// branch. Until it is part of this tree the post-merge reindex is unavailable; once it is, only
// the first branch of this #if remains.
#if __has_include("core/vault/vault.hpp")
#include "core/vault/vault.hpp"
#define GV_HAVE_VAULT_MODEL 1
#else
#define GV_HAVE_VAULT_MODEL 0
#endif

namespace gv::hooks {

std::optional<VaultSource> load_vault_source(const Snapshot& snapshot) {
#if GV_HAVE_VAULT_MODEL
  const Clock clock = resolve_clock(std::nullopt, std::nullopt);
  return VaultSource{load_vault(snapshot).memories, clock.today};
#else
  (void)snapshot;
  return std::nullopt;
#endif
}

}  // namespace gv::hooks
