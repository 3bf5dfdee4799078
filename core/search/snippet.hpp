#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace gv::search {

struct Snippet {
  int line = 0;  // 1-based line of `text` the snippet comes from
  std::string text;
};

// The line of `text` holding the most distinct `terms` (the first such line on a tie), cut to
// about `width` bytes around its first match at word boundaries (`…` marks a cut), with
// surrounding whitespace and a leading list marker or heading hashes removed. nullopt when no
// line holds a term. Lines are split on `\n`; a trailing `\r` is dropped.
[[nodiscard]] std::optional<Snippet> best_line(std::string_view text,
                                               const std::vector<std::string>& terms,
                                               std::size_t width = 160);

// `line` cut to about `width` bytes starting a little before byte `focus`, at spaces (never
// inside a UTF-8 sequence), with `…` where something was cut.
[[nodiscard]] std::string clip(std::string_view line, std::size_t focus, std::size_t width);

}  // namespace gv::search
