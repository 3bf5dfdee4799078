#pragma once

#include <optional>
#include <vector>

#include "core/dates.hpp"
#include "core/finding.hpp"
#include "core/scoring/report.hpp"
#include "core/vault/index_reader.hpp"
#include "core/vault/vault.hpp"

namespace gv::distill {

// Everything a distill run knows about one state of the vault before it acts: the memories,
// the committed index (for the retrieval counts that real vaults keep only there, D4) and the
// scored report.
struct VaultState {
  Vault vault;
  std::optional<ExistingIndex> existing_index;
  std::vector<Finding> index_findings;  // the committed index could not be read
  scoring::RetrievalOverrides overrides;
  scoring::Report report;
};

// Reads and scores the vault of `snapshot` as of `today`, counting the retrievals `pending` in
// the journal on top of frontmatter and index (D16). Throws only on I/O failure.
[[nodiscard]] VaultState read_vault_state(const Snapshot& snapshot, Date today,
                                          ParseCache* cache = nullptr,
                                          const scoring::PendingRetrievalMap& pending = {});

}  // namespace gv::distill
