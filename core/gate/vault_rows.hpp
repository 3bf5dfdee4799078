#pragma once

#include <string_view>
#include <vector>

#include "core/finding.hpp"
#include "core/snapshot/snapshot.hpp"
#include "core/vault/index_row.hpp"

namespace gv {

class PersistentParseCache;

// Every memory of a vault state as the gate's checks need it, read through the persisted parse
// cache: a memory whose (path, blob id) the cache knows costs a binary search and a few views
// into its bytes; only the others are read and parsed (and remembered, with their rendered
// memory-index.json entry). This is what makes a one-file commit cost about as much as listing
// the index, whatever the size of the vault.
struct VaultRows {
  std::vector<IndexRow> rows;  // sorted by id, tombstoned included; views into the cache
  // rows[i]'s memory-index.json entry text; empty when one could not be rendered (the caller
  // then renders the index the slow way).
  std::vector<std::string_view> entry_texts;
  std::vector<Finding> findings;  // per file, as load_vault reports them, in path order
  std::vector<Finding> secrets;   // `secret`: lines of memory files, in path order
};

// `vault_entries` is the snapshot's listing of `.memory/`. The result views `cache`, which must
// outlive it and must not store these entries again while it is in use.
[[nodiscard]] VaultRows vault_rows(const Snapshot& snapshot,
                                   const std::vector<SnapshotEntry>& vault_entries,
                                   PersistentParseCache& cache);

}  // namespace gv
