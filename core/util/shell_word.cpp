#include "core/util/shell_word.hpp"

#include <algorithm>

namespace gv::util {

std::string shell_word(std::string_view text) {
  const bool plain = !text.empty() && std::all_of(text.begin(), text.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' ||
           c == '_' || c == '-' || c == '/' || c == ':' || c == '@' || c == '+' || c == ',' ||
           c == '=';
  });
  if (plain) {
    return std::string(text);
  }
  std::string out = "'";
  for (const char c : text) {
    out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  }
  return out + "'";
}

}  // namespace gv::util
