#include "core/gate/input.hpp"
#include "core/gate/vault_checks.hpp"

namespace gv::gate_checks {

// Wiki links in active memories that name no memory or a tombstoned one (warnings).
std::vector<Finding> dangling_link(GateInput& input) {
  const GateVault& vault = input.vault();
  return dangling_link_findings(input.snapshot(), vault.rows, input.vault_entries());
}

}  // namespace gv::gate_checks
