#include "core/gate/input.hpp"

namespace gv::gate_checks {

// A caret id where the entry parser does not read one (a warning). The working-memory scan is
// shared by the id checks (core/recall/gate.hpp).
std::vector<Finding> ignored_id(GateInput& input) {
  return input.working_memory_findings("ignored-id");
}

}  // namespace gv::gate_checks
