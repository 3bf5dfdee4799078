#include "core/memory/memory.hpp"

#include <algorithm>

namespace gv {

std::string category_key(const Memory& memory) { return category_key(memory.category); }

std::string category_key(std::string_view category) {
  std::string key(category);
  std::transform(key.begin(), key.end(), key.begin(), [](unsigned char c) {
    return static_cast<char>(c >= 'a' && c <= 'z' ? c - 'a' + 'A' : c);
  });
  return key;
}

std::string keyword_key(std::string_view keyword) {
  const auto first = keyword.find_first_not_of(" \t\r\n");
  if (first == std::string_view::npos) {
    return {};
  }
  keyword = keyword.substr(first, keyword.find_last_not_of(" \t\r\n") - first + 1);
  std::string key(keyword);
  std::transform(key.begin(), key.end(), key.begin(), [](unsigned char c) {
    return static_cast<char>(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
  });
  return key;
}

std::set<std::string> keyword_keys(const Memory& memory) {
  std::set<std::string> keys;
  for (const std::string& keyword : memory.keywords) {
    std::string key = keyword_key(keyword);
    if (!key.empty()) {
      keys.insert(std::move(key));
    }
  }
  return keys;
}

}  // namespace gv
