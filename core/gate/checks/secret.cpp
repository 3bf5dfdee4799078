#include "core/gate/input.hpp"
#include "core/gate/secret_findings.hpp"

namespace gv::gate_checks {

// Lines that look like a credential (doc/secrets.md; D24), in memory files and in the
// working-memory files: whatever wrote them (an agent's file tools, a person, a merge), they
// never reach history. The memory files' lines come from their parses; the working-memory
// files are read when they change.
std::vector<Finding> secret(GateInput& input) {
  if (input.scope() == GateScope::vault) {
    return input.vault().secret_findings;
  }
  return working_memory_secret_findings(input.snapshot());
}

}  // namespace gv::gate_checks
