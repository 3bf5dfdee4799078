#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/finding.hpp"

namespace gv {

class GateInput;

// What a gate check reads. Working-memory checks read files outside the memory set (working
// memory, its metadata, and the distill log) and run whenever one of those files changes; vault
// checks are a pure function of the memory files and the generated index files, so their
// findings are remembered per vault state (core/gate/cached_gate.hpp). A check of `both` runs
// in each pass and reads GateInput::scope() to know which one it is in.
enum class GateScope { working_memory, vault, both };

// One row of the gate's table (doc/architecture.md, "Where things go"). Adding a check is one
// function in its own file under core/gate/checks/ plus one row in the table in
// core/gate/registry.cpp; running it, skipping it by name (GIT_VAULT_SKIP), listing it in
// `git vault check -h` and keying what the cache remembers all follow from the row.
struct GateCheck {
  // The `check` of every finding it reports, and the name GIT_VAULT_SKIP takes.
  std::string_view name;
  // error: the check can block a commit; warning: it only ever warns.
  Severity severity = Severity::error;
  // Bumped whenever what the check reports changes, so findings remembered by a binary with
  // another version are never shown (see check_set_key).
  int version = 1;
  GateScope scope = GateScope::vault;
  // One line for `git vault check -h`.
  std::string_view description;
  // The findings over `input`, every one with `check == name`.
  std::vector<Finding> (*run)(GateInput& input) = nullptr;
};

// The checks this binary runs, in table order.
[[nodiscard]] std::span<const GateCheck> builtin_gate_checks();

// The row named `name` in `checks`, or nullptr.
[[nodiscard]] const GateCheck* find_gate_check(std::span<const GateCheck> checks,
                                               std::string_view name);

// A digest of every row's name, severity, scope and version. Remembered findings and parses are
// stored under it and trusted only by a binary with the same key, so adding, removing or
// changing a check can never bring back what another binary's checks found.
[[nodiscard]] std::uint64_t check_set_key(std::span<const GateCheck> checks);

}  // namespace gv
