#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace gv {

// What a person wrote into a generated file (`20-Indices/index.md`, `10-Memories/README.md`)
// that a regeneration does not write: the sections of `old_text` (a heading and the lines up to
// the next heading) that name no memory (`MEM-`), hold more than the heading, and do not appear
// in `new_text` as they are. Sections that list memories are the index's own and are left out.
// nullopt when there is nothing such. `init` keeps it beside the regenerated file instead of
// losing it.
[[nodiscard]] std::optional<std::string> prose_not_generated(std::string_view old_text,
                                                             std::string_view new_text);

// How many lines `text` has (a last line without a newline counts).
[[nodiscard]] std::size_t line_count(std::string_view text);

}  // namespace gv
