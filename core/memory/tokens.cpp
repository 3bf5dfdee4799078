#include "core/memory/tokens.hpp"

#include "core/memory/body.hpp"

namespace gv {
namespace {

bool is_space(char c) {
  return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\v' || c == '\f';
}

}  // namespace

std::int64_t count_words(std::string_view text) {
  std::int64_t words = 0;
  bool in_word = false;
  for (const char c : text) {
    if (is_space(c)) {
      in_word = false;
    } else if (!in_word) {
      in_word = true;
      ++words;
    }
  }
  return words;
}

std::int64_t token_count(std::string_view body) {
  const BodySections sections = locate_sections(body);
  std::int64_t words = count_words(body);
  if (sections.history) {
    // The section starts and ends at line boundaries, so no word straddles its edges.
    words -= count_words(
        body.substr(sections.history->begin, sections.history->end - sections.history->begin));
  }
  return words * 13 / 10;
}

}  // namespace gv
