#pragma once

#include <algorithm>
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

// How text becomes terms: the one analyzer chain behind search, context, learn's overlap and
// the telemetry sub-modes' questions (doc/search.md, "Terms"). Indexing and querying run the
// same chain, so a word always meets itself:
//
//   tokens  ->  compounds kept whole and split  ->  lower case  ->  (queries: stop words)  ->  stem
//
// A token is a run of letters, digits and bytes >= 0x80, joined by `_`, and by `-` or `.`
// between two such bytes: `max_time`, `service-worker`, `node.js`, `v1.2`. A compound token
// (joined, or camelCase such as `retryAfter`) gives its whole form and then each part:
// `max_time` -> `max_time`, `max`, `time`. Parts are stemmed with Snowball's English stemmer
// (`keybindings` -> `keybind`); a whole compound has its last part stemmed
// (`service-workers` -> `service-worker`). Words holding a digit (`z3`, `k8s`, `utf8`) are never
// stemmed, nor words of three bytes or fewer, which are mostly names and acronyms (`aws`, `ios`
// are not plurals). Nothing is dropped for being short: `vim`, `ci`, `z3` are terms.
namespace gv::search {

// Letters, digits and every byte >= 0x80, so UTF-8 words stay whole.
[[nodiscard]] inline bool is_word_byte(char c);

// Calls `visit(token, offset)` for every token of `text`, in order (see above). A possessive
// `'s` after a token is not a token.
template <class Visit>
void for_each_token(std::string_view text, Visit&& visit);

// The parts of one token (`max_time` -> `max`, `time`; `retryAfter` -> `retry`, `After`;
// `HTTPServer` -> `HTTP`, `Server`), appended to `parts` (cleared first) as views into `token`.
// A simple word is its own single part. Digits never split a part (`z3`).
void split_token(std::string_view token, std::vector<std::string_view>& parts);

// The terms of one text, for one token at a time, without an allocation per word once warm.
// Not thread-safe: one per thread (the stemmer behind it keeps per-thread state).
class Analyzer {
 public:
  // The terms of `token` (one for_each_token result): one for a simple word, the whole form and
  // then the parts for a compound. Valid until the next call.
  const std::vector<std::string_view>& terms_of(std::string_view token);

  // The terms of `token` a query keeps: stop words (is_query_stop_word) dropped, except that a
  // compound's whole form is always kept. Valid until the next call.
  const std::vector<std::string_view>& query_terms_of(std::string_view token);

 private:
  std::vector<std::string_view> m_terms;
  std::vector<std::string_view> m_kept;
  std::vector<std::string> m_storage;  // backing strings of m_terms, reused
  std::vector<std::string_view> m_parts;
  std::string m_lowered;
};

// Every term of `text` in order, compounds whole and split (what indexing sees).
[[nodiscard]] std::vector<std::string> analyze(std::string_view text);

// The distinct terms of a query, in first-seen order, stop words dropped unless nothing else is
// left (so `the` still finds `the`).
[[nodiscard]] std::vector<std::string> query_terms(std::string_view query);

// Snowball's English stem of one lower-cased word; words holding a digit, and words of three
// bytes or fewer, are returned as they are. Valid until the next call on this thread.
[[nodiscard]] std::string_view stem(std::string_view lowered);

// Stop words for queries: the original auto-retrieval's list (is_stop_word,
// core/memory/stop_words.hpp) and Snowball's English stop words, with the pieces an apostrophe
// leaves (`don`, `t`, `s`, `ll`). A task says "I want to…", "let's", "can you": none of it
// says what a memory is about.
[[nodiscard]] bool is_query_stop_word(std::string_view lowered);

// --- Inline implementations ---

[[nodiscard]] inline bool is_word_byte(char c) {
  const auto byte = static_cast<unsigned char>(c);
  return (byte >= 'a' && byte <= 'z') || (byte >= 'A' && byte <= 'Z') ||
         (byte >= '0' && byte <= '9') || byte >= 0x80;
}

namespace detail {

// `'s` (or the typographic `’s`, three bytes then `s`) ending at a word boundary, at `at`.
[[nodiscard]] inline std::size_t possessive_length(std::string_view text, std::size_t at) {
  const auto ends_word = [&](std::size_t after) {
    return after >= text.size() || !is_word_byte(text[after]);
  };
  if (at + 1 < text.size() && text[at] == '\'' && (text[at + 1] == 's' || text[at + 1] == 'S') &&
      ends_word(at + 2)) {
    return 2;
  }
  if (text.substr(at).starts_with("\xE2\x80\x99") && at + 3 < text.size() &&
      (text[at + 3] == 's' || text[at + 3] == 'S') && ends_word(at + 4)) {
    return 4;
  }
  return 0;
}

// Typographic punctuation, three bytes in UTF-8 (U+2013 and U+2014 dashes, U+2018/U+2019 and
// U+201C/U+201D quotes, U+2026 ellipsis): it separates words as its ASCII forms do, although
// its bytes are >= 0x80 like any letter's. Its length at `at`, else 0.
[[nodiscard]] inline std::size_t punctuation_length(std::string_view text, std::size_t at) {
  if (at + 2 >= text.size() || static_cast<unsigned char>(text[at]) != 0xE2 ||
      static_cast<unsigned char>(text[at + 1]) != 0x80) {
    return 0;
  }
  switch (static_cast<unsigned char>(text[at + 2])) {
    case 0x93:
    case 0x94:
    case 0x98:
    case 0x99:
    case 0x9C:
    case 0x9D:
    case 0xA6:
      return 3;
    default:
      return 0;
  }
}

}  // namespace detail

template <class Visit>
void for_each_token(std::string_view text, Visit&& visit) {
  std::size_t i = 0;
  const std::size_t size = text.size();
  while (i < size) {
    while (i < size && (!is_word_byte(text[i]) || detail::punctuation_length(text, i) > 0)) {
      i += std::max<std::size_t>(1, detail::punctuation_length(text, i));
    }
    const std::size_t begin = i;
    while (i < size) {
      if (is_word_byte(text[i]) && detail::punctuation_length(text, i) == 0) {
        ++i;
        continue;
      }
      // `_` (also several in a row), `-` and `.` join only when a word byte follows, so a
      // sentence's full stop, a dash between words or a trailing `_` ends the token.
      const char c = text[i];
      std::size_t next = i + 1;
      if (c == '_') {
        while (next < size && text[next] == '_') {
          ++next;
        }
      } else if (c != '-' && c != '.') {
        break;
      }
      if (next >= size || !is_word_byte(text[next]) || detail::punctuation_length(text, next) > 0) {
        break;
      }
      i = next;
    }
    if (i > begin) {
      visit(text.substr(begin, i - begin), begin);
      i += detail::possessive_length(text, i);
    }
  }
}

}  // namespace gv::search
