#pragma once

#include <cstddef>
#include <string_view>
#include <vector>

namespace gv {

// One line of a text as byte offsets: [begin, end) is the content without its line ending
// (`\n` or `\r\n`); `next` is where the following line starts (== end when there is no final
// newline). Offsets keep callers on the original bytes, so edits can stay byte-exact.
struct TextLine {
  std::size_t begin = 0;
  std::size_t end = 0;
  std::size_t next = 0;
};

// The 1-based line holding byte `offset` of `text`; offsets past the end count as the last
// line. Turns parser byte positions into the `path:line:` of a message.
[[nodiscard]] int line_of_offset(std::string_view text, std::size_t offset);

// Splits `text` into lines. A trailing newline does not start an extra empty line.
[[nodiscard]] std::vector<TextLine> split_lines(std::string_view text);

[[nodiscard]] inline std::string_view line_text(std::string_view text, const TextLine& line) {
  return text.substr(line.begin, line.end - line.begin);
}

// Tracks fenced code blocks (``` or ~~~, up to three spaces of indent, closed by a fence of the
// same character at least as long). Feed every line in order; `feed` returns whether that line
// belongs to a fence (its opening and closing lines included), so it can never be a heading.
class FenceTracker {
 public:
  bool feed(std::string_view line);

 private:
  char m_char = 0;
  std::size_t m_length = 0;
};

}  // namespace gv
