#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

namespace gv::util {

// Far below the full reader's limit (json_text::k_max_depth), so a document a fast path accepts is
// never one the full reader refuses as too deep.
inline constexpr std::size_t k_fast_depth = 64;

// One pass over JSON text, for the fast paths of readers that answer only for the shapes
// git-vault writes (core/vault/index_scan.cpp, core/recall/metadata_scan.cpp). Every method
// returns false on anything a fast path does not answer for; the caller then gives up and the
// general reader runs. What it accepts is valid JSON read as the general reader reads it.
class JsonScanner {
 public:
  explicit JsonScanner(std::string_view text) : m_text(text) {}

  void whitespace();
  [[nodiscard]] bool at(char c);
  bool expect(char c);
  [[nodiscard]] bool at_end();
  // A string without `\u` escapes; `raw` is its content between the quotes, `escaped` whether it
  // holds a backslash (its text then differs from `raw`).
  bool string(std::string_view& raw, bool& escaped);
  // An integer: `-`? then `0` or a digit run without a leading zero. A fraction or exponent is
  // left to the full reader.
  bool integer(std::int64_t& value);
  bool literal(std::string_view word);
  [[nodiscard]] char peek();
  // Any value, checked and skipped.
  bool skip_value();

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

 private:
  // Entered with m_at on `{` or `[`.
  bool skip_container();

  std::string_view m_text;
  std::size_t m_at = 0;
  std::size_t m_depth = 0;
};

}  // namespace gv::util
