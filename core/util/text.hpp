#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

// Small text helpers shared by every layer. Whitespace here is ASCII only (space, tab, CR, LF,
// VT, FF): memory files are UTF-8, and no multi-byte character is whitespace to YAML or Markdown.
namespace gv::util {

[[nodiscard]] constexpr bool is_space(char c) {
  return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\v' || c == '\f';
}

[[nodiscard]] std::string_view trim_left(std::string_view text);
[[nodiscard]] std::string_view trim_right(std::string_view text);
[[nodiscard]] std::string_view trim(std::string_view text);
// Only spaces and tabs, at the end: what Markdown's list grammar calls trailing blanks.
[[nodiscard]] std::string_view trim_right_blanks(std::string_view text);

// Lower-cases A-Z only; other bytes (UTF-8 included) are kept as they are.
[[nodiscard]] std::string to_lower_ascii(std::string_view text);

// Whether `text` is well-formed UTF-8 (no overlongs, no surrogates, nothing past U+10FFFF).
[[nodiscard]] bool valid_utf8(std::string_view text);

// The longest prefix of `text` of at most `max_bytes` bytes that does not end inside a UTF-8
// sequence (continuation bytes after the cut are dropped with their lead byte).
[[nodiscard]] std::string_view utf8_prefix(std::string_view text, std::size_t max_bytes);

// `text` when it has at most `max_bytes` bytes; else its utf8_prefix() of `max_bytes` less
// three and an ellipsis (`…`): a value echoed into a message without letting it grow the message.
[[nodiscard]] std::string shorten(std::string_view text, std::size_t max_bytes);

// `parts` with `separator` between them.
[[nodiscard]] std::string join(const std::vector<std::string>& parts, std::string_view separator);

// "1 memory", "2 memories", "0 memories": the count and the right form of the noun.
[[nodiscard]] std::string plural(std::size_t count, std::string_view singular,
                                 std::string_view plural_form);

// `text` as a Markdown code span, fenced by one backtick more than the longest run inside (a
// fix that names a command in backticks would otherwise end the span early).
[[nodiscard]] std::string code_span(std::string_view text);

}  // namespace gv::util
