#include "core/gate/input.hpp"

#include <algorithm>

#include "core/gate/secret_findings.hpp"
#include "core/memory/parse.hpp"
#include "core/recall/gate.hpp"
#include "core/recall/scan.hpp"
#include "core/vault/generated_records.hpp"
#include "core/vault/index_files.hpp"
#include "core/vault/parse_cache_file.hpp"

namespace gv {

GateInput::GateInput(const Snapshot& snapshot, PersistentParseCache* cache,
                     const GeneratedRecords* generated,
                     std::function<PersistentParseCache*()> load_cache)
    : m_snapshot(snapshot),
      m_cache(cache),
      m_generated(generated),
      m_load_cache(std::move(load_cache)) {}

const std::vector<SnapshotEntry>& GateInput::vault_entries() const {
  if (!m_vault_entries) {
    m_vault_entries = m_snapshot.list(vault_path::k_root);
  }
  return *m_vault_entries;
}

bool GateInput::generated_files_recorded() const {
  return m_generated != nullptr && m_generated->current(vault_entries());
}

std::vector<Finding> GateInput::working_memory_findings(std::string_view check) {
  if (!m_working_memory) {
    m_working_memory = recall::id_findings(recall::scan_managed_files(m_snapshot));
  }
  std::vector<Finding> out;
  std::copy_if(m_working_memory->begin(), m_working_memory->end(), std::back_inserter(out),
               [&](const Finding& finding) { return finding.check == check; });
  return out;
}

const GateVault& GateInput::vault() {
  if (m_vault) {
    return *m_vault;
  }
  GateVault& out = m_vault.emplace();
  if (m_cache == nullptr && m_load_cache) {
    m_cache = m_load_cache();
  }
  if (m_cache == nullptr) {
    Vault& loaded = m_loaded.emplace(load_vault(m_snapshot));
    out.rows = index_rows(loaded.memories);
    out.parse_findings = std::move(loaded.findings);
    // Read again for their secrets: this path keeps no parses (the gate's own runs have a cache).
    for (const SnapshotEntry& entry : vault_entries()) {
      if (!is_memory_path(entry.path)) {
        continue;
      }
      if (const std::optional<std::string> bytes = m_snapshot.read(entry.path)) {
        for (const secrets::SecretFinding& secret :
             parse_memory(entry.path, *bytes, entry.oid).secrets) {
          out.secret_findings.push_back(secret_finding(entry.path, secret.line, secret.kind));
        }
      }
    }
    out.render_index_json = [&loaded](std::string_view generated_at) {
      return render_index_json(loaded.memories, generated_at);
    };
    return out;
  }
  // The rows view the cache; rendering the slow way only finds what vault_rows stored, so it
  // never stores again while they are in use.
  VaultRows& rows = m_rows.emplace(vault_rows(m_snapshot, vault_entries(), *m_cache));
  out.rows = std::move(rows.rows);
  out.parse_findings = std::move(rows.findings);
  out.secret_findings = std::move(rows.secrets);
  const bool texts_complete = std::none_of(rows.entry_texts.begin(), rows.entry_texts.end(),
                                           [](std::string_view text) { return text.empty(); });
  out.entry_texts = texts_complete ? &rows.entry_texts : nullptr;
  out.render_index_json = [this](std::string_view generated_at) {
    return render_index_json(load_vault(m_snapshot, m_cache).memories, generated_at);
  };
  return out;
}

}  // namespace gv
