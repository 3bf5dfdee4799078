#include "core/vault/index_scan.hpp"

#include <cstdint>
#include <limits>
#include <string>

#include "core/util/text.hpp"

namespace gv {
namespace {

// Far below the full reader's limit, so a document the fast path accepts is never one the full
// reader refuses as too deep; an index is four levels deep.
constexpr std::size_t k_fast_depth = 64;

// One pass over JSON text. Every method returns false on anything the fast path does not
// answer for; the caller then gives up and the full reader runs.
class Scanner {
 public:
  explicit Scanner(std::string_view text) : m_text(text) {}

  void whitespace() {
    while (m_at < m_text.size()) {
      const char c = m_text[m_at];
      if (c != ' ' && c != '\n' && c != '\r' && c != '\t') {
        return;
      }
      ++m_at;
    }
  }

  [[nodiscard]] bool at(char c) {
    whitespace();
    return m_at < m_text.size() && m_text[m_at] == c;
  }

  bool expect(char c) {
    if (!at(c)) {
      return false;
    }
    ++m_at;
    return true;
  }

  [[nodiscard]] bool at_end() {
    whitespace();
    return m_at == m_text.size();
  }

  // A string without `\u` escapes; `raw` is its content between the quotes, `escaped` whether it
  // holds a backslash (its text then differs from `raw`).
  bool string(std::string_view& raw, bool& escaped) {
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
        if (next != '"' && next != '\\' && next != '/' && next != 'b' && next != 'f' &&
            next != 'n' && next != 'r' && next != 't') {
          return false;  // `\u` (surrogate rules) and anything invalid: the full reader decides
        }
        ++m_at;
      }
      ++m_at;
    }
    return false;
  }

  // An integer: `-`? then `0` or a digit run without a leading zero. A fraction or exponent is
  // left to the full reader.
  bool integer(std::int64_t& value) {
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
    if (m_at < m_text.size() &&
        (m_text[m_at] == '.' || m_text[m_at] == 'e' || m_text[m_at] == 'E')) {
      return false;
    }
    if (magnitude > static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max())) {
      return false;
    }
    value = negative ? -static_cast<std::int64_t>(magnitude) : static_cast<std::int64_t>(magnitude);
    return true;
  }

  bool literal(std::string_view word) {
    whitespace();
    if (m_text.substr(m_at, word.size()) != word) {
      return false;
    }
    m_at += word.size();
    return true;
  }

  [[nodiscard]] char peek() {
    whitespace();
    return m_at < m_text.size() ? m_text[m_at] : '\0';
  }

  // An object, each member's value read by `member(key)`; keys hold no escapes. Counts depth.
  template <typename Member>
  bool object(Member&& member) {
    if (!expect('{') || ++m_depth > k_fast_depth) {
      return false;
    }
    if (!at('}')) {
      do {
        std::string_view key;
        bool escaped = false;
        if (!string(key, escaped) || escaped || !expect(':') || !member(key)) {
          return false;
        }
      } while (expect(','));
    }
    if (!expect('}')) {
      return false;
    }
    --m_depth;
    return true;
  }

  // An array, each element read by `element()`. Counts depth.
  template <typename Element>
  bool array(Element&& element) {
    if (!expect('[') || ++m_depth > k_fast_depth) {
      return false;
    }
    if (!at(']')) {
      do {
        if (!element()) {
          return false;
        }
      } while (expect(','));
    }
    if (!expect(']')) {
      return false;
    }
    --m_depth;
    return true;
  }

  // Any value, checked and skipped.
  bool skip_value() {
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

  // Entered with m_at on `{` or `[`.
  bool skip_container() {
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

  std::size_t m_depth = 0;

 private:
  std::string_view m_text;
  std::size_t m_at = 0;
};

// One element of `entries`, which must read cleanly: an object with a non-empty string id, a
// non-negative integer retrieval_count when present, a date (or null, or "") as
// last_retrieved, and no key twice.
bool scan_entry(Scanner& in, IndexEntryRecord& record) {
  bool seen_id = false;
  bool seen_count = false;
  bool seen_last = false;
  bool seen_tombstoned = false;
  const bool read = in.object([&](std::string_view key) {
    bool escaped = false;
    if (key == "id") {
      std::string_view id;
      if (seen_id || in.peek() != '"' || !in.string(id, escaped) || escaped || id.empty()) {
        return false;
      }
      seen_id = true;
      record.id = std::string(id);
      return true;
    }
    if (key == "retrieval_count") {
      std::int64_t count = 0;
      if (seen_count || !in.integer(count) || count < 0) {
        return false;
      }
      seen_count = true;
      record.retrieval_count = count;
      return true;
    }
    if (key == "last_retrieved") {
      if (seen_last) {
        return false;
      }
      seen_last = true;
      if (in.peek() == 'n') {
        return in.literal("null");
      }
      std::string_view date;
      if (in.peek() != '"' || !in.string(date, escaped) || escaped) {
        return false;
      }
      if (!date.empty()) {
        record.last_retrieved = parse_date(date);
      }
      return date.empty() || record.last_retrieved.has_value();
    }
    if (key == "tombstoned_at") {
      if (seen_tombstoned) {
        return false;
      }
      seen_tombstoned = true;
      if (in.peek() != '"') {
        return in.skip_value();
      }
      std::string_view text;
      if (!in.string(text, escaped) || escaped) {
        return false;
      }
      record.tombstoned_at = std::string(text);
      return true;
    }
    return in.skip_value();
  });
  return read && seen_id;
}

}  // namespace

std::optional<ExistingIndex> scan_clean_index(std::string_view bytes) {
  Scanner in(bytes);
  ExistingIndex index;
  bool seen_entries = false;
  const bool read = in.object([&](std::string_view key) {
    if (key != "entries") {
      return in.skip_value();
    }
    if (seen_entries) {
      return false;
    }
    seen_entries = true;
    return in.array([&] {
      IndexEntryRecord record;
      if (!scan_entry(in, record)) {
        return false;
      }
      index.entries.push_back(std::move(record));
      return true;
    });
  });
  if (!read || !in.at_end() || !seen_entries) {
    return std::nullopt;
  }
  return index;
}

}  // namespace gv
