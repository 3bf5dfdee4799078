#include "core/gate/input.hpp"
#include "core/gate/vault_checks.hpp"

namespace gv::gate_checks {

// Validate-on-read of the three generated index files against the memories.
std::vector<Finding> stale_index(GateInput& input) {
  if (input.generated_files_recorded()) {
    return {};  // exactly what a recorded regeneration of these memories wrote
  }
  const GateVault& vault = input.vault();
  return stale_index_findings(input.snapshot(), vault.rows, vault.entry_texts,
                              input.vault_entries(), vault.render_index_json);
}

}  // namespace gv::gate_checks
