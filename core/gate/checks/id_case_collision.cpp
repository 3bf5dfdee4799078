#include "core/gate/input.hpp"
#include "core/gate/vault_checks.hpp"

namespace gv::gate_checks {

// Memory ids that differ only in ASCII case; decided from the listing alone, nothing is read.
std::vector<Finding> id_case_collision(GateInput& input) {
  return case_collision_findings(input.vault_entries());
}

}  // namespace gv::gate_checks
