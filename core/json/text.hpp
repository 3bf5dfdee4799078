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

}  // namespace gv::json_text
