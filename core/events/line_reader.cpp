#include "core/events/line_reader.hpp"

namespace gv::events {
namespace {

constexpr std::size_t k_block_bytes = std::size_t{1} << 16;

}  // namespace

bool LineReader::fill() {
  if (m_eof) {
    return false;
  }
  m_block.resize(k_block_bytes);
  m_in.read(m_block.data(), static_cast<std::streamsize>(m_block.size()));
  m_block.resize(static_cast<std::size_t>(m_in.gcount()));
  m_pos = 0;
  if (m_block.empty()) {
    m_eof = true;
    return false;
  }
  return true;
}

bool LineReader::next(std::string_view& line) {
  m_line.clear();
  m_too_long = false;
  m_unterminated = false;
  bool any = false;
  while (true) {
    if (m_pos >= m_block.size() && !fill()) {
      if (!any) {
        return false;
      }
      m_unterminated = true;
      break;
    }
    any = true;
    const std::size_t newline = m_block.find('\n', m_pos);
    const std::size_t stop = newline == std::string::npos ? m_block.size() : newline;
    const std::size_t room =
        k_max_line_bytes > m_line.size() ? k_max_line_bytes - m_line.size() : 0;
    const std::size_t take = std::min(stop - m_pos, room);
    m_line.append(m_block, m_pos, take);
    if (take < stop - m_pos) {
      m_too_long = true;
    }
    m_pos = stop;
    if (newline != std::string::npos) {
      ++m_pos;
      break;
    }
  }
  ++m_line_number;
  line = m_line;
  return true;
}

}  // namespace gv::events
