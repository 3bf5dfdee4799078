#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace gv::distill {

// The result of reading a selection: indexes into the candidate list (ascending, no repeats),
// or an error message saying which part was not understood.
struct Selection {
  std::vector<std::size_t> indexes;
  std::string error;  // empty when the text was understood
};

// Reads what a person typed at the prompt or passed to --select: comma- or space-separated
// candidate numbers (1-based), ranges (`2-4`), candidate keys (`MEM-x`), `a`/`all` for every
// candidate; empty text selects nothing.
[[nodiscard]] Selection parse_selection(std::string_view text,
                                        const std::vector<std::string>& keys);

}  // namespace gv::distill
