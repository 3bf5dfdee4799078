#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/memory/memory.hpp"
#include "core/vault/index_row.hpp"

namespace gv {

// memory-index.json assembled from per-memory pieces, so the gate can compare a 10,000-entry
// index without rendering 10,000 entries: each memory's entry text is rendered once per blob
// id and remembered in the parse cache.
//
// Both functions take their bytes from render_index_json itself (an entry is cut out of a
// one-memory rendering; the frame comes from an empty one), so they follow every change to
// that renderer; tests/unit/gate_index_json_test.cpp checks that the assembly equals the full
// rendering. Either returns nullopt when the rendering does not have the expected frame, and
// the caller then renders the whole file.

// The memory's entry as it appears inside `"entries": [` (indented, no separator).
[[nodiscard]] std::optional<std::string> index_entry_text(const Memory& memory);

// The whole file from the rows of every memory (sorted by id, tombstoned included) and their
// entry texts, in the same order.
[[nodiscard]] std::optional<std::string> assemble_index_json(
    const std::vector<IndexRow>& rows, const std::vector<std::string_view>& entry_texts,
    std::string_view generated_at);

// The git blob id of what assemble_index_json would return, hashed piece by piece without
// building the file.
[[nodiscard]] std::optional<std::string> assembled_index_json_oid(
    const std::vector<IndexRow>& rows, const std::vector<std::string_view>& entry_texts,
    std::string_view generated_at);

}  // namespace gv
