#include "core/hooks/gitattributes.hpp"

#include <set>

namespace gv::hooks {
namespace {

// A line with leading/trailing blanks dropped and inner runs of blanks made one space, so
// `path   merge=x` and `path merge=x` are the same attribute line.
std::string normalise(std::string_view line) {
  std::string out;
  bool pending_space = false;
  for (const char c : line) {
    if (c == ' ' || c == '\t' || c == '\r') {
      pending_space = !out.empty();
      continue;
    }
    if (pending_space) {
      out += ' ';
      pending_space = false;
    }
    out += c;
  }
  return out;
}

}  // namespace

std::string ensure_gitattributes(std::string_view existing) {
  std::set<std::string> present;
  std::size_t start = 0;
  while (start < existing.size()) {
    std::size_t end = existing.find('\n', start);
    if (end == std::string_view::npos) {
      end = existing.size();
    }
    present.insert(normalise(existing.substr(start, end - start)));
    start = end + 1;
  }
  const std::string_view eol = existing.find("\r\n") != std::string_view::npos ? "\r\n" : "\n";
  std::string out(existing);
  for (const std::string_view line : k_gitattributes_lines) {
    if (present.contains(std::string(line))) {
      continue;
    }
    if (!out.empty() && out.back() != '\n') {
      out += eol;
    }
    out += line;
    out += eol;
  }
  return out;
}

}  // namespace gv::hooks
