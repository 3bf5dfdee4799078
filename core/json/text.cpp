#include "core/json/text.hpp"

#include <algorithm>

namespace gv::json_text {

std::size_t skip_string(std::string_view text, std::size_t i) {
  for (++i; i < text.size(); ++i) {
    if (text[i] == '\\') {
      ++i;
    } else if (text[i] == '"') {
      return i + 1;
    }
  }
  return text.size();
}

bool is_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

std::size_t skip_space(std::string_view text, std::size_t i) {
  while (i < text.size() && is_space(text[i])) {
    ++i;
  }
  return i;
}

namespace {

// Skips one value (object, array, string or literal) starting at text[i].
std::size_t skip_value(std::string_view text, std::size_t i) {
  if (i >= text.size()) {
    return i;
  }
  if (text[i] == '"') {
    return skip_string(text, i);
  }
  if (text[i] == '{' || text[i] == '[') {
    int depth = 0;
    while (i < text.size()) {
      const char c = text[i];
      if (c == '"') {
        i = skip_string(text, i);
        continue;
      }
      if (c == '{' || c == '[') {
        ++depth;
      } else if (c == '}' || c == ']') {
        if (--depth == 0) {
          return i + 1;
        }
      }
      ++i;
    }
    return i;
  }
  while (i < text.size() && text[i] != ',' && text[i] != '}' && text[i] != ']' &&
         !is_space(text[i])) {
    ++i;
  }
  return i;
}

}  // namespace

std::optional<Span> find_top_level_value(std::string_view text, std::string_view key) {
  std::size_t i = skip_space(text, 0);
  if (i >= text.size() || text[i] != '{') {
    return std::nullopt;
  }
  ++i;
  while (true) {
    i = skip_space(text, i);
    if (i >= text.size() || text[i] != '"') {
      return std::nullopt;
    }
    const std::size_t key_end = skip_string(text, i);
    // Keys we look for never contain escapes, so a raw comparison is exact.
    const std::string_view found = text.substr(i + 1, key_end - i - 2);
    i = skip_space(text, key_end);
    if (i >= text.size() || text[i] != ':') {
      return std::nullopt;
    }
    i = skip_space(text, i + 1);
    const std::size_t value_end = skip_value(text, i);
    if (found == key) {
      return Span{i, value_end};
    }
    i = skip_space(text, value_end);
    if (i >= text.size() || text[i] != ',') {
      return std::nullopt;
    }
    ++i;
  }
}

}  // namespace gv::json_text
