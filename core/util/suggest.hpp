#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace gv::util {

// The candidates closest to a mistyped `word` (`distil` -> `distill`, `serach` -> `search`), for
// a "did you mean" line: every candidate at the smallest edit distance (an adjacent swap counts
// as one edit), or a candidate `word` is a prefix of. Empty when nothing is close enough to be a
// plausible typo (more than about a third of the word changed). Candidates keep their order.
[[nodiscard]] std::vector<std::string> closest_names(std::string_view word,
                                                     const std::vector<std::string>& candidates);

// Optimal string alignment distance: insertions, deletions, substitutions and swaps of two
// adjacent characters each cost one.
[[nodiscard]] std::size_t edit_distance(std::string_view a, std::string_view b);

}  // namespace gv::util
