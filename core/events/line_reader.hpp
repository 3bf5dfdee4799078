#pragma once

#include <cstddef>
#include <istream>
#include <string>
#include <string_view>

// Reads a JSON Lines file one line at a time through one reused buffer, so a store of any size
// is read in constant memory (doc/telemetry.md, "Reading large files").
namespace gv::events {

// Lines longer than this are reported as too long and skipped without being held in memory.
inline constexpr std::size_t k_max_line_bytes = std::size_t{16} << 20;

class LineReader {
 public:
  explicit LineReader(std::istream& in) : m_in(in) {}

  // The next line without its `\n`, or false at the end of the input. The view stays valid
  // until the next call. A line cut at k_max_line_bytes is returned with too_long() true and
  // only its first bytes in `line`.
  bool next(std::string_view& line);

  [[nodiscard]] std::size_t line_number() const { return m_line_number; }  // 1-based
  [[nodiscard]] bool too_long() const { return m_too_long; }
  // Whether the last line returned had no `\n` after it (the file ends in the middle of it,
  // as a store does when its writer was interrupted).
  [[nodiscard]] bool unterminated() const { return m_unterminated; }

 private:
  bool fill();

  std::istream& m_in;
  std::string m_block;
  std::size_t m_pos = 0;
  std::string m_line;
  std::size_t m_line_number = 0;
  bool m_too_long = false;
  bool m_unterminated = false;
  bool m_eof = false;
};

}  // namespace gv::events
