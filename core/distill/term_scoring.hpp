#pragma once

#include <cstddef>
#include <functional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace gv::distill {

// The two text primitives the telemetry sub-modes cite by name (doc/telemetry.md, "Rules"):
// Key Term Extraction and Overlap Scoring (`|segment ∩ memory| / |segment|`). They belong to
// memory creation (`git vault learn`), a higher layer, so they are passed in like the clock.
struct TermScoring {
  // The key terms of a text, most telling first.
  std::function<std::vector<std::string>(std::string_view text)> key_terms;
  // The share of `segment` terms found in `memory` terms, 0..1; 0 for an empty segment. It is
  // always |words(segment) ∩ words(memory)| / |words(segment)|.
  std::function<double(const std::vector<std::string>& segment,
                       const std::vector<std::string>& memory)>
      overlap;
  // The normalized words that overlap compares. A caller scoring one segment against many
  // memories indexes the memories by these once instead of calling overlap for each.
  std::function<std::set<std::string>(const std::vector<std::string>& terms)> words;
};

// The overlap at which two texts are about the same thing: MEDIUM in the learn classification
// (D10: overlap >= 30%).
inline constexpr double k_overlap_threshold = 0.30;
// How often a pattern must recur, in distinct sessions, before it counts (D10: three strikes).
inline constexpr std::size_t k_strikes = 3;

// `overlap >= k_overlap_threshold`, tolerant of the floating-point noise of small fractions.
[[nodiscard]] inline bool overlaps(double overlap) { return overlap >= k_overlap_threshold - 1e-9; }

// `text` on one line (newlines and tabs as spaces), cut to `width` bytes on a UTF-8 boundary
// with `...` marking the cut: how prompts and messages are quoted in proposals.
[[nodiscard]] std::string excerpt(std::string_view text, std::size_t width);

// `text` on one line, cut after its last whole word within `width` bytes (a single longer word
// is cut on a UTF-8 boundary), without punctuation left dangling at the end: how titles are
// made from messages and candidates.
[[nodiscard]] std::string whole_words(std::string_view text, std::size_t width);

}  // namespace gv::distill
