#include "core/recall/entry_title.hpp"

#include <algorithm>
#include <string_view>

#include "core/memory/body.hpp"

namespace gv::recall {

std::vector<std::string> entry_titles(const ParsedFile& parsed) {
  std::vector<std::string> titles(parsed.entries.size());
  const std::vector<Heading> headings = find_headings(parsed.bytes);
  // The level-2 section each entry sits in (index into headings), or -1.
  std::vector<int> sections;
  sections.reserve(parsed.entries.size());
  for (const Entry& entry : parsed.entries) {
    int section = -1;
    for (std::size_t h = 0; h < headings.size() && headings[h].line < entry.line; ++h) {
      if (headings[h].level <= 2) {
        section = headings[h].level == 2 ? static_cast<int>(h) : -1;
      }
    }
    sections.push_back(section);
  }
  for (std::size_t e = 0; e < parsed.entries.size(); ++e) {
    const int section = sections[e];
    if (section < 0 || !std::string_view(parsed.entries[e].text).starts_with("**") ||
        std::count(sections.begin(), sections.end(), section) != 1) {
      continue;
    }
    std::string_view title = headings[static_cast<std::size_t>(section)].text;
    // An id an older plugin put on the heading belongs to the entry, not to its name.
    if (const std::size_t caret = title.rfind(" ^tr"); caret != std::string_view::npos) {
      title = title.substr(0, caret);
    }
    titles[e] = std::string(title);
  }
  return titles;
}

}  // namespace gv::recall
