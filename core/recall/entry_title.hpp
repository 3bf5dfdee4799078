#pragma once

#include <string>
#include <vector>

#include "core/recall/entry.hpp"

namespace gv::recall {

// What a person calls each entry of `parsed`, parallel to its entries: the `##` heading of a
// claim block that is the only entry under it (the older register layout, `## Title` and then
// `- **Type**: …` field lines, names the entry by its heading), without an id or a trailing
// `— CLOSED`-style mark removed; empty for every other entry, which its own text names.
// Search indexes the heading with the entry, and search, context and the session briefing show
// it instead of a first line such as `**Status**: open`.
[[nodiscard]] std::vector<std::string> entry_titles(const ParsedFile& parsed);

}  // namespace gv::recall
