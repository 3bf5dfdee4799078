#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace gv::json_text {

// Byte range of a value inside a JSON document's text.
struct Span {
  std::size_t begin = 0;
  std::size_t end = 0;  // one past the last byte
};

// Finds the value of `key` in the top-level object of `text` without parsing the rest, so a
// caller can replace just that value and keep every other byte as the user wrote it.
// nullopt when the text is not an object or has no such key. Assumes `text` is valid JSON.
[[nodiscard]] std::optional<Span> find_top_level_value(std::string_view text, std::string_view key);

// Scanning helpers for readers that walk JSON text by hand (this file's and layout.hpp's).
// Whether `c` is JSON whitespace.
[[nodiscard]] bool is_space(char c);
// The index of the first non-whitespace byte at or after `i` (text.size() when none).
[[nodiscard]] std::size_t skip_space(std::string_view text, std::size_t i);
// Skips a string starting at text[i] == '"'; returns the index one past its closing quote
// (text.size() when it is not closed).
[[nodiscard]] std::size_t skip_string(std::string_view text, std::size_t i);

}  // namespace gv::json_text
