#include "core/search/snippet.hpp"

#include <algorithm>

#include "core/search/analyzer.hpp"
#include "core/util/text.hpp"

namespace gv::search {
namespace {

using util::trim;

// `- `, `* `, `1. ` and `#… ` prefixes say nothing in a one-line snippet.
std::string_view strip_marker(std::string_view line) {
  line = trim(line);
  if (line.starts_with("- ") || line.starts_with("* ") || line.starts_with("+ ")) {
    return trim(line.substr(2));
  }
  std::size_t hashes = 0;
  while (hashes < line.size() && line[hashes] == '#') {
    ++hashes;
  }
  if (hashes > 0 && hashes < line.size() && line[hashes] == ' ') {
    return trim(line.substr(hashes));
  }
  return line;
}

}  // namespace

std::string clip(std::string_view line, std::size_t focus, std::size_t width) {
  if (line.size() <= width) {
    return std::string(line);
  }
  std::size_t begin = 0;
  if (focus != std::string_view::npos && focus > width / 4) {
    // Start at the word holding the target position, so no word (and no UTF-8 sequence) is cut.
    const std::size_t space = line.rfind(' ', focus - width / 4);
    begin = space == std::string_view::npos ? 0 : space + 1;
  }
  std::size_t end = std::min(line.size(), begin + width);
  if (end < line.size()) {
    const std::size_t space = line.rfind(' ', end);
    end = (space == std::string_view::npos || space <= begin) ? line.find(' ', end) : space;
    end = end == std::string_view::npos ? line.size() : end;
  }
  std::string out;
  if (begin > 0) {
    out += "…";
  }
  out += trim(line.substr(begin, end - begin));
  if (end < line.size()) {
    out += "…";
  }
  return out;
}

std::optional<Snippet> best_line(std::string_view text, const std::vector<std::string>& terms,
                                 std::size_t width) {
  std::optional<Snippet> best;
  std::size_t best_count = 0;
  Analyzer analyzer;
  std::size_t start = 0;
  int line_number = 0;
  while (start < text.size()) {
    ++line_number;
    std::size_t end = text.find('\n', start);
    if (end == std::string_view::npos) {
      end = text.size();
    }
    const std::string_view line = strip_marker(text.substr(start, end - start));
    std::vector<bool> seen(terms.size(), false);
    std::size_t count = 0;
    std::size_t first_match = std::string_view::npos;
    for_each_token(line, [&](std::string_view token, std::size_t offset) {
      for (const std::string_view term : analyzer.terms_of(token)) {
        for (std::size_t t = 0; t < terms.size(); ++t) {
          if (!seen[t] && term == terms[t]) {
            seen[t] = true;
            ++count;
            first_match = std::min(first_match, offset);
          }
        }
      }
    });
    if (count > best_count) {
      best_count = count;
      best = Snippet{line_number, clip(line, first_match, width)};
      if (count == terms.size()) {
        break;
      }
    }
    start = end + 1;
  }
  return best;
}

}  // namespace gv::search
