#pragma once

#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/finding.hpp"
#include "core/gate/baseline.hpp"
#include "core/gate/registry.hpp"
#include "core/gate/vault_rows.hpp"
#include "core/snapshot/snapshot.hpp"
#include "core/vault/index_row.hpp"
#include "core/vault/vault.hpp"

namespace gv {

class PersistentParseCache;
class GeneratedRecords;

// The memories of a vault state as the vault checks read them.
struct GateVault {
  std::vector<IndexRow> rows;  // sorted by id, tombstoned included
  // rows[i]'s rendered memory-index.json entry, when every row has one (from the parse cache);
  // null otherwise. See stale_index_findings.
  const std::vector<std::string_view>* entry_texts = nullptr;
  // What parsing the memory files reported (`schema`), in path order.
  std::vector<Finding> parse_findings;
  // The lines of memory files that look like secrets (`secret`), in path order.
  std::vector<Finding> secret_findings;
  // memory-index.json rendered the slow way, for the given `generated_at`.
  std::function<std::string(std::string_view generated_at)> render_index_json;
};

// One snapshot as the gate's checks read it. What several checks need (the working-memory scan,
// the parsed memories) is computed on first use and shared, so a check costs only what it reads
// itself and skipping a check never makes another one parse more.
class GateInput {
 public:
  // `cache` may be null (everything is parsed), and `generated` (generated files are always
  // rendered); both must outlive the input. Without a cache, `load_cache`, when given, is
  // called the first time memories are read: a run answered otherwise never loads it.
  GateInput(const Snapshot& snapshot, PersistentParseCache* cache,
            const GeneratedRecords* generated = nullptr,
            std::function<PersistentParseCache*()> load_cache = {});
  GateInput(const GateInput&) = delete;
  GateInput& operator=(const GateInput&) = delete;

  [[nodiscard]] const Snapshot& snapshot() const { return m_snapshot; }
  // The pass being run (working_memory or vault), for a check that runs in both.
  [[nodiscard]] GateScope scope() const { return m_scope; }
  void set_scope(GateScope scope) { m_scope = scope; }
  // The snapshot's listing of `.memory/`, made on first use.
  [[nodiscard]] const std::vector<SnapshotEntry>& vault_entries() const;
  // Whether a recorded regeneration produced exactly the listed generated files from exactly
  // the listed memories (core/vault/generated_records.hpp).
  [[nodiscard]] bool generated_files_recorded() const;

  // The working-memory id findings of every managed file (core/recall/gate.hpp): one scan,
  // shared by the id checks, each taking the findings with its own name.
  [[nodiscard]] std::vector<Finding> working_memory_findings(std::string_view check);

  // The memories under `.memory/`, read through the cache when there is one.
  [[nodiscard]] const GateVault& vault();

  // The dangling-link check leaves the source and target stem of each of its findings here,
  // in their order, for the gate's baseline (core/gate/baseline.hpp).
  void set_dangling_targets(std::vector<GateBaseline::DanglingTarget> targets) {
    m_dangling_targets = std::move(targets);
  }
  [[nodiscard]] const std::vector<GateBaseline::DanglingTarget>& dangling_targets() const {
    return m_dangling_targets;
  }

 private:
  const Snapshot& m_snapshot;
  GateScope m_scope = GateScope::vault;
  PersistentParseCache* m_cache;
  const GeneratedRecords* m_generated;
  std::function<PersistentParseCache*()> m_load_cache;
  mutable std::optional<std::vector<SnapshotEntry>> m_vault_entries;
  std::vector<GateBaseline::DanglingTarget> m_dangling_targets;
  std::optional<std::vector<Finding>> m_working_memory;
  std::optional<Vault> m_loaded;
  std::optional<VaultRows> m_rows;
  std::optional<GateVault> m_vault;
};

}  // namespace gv
