#pragma once

#include <optional>
#include <vector>

#include "core/dates.hpp"
#include "core/memory/memory.hpp"

namespace gv {
class Snapshot;
}

namespace gv::hooks {

// What the post-merge hook needs from the memory model: the memories of a snapshot
// (load_vault, core/vault/vault.hpp) and today's date (resolve_clock, so GIT_VAULT_TODAY
// applies). nullopt when this build does not contain the memory model, in which case the hook
// only says how to regenerate by hand.
struct VaultSource {
  std::vector<Memory> memories;
  Date today;
};
[[nodiscard]] std::optional<VaultSource> load_vault_source(const Snapshot& snapshot);

}  // namespace gv::hooks
