#include "core/gate/input.hpp"
#include "core/gate/vault_checks.hpp"

namespace gv::gate_checks {

// Wiki links in active memories that name no memory or a tombstoned one (warnings).
std::vector<Finding> dangling_link(GateInput& input) {
  const GateVault& vault = input.vault();
  std::vector<std::string> stems;
  std::vector<Finding> findings =
      dangling_link_findings(input.snapshot(), vault.rows, input.vault_entries(), &stems);
  std::vector<GateBaseline::DanglingTarget> targets;
  targets.reserve(findings.size());
  for (std::size_t i = 0; i < findings.size(); ++i) {
    targets.push_back({findings[i].path, std::move(stems[i])});
  }
  input.set_dangling_targets(std::move(targets));
  return findings;
}

}  // namespace gv::gate_checks
