#include "core/util/json_scanner.hpp"

#include <limits>

#include "core/util/text.hpp"

namespace gv::util {

void JsonScanner::whitespace() {
  while (m_at < m_text.size()) {
    const char c = m_text[m_at];
    if (c != ' ' && c != '\n' && c != '\r' && c != '\t') {
      return;
    }
    ++m_at;
  }
}

bool JsonScanner::at(char c) {
  whitespace();
  return m_at < m_text.size() && m_text[m_at] == c;
}

bool JsonScanner::expect(char c) {
  if (!at(c)) {
    return false;
  }
  ++m_at;
  return true;
}

bool JsonScanner::at_end() {
  whitespace();
  return m_at == m_text.size();
}

bool JsonScanner::string(std::string_view& raw, bool& escaped) {
  if (!expect('"')) {
    return false;
  }
  const std::size_t begin = m_at;
  escaped = false;
  bool ascii = true;
  while (m_at < m_text.size()) {
    const auto c = static_cast<unsigned char>(m_text[m_at]);
    if (c == '"') {
      raw = m_text.substr(begin, m_at - begin);
      ++m_at;
      return ascii || util::valid_utf8(raw);
    }
    if (c < 0x20) {
      return false;  // a control character must be escaped
    }
    if (c >= 0x80) {
      ascii = false;
    } else if (c == '\\') {
      escaped = true;
      if (m_at + 1 >= m_text.size()) {
        return false;
      }
      const char next = m_text[m_at + 1];
      if (next != '"' && next != '\\' && next != '/' && next != 'b' && next != 'f' && next != 'n' &&
          next != 'r' && next != 't') {
        return false;  // `\u` (surrogate rules) and anything invalid: the full reader decides
      }
      ++m_at;
    }
    ++m_at;
  }
  return false;
}

bool JsonScanner::integer(std::int64_t& value) {
  whitespace();
  bool negative = false;
  if (m_at < m_text.size() && m_text[m_at] == '-') {
    negative = true;
    ++m_at;
  }
  const std::size_t begin = m_at;
  std::uint64_t magnitude = 0;
  while (m_at < m_text.size() && m_text[m_at] >= '0' && m_text[m_at] <= '9') {
    const auto digit = static_cast<std::uint64_t>(m_text[m_at] - '0');
    if (magnitude > (std::numeric_limits<std::uint64_t>::max() - digit) / 10) {
      return false;
    }
    magnitude = magnitude * 10 + digit;
    ++m_at;
  }
  const std::size_t digits = m_at - begin;
  if (digits == 0 || (digits > 1 && m_text[begin] == '0')) {
    return false;
  }
  if (m_at < m_text.size() && (m_text[m_at] == '.' || m_text[m_at] == 'e' || m_text[m_at] == 'E')) {
    return false;
  }
  if (magnitude > static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max())) {
    return false;
  }
  value = negative ? -static_cast<std::int64_t>(magnitude) : static_cast<std::int64_t>(magnitude);
  return true;
}

bool JsonScanner::literal(std::string_view word) {
  whitespace();
  if (m_text.substr(m_at, word.size()) != word) {
    return false;
  }
  m_at += word.size();
  return true;
}

char JsonScanner::peek() {
  whitespace();
  return m_at < m_text.size() ? m_text[m_at] : '\0';
}

bool JsonScanner::skip_value() {
  const char c = peek();
  if (c == '"') {
    std::string_view raw;
    bool escaped = false;
    return string(raw, escaped);
  }
  if (c == '{' || c == '[') {
    return skip_container();
  }
  if (c == 't') {
    return literal("true");
  }
  if (c == 'f') {
    return literal("false");
  }
  if (c == 'n') {
    return literal("null");
  }
  std::int64_t ignored = 0;
  return integer(ignored);
}

bool JsonScanner::skip_container() {
  const bool object = m_text[m_at] == '{';
  const char close = object ? '}' : ']';
  if (++m_depth > k_fast_depth) {
    return false;
  }
  ++m_at;
  if (at(close)) {
    ++m_at;
    --m_depth;
    return true;
  }
  while (true) {
    if (object) {
      std::string_view key;
      bool escaped = false;
      if (!string(key, escaped) || !expect(':')) {
        return false;
      }
    }
    if (!skip_value()) {
      return false;
    }
    if (at(',')) {
      ++m_at;
      continue;
    }
    if (!expect(close)) {
      return false;
    }
    --m_depth;
    return true;
  }
}

}  // namespace gv::util
