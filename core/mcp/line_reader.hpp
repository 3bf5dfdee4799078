#pragma once

#include <cstddef>
#include <functional>
#include <optional>
#include <string>

// The stdio transport's input: newline-delimited messages, read with a cap on the memory one
// line may take (doc/agent.md, "git vault mcp", limits).
namespace gv::mcp {

// One line without its newline.
struct InputLine {
  std::string text;       // the line, or its first max_bytes bytes when it is longer
  std::size_t bytes = 0;  // the whole line's length
  std::string tail;       // when cut: its last bytes (up to LineReader::k_tail_bytes)
  [[nodiscard]] bool cut() const { return bytes > text.size(); }
};

class LineReader {
 public:
  // The bytes a cut line keeps from its end: enough for the `"id"` member a client writes last.
  static constexpr std::size_t k_tail_bytes = 256;

  // `read` fills up to `size` bytes at `into` and returns how many it read, 0 at the end of the
  // input (an error counts as the end).
  using Source = std::function<std::size_t(char* into, std::size_t size)>;

  LineReader(Source read, std::size_t max_bytes);

  // The next line, or nullopt at the end of the input. A line longer than max_bytes is read to
  // its end, keeping its first max_bytes and its last bytes: memory stays bounded whatever the
  // client sends. A last line without a newline still counts.
  [[nodiscard]] std::optional<InputLine> next();

 private:
  // Refills m_buffer; false at the end of the input.
  bool fill();

  Source m_read;
  std::size_t m_max_bytes;
  std::string m_buffer;
  std::size_t m_start = 0;  // unread bytes are m_buffer[m_start, m_end)
  std::size_t m_end = 0;
  bool m_done = false;
};

}  // namespace gv::mcp
