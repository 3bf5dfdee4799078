#include "core/gate/registry.hpp"

#include <array>

namespace gv {

// Each check is defined in core/gate/checks/<name>.cpp.
namespace gate_checks {
std::vector<Finding> missing_id(GateInput& input);
std::vector<Finding> malformed_id(GateInput& input);
std::vector<Finding> duplicate_id(GateInput& input);
std::vector<Finding> ignored_id(GateInput& input);
std::vector<Finding> recall_metadata(GateInput& input);
std::vector<Finding> distill_log(GateInput& input);
std::vector<Finding> schema(GateInput& input);
std::vector<Finding> id_case_collision(GateInput& input);
std::vector<Finding> stale_index(GateInput& input);
std::vector<Finding> dangling_link(GateInput& input);
std::vector<Finding> secret(GateInput& input);
}  // namespace gate_checks

namespace {

using enum GateScope;
using enum Severity;

// The gate. Bump a row's version whenever its check reports something different for the same
// files: remembered findings are keyed by this table (check_set_key).
constexpr std::array k_checks{
    // clang-format off
    GateCheck{"missing-id",        error,   1, working_memory, "working-memory entry without an id",                 &gate_checks::missing_id},
    GateCheck{"malformed-id",      error,   1, working_memory, "working-memory entry whose id is malformed",         &gate_checks::malformed_id},
    GateCheck{"duplicate-id",      error,   1, working_memory, "two working-memory entries with one id",             &gate_checks::duplicate_id},
    GateCheck{"ignored-id",        warning, 1, working_memory, "caret id that the entry parser does not read",      &gate_checks::ignored_id},
    GateCheck{"recall-metadata",   error,   1, working_memory, "recall metadata.json that no recall command can read", &gate_checks::recall_metadata},
    GateCheck{"distill-log",       error,   1, working_memory, "distill log that no distill command can read",  &gate_checks::distill_log},
    GateCheck{"schema",            error,   2, vault,          "memory frontmatter that does not parse or validate", &gate_checks::schema},
    GateCheck{"id-case-collision", error,   1, vault,          "memory ids that differ only in case",                &gate_checks::id_case_collision},
    GateCheck{"stale-index",       error,   2, vault,          "generated index files that differ from the memories", &gate_checks::stale_index},
    GateCheck{"dangling-link",     warning, 1, vault,          "wiki link to no memory or a tombstoned one",         &gate_checks::dangling_link},
    GateCheck{"secret",            error,   1, both,           "a line that looks like a key, a token or a password", &gate_checks::secret},
    // clang-format on
};

}  // namespace

std::span<const GateCheck> builtin_gate_checks() { return k_checks; }

const GateCheck* find_gate_check(std::span<const GateCheck> checks, std::string_view name) {
  for (const GateCheck& check : checks) {
    if (check.name == name) {
      return &check;
    }
  }
  return nullptr;
}

std::uint64_t check_set_key(std::span<const GateCheck> checks) {
  // FNV-1a over every row's name, severity, scope and version, each field terminated.
  std::uint64_t hash = 0xcbf29ce484222325ULL;
  const auto mix = [&hash](std::string_view bytes) {
    for (const char c : bytes) {
      hash = (hash ^ static_cast<unsigned char>(c)) * 0x100000001b3ULL;
    }
    hash = (hash ^ 0xffU) * 0x100000001b3ULL;
  };
  for (const GateCheck& check : checks) {
    mix(check.name);
    mix(check.severity == Severity::error ? "error" : "warning");
    mix(check.scope == GateScope::vault            ? "vault"
        : check.scope == GateScope::working_memory ? "working-memory"
                                                   : "both");
    mix(std::to_string(check.version));
  }
  return hash;
}

}  // namespace gv
