#include <algorithm>

#include "core/gate/input.hpp"
#include "core/gate/vault_checks.hpp"

namespace gv::gate_checks {

// Validate-on-read of the three generated index files against the memories.
std::vector<Finding> stale_index(GateInput& input) {
  if (input.generated_files_recorded()) {
    return {};  // exactly what a recorded regeneration of these memories wrote
  }
  const GateVault& vault = input.vault();
  std::vector<Finding> findings =
      stale_index_findings(input.snapshot(), vault.rows, vault.entry_texts, input.vault_entries(),
                           vault.render_index_json);
  // `git vault index` refuses while a memory file cannot be read, so the regeneration the fix
  // names has to wait for the schema errors to be fixed.
  const bool broken_memory =
      std::any_of(vault.parse_findings.begin(), vault.parse_findings.end(),
                  [](const Finding& finding) { return finding.severity == Severity::error; });
  if (broken_memory) {
    for (Finding& finding : findings) {
      finding.fix = "fix the memory files the schema errors name first, then: " + finding.fix;
    }
  }
  return findings;
}

}  // namespace gv::gate_checks
