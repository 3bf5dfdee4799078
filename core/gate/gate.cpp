#include "core/gate/gate.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <iterator>

#include "core/gate/input.hpp"
#include "core/gate/staged_gate.hpp"
#include "core/gate/vault_checks.hpp"
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

}  // namespace

std::vector<Finding> run_checks(std::span<const GateCheck> checks, GateScope scope,
                                GateInput& input, const std::set<std::string>& skip) {
  std::vector<Finding> findings;
  input.set_scope(scope);
  for (const GateCheck& check : checks) {
    if ((check.scope == scope || check.scope == GateScope::both) &&
        !skip.contains(std::string(check.name))) {
      append(findings, check.run(input));
    }
  }
  return findings;
}

std::span<const GateCheck> checks_to_run(const GateOptions& options) {
  return options.checks.empty() ? builtin_gate_checks() : options.checks;
}

std::vector<Finding> run_gate(const Snapshot& snapshot, const GateOptions& options) {
  if (options.skip_all) {
    return {};
  }
  const std::span<const GateCheck> checks = checks_to_run(options);
  GateInput input(snapshot, options.cache, options.generated, options.load_cache);

  std::vector<Finding> findings;
  if (std::optional<std::vector<Finding>> staged = run_staged_gate(checks, input, options)) {
    findings = std::move(*staged);
  } else {
    // Working memory lives outside `.memory/`, so these run every time; a skipped one not at
    // all.
    findings = run_checks(checks, GateScope::working_memory, input, options.skip);
    if (has_vault(input.vault_entries())) {
      // Skipped vault checks still run: what is remembered for a state must be every finding.
      const std::string state = fmt::format("{}-{:016x}", vault_state_digest(input.vault_entries()),
                                            check_set_key(checks));
      PersistentParseCache* cache = options.cache != nullptr ? options.cache
                                    : options.load_cache     ? options.load_cache()
                                                             : nullptr;
      const std::vector<Finding>* remembered =
          cache != nullptr ? cache->find_state(state) : nullptr;
      if (options.info != nullptr) {
        options.info->answered =
            remembered != nullptr ? VaultAnswer::remembered : VaultAnswer::full;
      }
      if (remembered != nullptr) {
        findings.insert(findings.end(), remembered->begin(), remembered->end());
      } else {
        std::vector<Finding> computed = run_checks(checks, GateScope::vault, input, {});
        if (cache != nullptr) {
          cache->store_state(state, computed);
        }
        append(findings, std::move(computed));
      }
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
