// TEMPORARY stand-in for the gate (core/gate/gate.hpp), which is implemented elsewhere; lets
// the hooks be built and tested on their own. Delete this file when the gate lands.
#include "core/gate/gate.hpp"

#include <algorithm>

namespace gv {

std::vector<Finding> run_gate(const Snapshot& snapshot, const GateOptions& options) {
  (void)snapshot;
  (void)options;
  return {};
}

bool blocks(const std::vector<Finding>& findings) {
  return std::any_of(findings.begin(), findings.end(),
                     [](const Finding& f) { return f.severity == Severity::error; });
}

}  // namespace gv
