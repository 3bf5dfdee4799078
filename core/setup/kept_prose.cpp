#include "core/setup/kept_prose.hpp"

#include <vector>

namespace gv {
namespace {

// `text` cut before each heading line (`#` at the start of a line outside a code fence).
std::vector<std::string_view> sections(std::string_view text) {
  std::vector<std::string_view> out;
  std::size_t start = 0;
  std::size_t at = 0;
  bool fenced = false;
  while (at < text.size()) {
    std::size_t end = text.find('\n', at);
    end = end == std::string_view::npos ? text.size() : end + 1;
    const std::string_view line = text.substr(at, end - at);
    if (line.starts_with("```") || line.starts_with("~~~")) {
      fenced = !fenced;
    } else if (!fenced && line.starts_with('#') && at != start) {
      out.push_back(text.substr(start, at - start));
      start = at;
    }
    at = end;
  }
  if (start < text.size()) {
    out.push_back(text.substr(start));
  }
  return out;
}

// More than its heading line and blank lines.
bool has_body(std::string_view section) {
  const std::size_t first_end = section.find('\n');
  if (first_end == std::string_view::npos) {
    return false;
  }
  return section.substr(first_end + 1).find_first_not_of(" \t\r\n") != std::string_view::npos;
}

}  // namespace

std::optional<std::string> prose_not_generated(std::string_view old_text,
                                               std::string_view new_text) {
  std::string kept;
  for (const std::string_view section : sections(old_text)) {
    if (section.find("MEM-") != std::string_view::npos || !has_body(section) ||
        new_text.find(section) != std::string_view::npos) {
      continue;
    }
    kept += section;
    if (!kept.ends_with('\n')) {
      kept += '\n';
    }
  }
  if (kept.empty()) {
    return std::nullopt;
  }
  return kept;
}

std::size_t line_count(std::string_view text) {
  std::size_t lines = 0;
  for (const char c : text) {
    lines += c == '\n' ? 1 : 0;
  }
  return lines + (!text.empty() && text.back() != '\n' ? 1 : 0);
}

}  // namespace gv
