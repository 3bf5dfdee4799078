#pragma once

#include <optional>
#include <string>
#include <vector>

#include "core/finding.hpp"
#include "core/gate/baseline.hpp"

namespace gv {

class Snapshot;
class GeneratedRecords;
class GateInput;

namespace git {
class IndexFile;
}

// The `.memory/` entries of an index a commit records (stage 0, regular files), in path order.
[[nodiscard]] std::vector<const git::IndexFile::Entry*> committed_vault_entries(
    const git::IndexFile& index);

// The entry at exactly `path` among such entries (they are in path order), or nullptr.
[[nodiscard]] const git::IndexFile::Entry* find_vault_entry(
    const std::vector<const git::IndexFile::Entry*>& entries, std::string_view path);

// Two digests of such entries: VaultStateDigest (core/gate/vault_checks.hpp), which tells the
// state, and GeneratedInputsDigest (core/vault/generated_records.hpp), which names the memories
// a regeneration of the index files read.
struct IndexDigests {
  std::string state;
  std::string generated_inputs;
};
[[nodiscard]] IndexDigests index_digests(const std::vector<const git::IndexFile::Entry*>& entries);
// The same digests of the staged entries, from the baseline's and what differs from it
// (GateBaseline::differences): the cost follows the change, not the vault. nullopt when the
// baseline holds no digests to start from.
[[nodiscard]] std::optional<IndexDigests> digests_after(
    const GateBaseline& baseline, const std::vector<GateBaseline::Difference>& changes);

// Every vault check's findings for a state, with what the next baseline keeps beside them.
struct VaultCheckResult {
  std::vector<Finding> findings;
  std::vector<GateBaseline::Status> not_active;  // sorted by path
  std::vector<GateBaseline::DanglingTarget> dangling;
  std::vector<std::string> changed;  // delta_vault_check: the paths that differ from the baseline
};

// The vault checks of the builtin table over the staged `entries`, from `baseline` (the last
// state checked) and the entries that changed since: changed memory files are read and parsed,
// their links resolved, ids compared for case, and everything else is the baseline's. Gives the
// same findings as checking the whole vault, and nullopt for a change it cannot follow that
// way, which the caller then checks in full: generated files no recorded regeneration covers,
// a memory that was a link target deleted, tombstoned or made unreadable, a note under
// `.memory/` removed, a new file whose name dangling links already named.
[[nodiscard]] std::optional<VaultCheckResult> delta_vault_check(
    const GateBaseline& baseline, const std::vector<const git::IndexFile::Entry*>& entries,
    std::uint32_t index_version, std::string_view generated_inputs, const Snapshot& snapshot,
    const GeneratedRecords* generated);

// What a whole-vault check left in `input` (its rows and the targets of its dangling links),
// for the baseline saved after it.
[[nodiscard]] VaultCheckResult full_check_result(GateInput& input, std::vector<Finding> findings);

}  // namespace gv
