#pragma once

#include <optional>
#include <span>
#include <vector>

#include "core/finding.hpp"
#include "core/gate/gate.hpp"

namespace gv {

class GateInput;

// The gate over a staged index read directly (Snapshot::index_file), from the baseline its last
// run left (core/gate/baseline.hpp): the working-memory checks are taken from it while those
// files are unchanged, the vault checks from it and the entries that changed since
// (core/gate/delta_gate.hpp), else computed in full; the result is the next baseline. Returns
// every finding (skipped checks' included; run_gate drops them), unsorted, or nullopt when the
// snapshot is not such an index, no baseline file is given, or the gate runs its own table.
[[nodiscard]] std::optional<std::vector<Finding>> run_staged_gate(std::span<const GateCheck> checks,
                                                                  GateInput& input,
                                                                  const GateOptions& options);

}  // namespace gv
