#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace gv::merge {

// The `vault-recall-metadata` merge driver's rule for `memory/.recall/metadata.json` (an
// object of records keyed by entry id): the union of both sides by id. When both sides hold a
// record for an id and they differ, the one with the later `last_reviewed_at` wins (a record
// without one loses; equal or both missing keeps ours). Written like the recall code writes
// it: keys sorted at every level, 2-space indent, raw UTF-8, trailing newline.
//
// nullopt when either side is not valid JSON or not an object, so git reports a conflict.
[[nodiscard]] std::optional<std::string> merge_recall_metadata(std::string_view ours,
                                                               std::string_view theirs);

}  // namespace gv::merge
