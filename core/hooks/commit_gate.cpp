#include "core/hooks/commit_gate.hpp"

#include <optional>
#include <string>

#include "core/gate/cached_gate.hpp"
#include "core/gate/gate.hpp"
#include "core/git/repo.hpp"
#include "core/snapshot/index_snapshot.hpp"

namespace gv::hooks {

CommitGate run_commit_gate(const git::Repo& repo) {
  CommitGate gate;
  gate.skip = skip_from_environment(&repo);
  if (gate.skip.all) {
    return gate;
  }
  // The cached gate re-parses only memory files whose blob changed since a state it has seen,
  // so the hook costs what the commit changes, not what the vault holds.
  const IndexSnapshot snapshot(repo);
  gate.findings = run_cached_gate(snapshot, gate_cache_file(repo), gate.skip.gate_options());
  // Looked up per warning, so the cost follows the warnings, not the vault.
  if (const std::optional<std::string> head = repo.head_tree()) {
    std::erase_if(gate.findings, [&](const Finding& finding) {
      return finding.severity == Severity::warning &&
             repo.index_blob_id(finding.path) == repo.tree_blob_id(*head, finding.path);
    });
  }
  return gate;
}

}  // namespace gv::hooks
