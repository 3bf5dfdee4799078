#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace gv::util {

// At most `shown` of `parts` with `separator` between them, then " and N more" for the rest:
// a list named in a one-line message stays one readable line however long the list is.
[[nodiscard]] std::string join_some(const std::vector<std::string>& parts,
                                    std::string_view separator, std::size_t shown);

}  // namespace gv::util
