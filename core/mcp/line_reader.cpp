#include "core/mcp/line_reader.hpp"

#include <algorithm>
#include <cstring>

namespace gv::mcp {
namespace {

constexpr std::size_t k_chunk_bytes = std::size_t{64} << 10;

}  // namespace

LineReader::LineReader(Source read, std::size_t max_bytes)
    : m_read(std::move(read)), m_max_bytes(max_bytes), m_buffer(k_chunk_bytes, '\0') {}

bool LineReader::fill() {
  if (m_done) {
    return false;
  }
  const std::size_t count = m_read(m_buffer.data(), m_buffer.size());
  if (count == 0) {
    m_done = true;
    return false;
  }
  m_start = 0;
  m_end = count;
  return true;
}

namespace {

// A cut line's tail completed from the end of its kept head when fewer bytes followed the cut.
void complete_tail(InputLine& line) {
  if (line.cut() && line.tail.size() < LineReader::k_tail_bytes) {
    const std::size_t take =
        std::min(LineReader::k_tail_bytes - line.tail.size(), line.text.size());
    line.tail.insert(0, line.text, line.text.size() - take, take);
  }
}

}  // namespace

std::optional<InputLine> LineReader::next() {
  InputLine line;
  bool any = false;  // bytes (or a newline) were read for this line
  while (true) {
    if (m_start == m_end && !fill()) {
      if (!any) {
        return std::nullopt;
      }
      complete_tail(line);
      return line;
    }
    any = true;
    const char* begin = m_buffer.data() + m_start;
    const auto* newline = static_cast<const char*>(std::memchr(begin, '\n', m_end - m_start));
    const std::size_t length =
        newline != nullptr ? static_cast<std::size_t>(newline - begin) : m_end - m_start;
    const std::size_t room = m_max_bytes - line.text.size();
    line.text.append(begin, std::min(length, room));
    if (length > room) {
      // Past the cap: only the last bytes are kept, for the request id a client writes last.
      line.tail.append(begin + room, length - room);
      if (line.tail.size() > k_tail_bytes) {
        line.tail.erase(0, line.tail.size() - k_tail_bytes);
      }
    }
    line.bytes += length;
    if (newline != nullptr) {
      m_start += length + 1;
      complete_tail(line);
      return line;
    }
    m_start = m_end;
  }
}

}  // namespace gv::mcp
