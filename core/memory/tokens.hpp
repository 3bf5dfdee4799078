#pragma once

#include <cstdint>
#include <string_view>

namespace gv {

// Maximal runs of non-whitespace (ASCII space, tab, CR, LF, VT, FF), like `wc -w`.
[[nodiscard]] std::int64_t count_words(std::string_view text);

// D3: floor(words * 13 / 10) over the body (everything after the closing frontmatter line)
// without its `## History` section, so compressing a memory really lowers its count.
[[nodiscard]] std::int64_t token_count(std::string_view body);

}  // namespace gv
