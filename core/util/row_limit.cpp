#include "core/util/row_limit.hpp"

#include <fmt/format.h>

namespace gv::util {

std::string RowLimit::rest_line() const {
  if (m_limit == 0 || m_rows <= m_limit) {
    return "";
  }
  return fmt::format("... and {} more (`--limit 0` lists them all; `--json` has every one)\n",
                     m_rows - m_limit);
}

}  // namespace gv::util
