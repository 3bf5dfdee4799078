#include "core/distill/text_edits.hpp"

#include <algorithm>

#include "core/memory/body.hpp"

namespace gv::distill {

std::string apply_edits(std::string_view text, std::vector<TextEdit> edits) {
  std::sort(edits.begin(), edits.end(), [](const TextEdit& a, const TextEdit& b) {
    return a.begin != b.begin ? a.begin < b.begin : a.end < b.end;
  });
  std::string out;
  std::size_t pos = 0;
  for (const TextEdit& edit : edits) {
    out.append(text.substr(pos, edit.begin - pos));
    out += edit.text;
    pos = edit.end;
  }
  out.append(text.substr(pos));
  return out;
}

std::string_view trim_blank_lines(std::string_view text) {
  const auto first = text.find_first_not_of(" \t\r\n");
  if (first == std::string_view::npos) {
    return {};
  }
  const auto line_start = text.rfind('\n', first);
  const std::size_t begin = line_start == std::string_view::npos ? 0 : line_start + 1;
  return text.substr(begin, text.find_last_not_of(" \t\r\n") - begin + 1);
}

std::string with_eol(std::string_view text, std::string_view eol) {
  if (eol == "\n") {
    return std::string(text);
  }
  std::string out;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '\n' && (i == 0 || text[i - 1] != '\r')) {
      out += eol;
    } else {
      out += text[i];
    }
  }
  return out;
}

std::string demote_headings(std::string_view text) {
  std::vector<TextEdit> edits;
  for (const Heading& heading : find_headings(text)) {
    const std::size_t hashes = text.find('#', heading.begin);
    const std::size_t extra = static_cast<std::size_t>(std::min(2, 6 - heading.level));
    edits.push_back({hashes, hashes, std::string(extra, '#')});
  }
  return apply_edits(text, std::move(edits));
}

}  // namespace gv::distill
