#pragma once

#include <array>
#include <string>
#include <string_view>

namespace gv::hooks {

// One merge driver named in `.gitattributes` and defined in git config as
// `merge.<name>.name` / `merge.<name>.driver`.
struct MergeDriver {
  std::string_view name;         // the attribute value: merge=<name>
  std::string_view kind;         // first argument of `git vault merge-driver`
  std::string_view description;  // merge.<name>.name
};

inline constexpr std::array<MergeDriver, 4> k_merge_drivers{
    MergeDriver{"vault-generated", "generated",
                "git-vault generated file (keep ours; post-merge regenerates it)"},
    MergeDriver{"vault-log", "log", "git-vault distill log (union of operations by id)"},
    MergeDriver{"vault-recall-metadata", "recall-metadata",
                "git-vault recall metadata (union by id, newest review wins)"},
    MergeDriver{"vault-state", "state",
                "git-vault specs/state.json (memory_health merged key by key)"},
};

// The value of `merge.<name>.driver`: git substitutes %O (ancestor), %A (ours, and where the
// result goes), %B (theirs) and %P (the path, shell-quoted), after a `--`.
[[nodiscard]] std::string driver_command(const MergeDriver& driver);

}  // namespace gv::hooks
