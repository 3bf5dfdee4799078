#include "core/gate/input.hpp"

namespace gv::gate_checks {

// A working-memory entry whose id is not a valid `^tr` id; init-ids never rewrites it (D11). The
// working-memory scan is shared by the id checks (core/recall/gate.hpp).
std::vector<Finding> malformed_id(GateInput& input) {
  return input.working_memory_findings("malformed-id");
}

}  // namespace gv::gate_checks
