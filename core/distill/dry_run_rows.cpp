#include "core/distill/dry_run_rows.hpp"

#include <fmt/format.h>

namespace gv::distill {

std::string DryRunRows::rest_line() const {
  if (m_limit == 0 || m_rows <= m_limit) {
    return "";
  }
  return fmt::format("... and {} more (`--limit 0` lists them all; `--json` has every one)\n",
                     m_rows - m_limit);
}

}  // namespace gv::distill
