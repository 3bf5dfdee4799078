#include "core/memory/lines.hpp"

#include <algorithm>

namespace gv {

std::vector<TextLine> split_lines(std::string_view text) {
  std::vector<TextLine> lines;
  std::size_t pos = 0;
  while (pos < text.size()) {
    const std::size_t newline = text.find('\n', pos);
    TextLine line;
    line.begin = pos;
    if (newline == std::string_view::npos) {
      line.end = text.size();
      line.next = text.size();
    } else {
      line.end = newline > pos && text[newline - 1] == '\r' ? newline - 1 : newline;
      line.next = newline + 1;
    }
    lines.push_back(line);
    pos = line.next;
  }
  return lines;
}

bool FenceTracker::feed(std::string_view line) {
  std::size_t indent = 0;
  while (indent < line.size() && indent < 4 && line[indent] == ' ') {
    ++indent;
  }
  const bool fence_candidate =
      indent < 4 && indent < line.size() && (line[indent] == '`' || line[indent] == '~');
  std::size_t run = 0;
  if (fence_candidate) {
    while (indent + run < line.size() && line[indent + run] == line[indent]) {
      ++run;
    }
  }
  if (m_char == 0) {
    if (fence_candidate && run >= 3) {
      // A backtick fence's info string may not contain backticks (CommonMark); otherwise the
      // line is inline code, not a fence.
      if (line[indent] == '`' && line.find('`', indent + run) != std::string_view::npos) {
        return false;
      }
      m_char = line[indent];
      m_length = run;
      return true;
    }
    return false;
  }
  if (fence_candidate && line[indent] == m_char && run >= m_length &&
      line.find_first_not_of(" \t\r", indent + run) == std::string_view::npos) {
    m_char = 0;
    m_length = 0;
  }
  return true;
}

int line_of_offset(std::string_view text, std::size_t offset) {
  const std::size_t end = std::min(offset, text.size());
  return 1 + static_cast<int>(
                 std::count(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(end), '\n'));
}

}  // namespace gv
