#include "core/memory/tokens.hpp"

#include <cstdint>

#include "core/memory/body.hpp"

namespace gv {
namespace {

// The six ASCII whitespace bytes D3 names: space, and \t \n \v \f \r (9 to 13).
inline unsigned space(unsigned char c) {
  return static_cast<unsigned>(c == ' ') |
         static_cast<unsigned>(static_cast<unsigned char>(c - 9) < 5);
}

}  // namespace

std::int64_t count_words(std::string_view text) {
  // A word starts wherever a non-space byte follows a space (or the start). Each position is
  // judged from its own byte and the one before, with no branch and nothing carried from one
  // step to the next, so the compiler can count many bytes at once: every memory body goes
  // through here on a cold run.
  if (text.empty()) {
    return 0;
  }
  const auto* bytes = reinterpret_cast<const unsigned char*>(text.data());
  std::int64_t words = space(bytes[0]) ^ 1U;
  for (std::size_t i = 1; i < text.size(); ++i) {
    words += (space(bytes[i]) ^ 1U) & space(bytes[i - 1]);
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
