#include "core/hooks/gitattributes.hpp"

#include <set>
#include <span>

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

std::string ensure_lines(std::string_view existing, std::span<const std::string_view> lines) {
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
  for (const std::string_view line : lines) {
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

}  // namespace

std::string ensure_gitattributes(std::string_view existing) {
  return ensure_lines(existing, k_gitattributes_lines);
}

std::string with_attribute_line(std::string_view existing, std::string_view line) {
  return ensure_lines(existing, std::span<const std::string_view>(&line, 1));
}

std::string without_attribute_line(std::string_view existing, std::string_view line) {
  const std::string wanted = normalise(line);
  std::string out;
  std::size_t start = 0;
  while (start < existing.size()) {
    std::size_t end = existing.find('\n', start);
    end = end == std::string_view::npos ? existing.size() : end + 1;
    const std::string_view piece = existing.substr(start, end - start);
    if (normalise(piece.substr(0, piece.find('\n'))) != wanted) {
      out += piece;
    }
    start = end;
  }
  return out;
}

}  // namespace gv::hooks
