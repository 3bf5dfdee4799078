#include "core/gate/input.hpp"

namespace gv::gate_checks {

// What parsing each memory file reported: frontmatter that is not YAML, a missing or mistyped
// required field, a file under `.memory/` that is not read as a memory.
std::vector<Finding> schema(GateInput& input) {
  std::vector<Finding> findings = input.vault().parse_findings;
  for (Finding& finding : findings) {
    if (finding.fix.empty()) {
      finding.fix =
          "correct the frontmatter on that line (.memory/30-Templates/memory-template.md "
          "shows every field)";
    }
  }
  return findings;
}

}  // namespace gv::gate_checks
