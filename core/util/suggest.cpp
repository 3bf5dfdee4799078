#include "core/util/suggest.hpp"

#include <algorithm>
#include <limits>

namespace gv::util {

std::size_t edit_distance(std::string_view a, std::string_view b) {
  // Three rows suffice: the swap looks two rows back.
  std::vector<std::size_t> before(b.size() + 1), previous(b.size() + 1), current(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) {
    previous[j] = j;
  }
  for (std::size_t i = 1; i <= a.size(); ++i) {
    current[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t cost = a[i - 1] == b[j - 1] ? 0 : 1;
      current[j] = std::min({previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1]) {
        current[j] = std::min(current[j], before[j - 2] + 1);
      }
    }
    std::swap(before, previous);
    std::swap(previous, current);
  }
  return previous[b.size()];
}

std::vector<std::string> closest_names(std::string_view word,
                                       const std::vector<std::string>& candidates) {
  std::vector<std::string> prefixed;
  for (const std::string& candidate : candidates) {
    if (word.size() >= 2 && candidate.starts_with(word)) {
      prefixed.push_back(candidate);
    }
  }
  if (!prefixed.empty()) {
    return prefixed;
  }
  // A third of the word, at least one edit and at most three: `serach` (two) is a typo of
  // `search`; `log` is not one of `hook`.
  const std::size_t allowed = std::clamp<std::size_t>(word.size() / 3, 1, 3);
  std::size_t best = std::numeric_limits<std::size_t>::max();
  std::vector<std::string> found;
  for (const std::string& candidate : candidates) {
    const std::size_t distance = edit_distance(word, candidate);
    if (distance > allowed || distance > best) {
      continue;
    }
    if (distance < best) {
      best = distance;
      found.clear();
    }
    found.push_back(candidate);
  }
  return found;
}

}  // namespace gv::util
