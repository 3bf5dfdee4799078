#include "core/memory/stop_words.hpp"

#include <algorithm>
#include <array>

namespace gv {
namespace {

// The stop words of memory-retrieve.sh (doc/search.md, "Stop words"), in its order; sorted once
// for lookups.
constexpr std::array<std::string_view, 90> k_stop_words_listed{
    "the",   "a",       "an",    "and",   "or",      "but",    "in",     "on",      "at",
    "of",    "to",      "for",   "is",    "are",     "was",    "were",   "be",      "been",
    "being", "have",    "has",   "had",   "do",      "does",   "did",    "will",    "would",
    "could", "should",  "may",   "might", "can",     "shall",  "not",    "no",      "with",
    "by",    "from",    "as",    "into",  "through", "during", "before", "after",   "above",
    "below", "between", "out",   "off",   "over",    "under",  "again",  "further", "then",
    "once",  "here",    "there", "when",  "where",   "why",    "how",    "all",     "both",
    "each",  "few",     "more",  "most",  "other",   "some",   "such",   "only",    "own",
    "same",  "so",      "than",  "too",   "very",    "just",   "about",  "up",      "its",
    "it",    "this",    "that",  "these", "those",   "what",   "which",  "who",     "whom"};

constexpr std::array<std::string_view, 90> k_stop_words = [] {
  std::array<std::string_view, 90> words = k_stop_words_listed;
  std::sort(words.begin(), words.end());
  return words;
}();

}  // namespace

bool is_stop_word(std::string_view lowered) {
  return !lowered.empty() && std::binary_search(k_stop_words.begin(), k_stop_words.end(), lowered);
}

}  // namespace gv
