#pragma once

#include <filesystem>
#include <functional>
#include <optional>
#include <set>
#include <span>
#include <string>
#include <vector>

#include "core/finding.hpp"
#include "core/gate/registry.hpp"

namespace gv {

class Snapshot;
class PersistentParseCache;
class GeneratedRecords;

// How run_gate came by the vault checks' findings: the state its baseline holds, the changes
// since that baseline, every memory checked, a state remembered in the parse cache, or none (no
// vault, or every check skipped).
enum class VaultAnswer { none, baseline, delta, full, remembered };

// What a run of the gate can tell its caller beyond the findings.
struct GateRunInfo {
  VaultAnswer answered = VaultAnswer::none;
  // When the answer came from a baseline: the id of the `.memory` tree of the baseline's state
  // (absent when that state had no warnings to filter, or it could not be computed), and the
  // `.memory/` paths that changed since it. The pre-commit hook compares the id with HEAD's to
  // tell which files a commit changes without reading HEAD's trees.
  std::optional<std::string> baseline_tree;
  std::vector<std::string> changed_since_baseline;
};

// What `git vault check` and the pre-commit hook run over one Snapshot.
struct GateOptions {
  // Check names to skip (GIT_VAULT_SKIP=stale-index,missing-id; core/hooks/skip.hpp).
  std::set<std::string> skip;
  // GIT_VAULT_SKIP=all: no check runs and nothing is read.
  bool skip_all = false;
  // Parsed memories by blob id and findings by vault state, kept between runs (see
  // core/gate/cached_gate.hpp). Null: everything is parsed.
  PersistentParseCache* cache = nullptr;
  // The regenerations git-vault recorded (core/vault/generated_records.hpp): generated files a
  // record covers are current without rendering them. Null: they are always rendered.
  const GeneratedRecords* generated = nullptr;
  // Without `cache`: called the first time parsed memories or remembered findings are needed,
  // so a run answered from the baseline never loads the parse cache.
  std::function<PersistentParseCache*()> load_cache;
  // The checks to run; empty: builtin_gate_checks().
  std::span<const GateCheck> checks;
  // Where the gate keeps the last state it checked from a staged index (core/gate/baseline.hpp):
  // with it, a snapshot of the git index is checked from the entries that changed since.
  std::optional<std::filesystem::path> baseline_file;
  // Filled in, when not null.
  GateRunInfo* info = nullptr;
};

// The checks `options` runs: its own table, or the built-in one.
[[nodiscard]] std::span<const GateCheck> checks_to_run(const GateOptions& options);

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

// The findings of the checks of `scope` that `skip` does not name, in table order.
class GateInput;
[[nodiscard]] std::vector<Finding> run_checks(std::span<const GateCheck> checks, GateScope scope,
                                              GateInput& input, const std::set<std::string>& skip);

// True when any finding is an error (the commit is blocked).
[[nodiscard]] bool blocks(const std::vector<Finding>& findings);

}  // namespace gv
