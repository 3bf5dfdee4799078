#include "core/gate/gate.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <iterator>

#include "core/gate/baseline.hpp"
#include "core/gate/delta_gate.hpp"
#include "core/gate/input.hpp"
#include "core/gate/vault_checks.hpp"
#include "core/git/index_file.hpp"
#include "core/git/index_tree.hpp"
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

// Every vault check's findings: a pure function of the listed paths and blob ids (and the check
// set), which is what lets the cache remember them per vault state.
std::vector<Finding> vault_findings(std::span<const GateCheck> checks, GateInput& input) {
  std::vector<Finding> findings;
  for (const GateCheck& check : checks) {
    if (check.scope == GateScope::vault) {
      append(findings, check.run(input));
    }
  }
  return findings;
}

}  // namespace

std::span<const GateCheck> gate_checks(const GateOptions& options) {
  return options.checks.empty() ? builtin_gate_checks() : options.checks;
}

namespace {

// The vault checks' findings from the baseline of a staged index (core/gate/baseline.hpp):
// the state it holds, or the entries that changed since; else the whole vault, and the result
// becomes the next baseline. nullopt when the snapshot is not an index read directly, or the
// gate runs its own check table.
std::optional<std::vector<Finding>> vault_findings_from_baseline(std::span<const GateCheck> checks,
                                                                 GateInput& input,
                                                                 const GateOptions& options) {
  if (!options.baseline_file || !options.checks.empty()) {
    return std::nullopt;
  }
  const std::shared_ptr<const git::IndexFile> index = input.snapshot().index_file();
  if (!index) {
    return std::nullopt;
  }
  const std::vector<const git::IndexFile::Entry*> entries = committed_vault_entries(*index);
  const bool any_vault = std::any_of(entries.begin(), entries.end(), [](const auto* entry) {
    const std::string_view path = entry->path();
    return is_memory_path(path) || path == k_index_json_path || path == k_index_md_path ||
           path == k_memories_readme_path;
  });
  if (!any_vault) {
    return std::vector<Finding>{};
  }
  const std::uint64_t key = check_set_key(checks);
  const std::string state = fmt::format("{}-{:016x}", index_state_digest(entries), key);
  std::optional<GateBaseline> baseline = GateBaseline::load(*options.baseline_file, key);
  GateRunInfo ignored;
  GateRunInfo& info = options.info != nullptr ? *options.info : ignored;
  if (baseline && baseline->state() == state) {
    info.answered = VaultAnswer::baseline;
    if (!baseline->memory_tree().empty()) {
      info.baseline_tree = baseline->memory_tree();
    }
    return baseline->findings();
  }
  std::optional<VaultCheckResult> result;
  if (baseline) {
    result = delta_vault_check(*baseline, entries, input.snapshot(), options.generated);
    if (result) {
      info.answered = VaultAnswer::delta;
      if (!baseline->memory_tree().empty()) {
        info.baseline_tree = baseline->memory_tree();
      }
      info.changed_since_baseline = result->changed;
    }
  }
  if (!result) {
    result = full_check_result(input, vault_findings(checks, input));
    info.answered = VaultAnswer::full;
  }
  // The whole `.memory/` range, stages and all, as the index holds it (not for version 4,
  // whose entries depend on the ones before them).
  const std::span<const git::IndexFile::Entry> range = index->with_prefix(vault_path::k_root);
  if (const std::optional<std::string_view> bytes = index->entry_bytes(range)) {
    GateBaseline::Contents contents;
    contents.check_set_key = key;
    contents.state = state;
    contents.index_version = index->version();
    contents.entry_count = static_cast<std::uint32_t>(range.size());
    contents.entry_bytes = *bytes;
    contents.not_active = std::move(result->not_active);
    contents.dangling = std::move(result->dangling);
    contents.findings = result->findings;
    // Only warnings are filtered by which files a commit changes (core/hooks/commit_gate.cpp).
    if (std::any_of(contents.findings.begin(), contents.findings.end(),
                    [](const Finding& finding) { return finding.severity == Severity::warning; })) {
      contents.memory_tree = git::index_tree_id(range, ".memory").value_or("");
    }
    (void)GateBaseline::save(*options.baseline_file, contents);
  }
  return std::move(result->findings);
}

}  // namespace

std::vector<Finding> run_gate(const Snapshot& snapshot, const GateOptions& options) {
  if (options.skip_all) {
    return {};
  }
  const std::span<const GateCheck> checks = gate_checks(options);
  GateInput input(snapshot, options.cache, options.generated, options.load_cache);

  // Working memory lives outside `.memory/`, so these run every time; a skipped one not at all.
  std::vector<Finding> findings;
  for (const GateCheck& check : checks) {
    if (check.scope == GateScope::working_memory &&
        !options.skip.contains(std::string(check.name))) {
      append(findings, check.run(input));
    }
  }

  // Skipped vault checks still run: what is remembered for a state must be every finding.
  if (std::optional<std::vector<Finding>> from_baseline =
          vault_findings_from_baseline(checks, input, options)) {
    append(findings, std::move(*from_baseline));
  } else if (has_vault(input.vault_entries())) {
    const std::string state =
        fmt::format("{}-{:016x}", vault_state_digest(input.vault_entries()), check_set_key(checks));
    PersistentParseCache* cache = options.cache != nullptr ? options.cache
                                  : options.load_cache     ? options.load_cache()
                                                           : nullptr;
    const std::vector<Finding>* remembered = cache != nullptr ? cache->find_state(state) : nullptr;
    if (remembered != nullptr) {
      if (options.info != nullptr) {
        options.info->answered = VaultAnswer::remembered;
      }
      findings.insert(findings.end(), remembered->begin(), remembered->end());
    } else {
      if (options.info != nullptr) {
        options.info->answered = VaultAnswer::full;
      }
      std::vector<Finding> computed = vault_findings(checks, input);
      if (cache != nullptr) {
        cache->store_state(state, computed);
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
