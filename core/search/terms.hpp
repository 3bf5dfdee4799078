#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "core/memory/stop_words.hpp"

// How text becomes search terms, shared by ranking, snippets, context building and learn's
// overlap scoring (doc/search.md).
namespace gv::search {

using gv::is_stop_word;  // core/memory/stop_words.hpp

// Letters, digits and every byte >= 0x80, so UTF-8 words stay whole.
[[nodiscard]] inline bool is_word_byte(char c) {
  const auto byte = static_cast<unsigned char>(c);
  return (byte >= 'a' && byte <= 'z') || (byte >= 'A' && byte <= 'Z') ||
         (byte >= '0' && byte <= '9') || byte >= 0x80;
}

// Calls `visit(word, offset)` for every maximal run of word bytes in `text`, in order.
template <class Visit>
void for_each_word(std::string_view text, Visit&& visit) {
  std::size_t i = 0;
  const std::size_t size = text.size();
  while (i < size) {
    while (i < size && !is_word_byte(text[i])) {
      ++i;
    }
    const std::size_t begin = i;
    while (i < size && is_word_byte(text[i])) {
      ++i;
    }
    if (i > begin) {
      visit(text.substr(begin, i - begin), begin);
    }
  }
}

// A word as a term: ASCII letters lower-cased, then a light plural fold so singular and plural
// meet: `-ies` becomes `-y` (`retries` -> `retry`), a final `-s` goes (not after `s`, `u` or
// `i`: `class`, `status`, `analysis`; not in words of three letters), then a final `-e` of a
// word still four letters long (`caches`, `cache` -> `cach`; `boxes` -> `box`). `out` is
// overwritten; reusing it avoids an allocation per word in the scanning loops.
void normalize_term(std::string_view word, std::string& out);
[[nodiscard]] std::string normalize_term(std::string_view word);

// The distinct terms of a query, in first-seen order, stop words dropped (unless the query has
// nothing else, so `the` still finds `the`).
[[nodiscard]] std::vector<std::string> query_terms(std::string_view query);

// A prefix of every word that normalizes to `term`: the term itself, or the term without its
// final `y` (`retries` folds to `retry`); the folds only ever remove `s`, `e` or `ies`. Texts that
// do not contain it (case-insensitively) cannot hold the term, so ranking skips them without
// splitting them into words.
[[nodiscard]] std::string_view term_prefix(std::string_view term);

}  // namespace gv::search
