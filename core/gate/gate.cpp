#include "core/gate/gate.hpp"

#include <algorithm>
#include <iterator>

#include "core/gate/vault_checks.hpp"
#include "core/gate/vault_rows.hpp"
#include "core/recall/gate.hpp"
#include "core/recall/scan.hpp"
#include "core/snapshot/snapshot.hpp"
#include "core/vault/index_files.hpp"
#include "core/vault/parse_cache_file.hpp"
#include "core/vault/vault.hpp"

namespace gv {
namespace {

void append(std::vector<Finding>& out, std::vector<Finding> more) {
  out.insert(out.end(), std::make_move_iterator(more.begin()), std::make_move_iterator(more.end()));
}

bool has_vault(const std::vector<SnapshotEntry>& vault_entries) {
  return std::any_of(vault_entries.begin(), vault_entries.end(), [](const SnapshotEntry& entry) {
    return is_memory_path(entry.path) || entry.path == k_index_json_path ||
           entry.path == k_index_md_path || entry.path == k_memories_readme_path;
  });
}

void default_schema_fix(std::vector<Finding>& findings) {
  for (Finding& finding : findings) {
    if (finding.check == "schema" && finding.fix.empty()) {
      finding.fix = "edit the frontmatter by hand";
    }
  }
}

// Everything under `.memory/`: a pure function of the listed paths and blob ids, which is what
// lets the cache remember it per vault state. With a cache, the memories are read as rows
// (core/gate/vault_rows.hpp) and only a stale index costs a full load, to explain itself.
std::vector<Finding> vault_findings(const Snapshot& snapshot,
                                    const std::vector<SnapshotEntry>& vault_entries,
                                    PersistentParseCache* cache) {
  if (cache == nullptr) {
    Vault vault = load_vault(snapshot);
    std::vector<Finding> findings = std::move(vault.findings);
    default_schema_fix(findings);
    const std::vector<IndexRow> rows = index_rows(vault.memories);
    append(findings, case_collision_findings(vault_entries));
    append(findings,
           stale_index_findings(snapshot, rows, nullptr, vault_entries, [&](std::string_view date) {
             return render_index_json(vault.memories, date);
           }));
    append(findings, dangling_link_findings(snapshot, rows, vault_entries));
    return findings;
  }
  VaultRows vault = vault_rows(snapshot, vault_entries, *cache);
  std::vector<Finding> findings = std::move(vault.findings);
  default_schema_fix(findings);
  const bool texts_complete = std::none_of(vault.entry_texts.begin(), vault.entry_texts.end(),
                                           [](std::string_view text) { return text.empty(); });
  append(findings, case_collision_findings(vault_entries));
  append(findings, stale_index_findings(
                       snapshot, vault.rows, texts_complete ? &vault.entry_texts : nullptr,
                       vault_entries, [&](std::string_view date) {
                         return render_index_json(load_vault(snapshot, cache).memories, date);
                       }));
  append(findings, dangling_link_findings(snapshot, vault.rows, vault_entries));
  return findings;
}

}  // namespace

std::vector<Finding> run_gate(const Snapshot& snapshot, const GateOptions& options) {
  std::vector<Finding> findings = recall::id_findings(recall::scan_managed_files(snapshot));

  const std::vector<SnapshotEntry> vault_entries = snapshot.list(vault_path::k_root);
  if (has_vault(vault_entries)) {
    const std::string digest = vault_state_digest(vault_entries);
    const std::vector<Finding>* remembered =
        options.cache != nullptr ? options.cache->find_state(digest) : nullptr;
    if (remembered != nullptr) {
      findings.insert(findings.end(), remembered->begin(), remembered->end());
    } else {
      std::vector<Finding> computed = vault_findings(snapshot, vault_entries, options.cache);
      if (options.cache != nullptr) {
        options.cache->store_state(digest, computed);
      }
      append(findings, std::move(computed));
    }
  }

  std::erase_if(findings,
                [&](const Finding& finding) { return options.skip.contains(finding.check); });
  std::stable_sort(findings.begin(), findings.end(), [](const Finding& a, const Finding& b) {
    if (a.path != b.path) {
      return a.path < b.path;
    }
    if (a.line != b.line) {
      return a.line < b.line;  // a finding without a line (the whole file) comes first
    }
    return a.check < b.check;
  });
  return findings;
}

bool blocks(const std::vector<Finding>& findings) {
  return std::any_of(findings.begin(), findings.end(),
                     [](const Finding& finding) { return finding.severity == Severity::error; });
}

}  // namespace gv
