#include "core/gate/input.hpp"
#include "core/gate/vault_checks.hpp"

namespace gv::gate_checks {

// What parsing each memory file reported: frontmatter that is not YAML, a missing or mistyped
// required field, a file under `.memory/` that is not read as a memory.
std::vector<Finding> schema(GateInput& input) {
  std::vector<Finding> findings = input.vault().parse_findings;
  for (Finding& finding : findings) {
    default_schema_fix(finding);
  }
  return findings;
}

}  // namespace gv::gate_checks
