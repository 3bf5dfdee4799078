#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "core/distill/sub_mode_registry.hpp"

namespace gv::merge {

// The `vault-log` merge driver's rule for `.memory/distill-log.json`: both sides only ever
// append, so the result is the union of both sides' operations by `id`, ordered by `timestamp`
// then `id`, and the summary counters are recomputed from that list (`total_operations` = the
// count; every counter of `sub_modes.log_counters()` (`total_purged` ... `total_reviewed`) = the
// summed `affected_memories` lengths of its type;
// `last_operation` = the latest timestamp). An id present on both sides keeps ours, unless
// only theirs has its `commit` filled in. Every other key is ours, plus top-level keys only
// theirs has. Operations without an id are kept once each.
//
// nullopt when either side is not valid JSON or has no `operations` array: git then reports
// an ordinary conflict for a person to resolve.
[[nodiscard]] std::optional<std::string> merge_distill_logs(
    std::string_view ours, std::string_view theirs,
    const distill::SubModeRegistry& sub_modes = distill::builtin_sub_modes());

}  // namespace gv::merge
