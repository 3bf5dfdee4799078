#pragma once

#include <set>
#include <span>
#include <string>
#include <vector>

#include "core/finding.hpp"
#include "core/gate/registry.hpp"

namespace gv {

class Snapshot;
class PersistentParseCache;

// What `git vault check` and the pre-commit hook run over one Snapshot.
struct GateOptions {
  // Check names to skip (GIT_VAULT_SKIP=stale-index,missing-id; core/hooks/skip.hpp).
  std::set<std::string> skip;
  // GIT_VAULT_SKIP=all: no check runs and nothing is read.
  bool skip_all = false;
  // Parsed memories by blob id and findings by vault state, kept between runs (see
  // core/gate/cached_gate.hpp). Null: everything is parsed.
  PersistentParseCache* cache = nullptr;
  // The checks to run; empty: builtin_gate_checks().
  std::span<const GateCheck> checks;
};

// The checks `options` runs: its own table, or the built-in one.
[[nodiscard]] std::span<const GateCheck> gate_checks(const GateOptions& options);

// Every check of the table (core/gate/registry.cpp) over one state of the repository:
// validate-on-read of the generated index files, the frontmatter schema of every memory,
// working-memory ids (missing, duplicate, malformed), memory ids that differ only in case, and
// the warnings that never block (dangling wiki links). Findings are sorted by path, then line,
// then check. The vault checks' findings are remembered in `options.cache` per vault state and
// check set, so a state seen before is answered without reading a memory file.
//
// A repository without a vault (no memory file and no generated index file under `.memory/`)
// and without working-memory files has nothing to check and passes.
[[nodiscard]] std::vector<Finding> run_gate(const Snapshot& snapshot, const GateOptions& options);

// True when any finding is an error (the commit is blocked).
[[nodiscard]] bool blocks(const std::vector<Finding>& findings);

}  // namespace gv
