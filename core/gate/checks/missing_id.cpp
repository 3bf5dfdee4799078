#include "core/gate/input.hpp"

namespace gv::gate_checks {

// A working-memory entry without an id. The working-memory scan is shared by the id checks
// (core/recall/gate.hpp).
std::vector<Finding> missing_id(GateInput& input) {
  return input.working_memory_findings("missing-id");
}

}  // namespace gv::gate_checks
