#pragma once

#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/finding.hpp"
#include "core/gate/vault_rows.hpp"
#include "core/snapshot/snapshot.hpp"
#include "core/vault/index_row.hpp"
#include "core/vault/vault.hpp"

namespace gv {

class PersistentParseCache;

// The memories of a vault state as the vault checks read them.
struct GateVault {
  std::vector<IndexRow> rows;  // sorted by id, tombstoned included
  // rows[i]'s rendered memory-index.json entry, when every row has one (from the parse cache);
  // null otherwise. See stale_index_findings.
  const std::vector<std::string_view>* entry_texts = nullptr;
  // What parsing the memory files reported (`schema`), in path order.
  std::vector<Finding> parse_findings;
  // memory-index.json rendered the slow way, for the given `generated_at`.
  std::function<std::string(std::string_view generated_at)> render_index_json;
};

// One snapshot as the gate's checks read it. What several checks need (the working-memory scan,
// the parsed memories) is computed on first use and shared, so a check costs only what it reads
// itself and skipping a check never makes another one parse more.
class GateInput {
 public:
  // `cache` may be null (everything is parsed); it must outlive the input.
  GateInput(const Snapshot& snapshot, PersistentParseCache* cache);
  GateInput(const GateInput&) = delete;
  GateInput& operator=(const GateInput&) = delete;

  [[nodiscard]] const Snapshot& snapshot() const { return m_snapshot; }
  // The snapshot's listing of `.memory/`.
  [[nodiscard]] const std::vector<SnapshotEntry>& vault_entries() const { return m_vault_entries; }

  // The working-memory id findings of every managed file (core/recall/gate.hpp): one scan,
  // shared by the id checks, each taking the findings with its own name.
  [[nodiscard]] std::vector<Finding> working_memory_findings(std::string_view check);

  // The memories under `.memory/`, read through the cache when there is one.
  [[nodiscard]] const GateVault& vault();

 private:
  const Snapshot& m_snapshot;
  PersistentParseCache* m_cache;
  std::vector<SnapshotEntry> m_vault_entries;
  std::optional<std::vector<Finding>> m_working_memory;
  std::optional<Vault> m_loaded;
  std::optional<VaultRows> m_rows;
  std::optional<GateVault> m_vault;
};

}  // namespace gv
