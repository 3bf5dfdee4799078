#include "core/gate/input.hpp"

namespace gv::gate_checks {

// One id on two working-memory entries: one error per occurrence after the first. The
// working-memory scan is shared by the id checks (core/recall/gate.hpp).
std::vector<Finding> duplicate_id(GateInput& input) {
  return input.working_memory_findings("duplicate-id");
}

}  // namespace gv::gate_checks
