#include "core/hooks/findings_text.hpp"

#include <fmt/format.h>

namespace gv::hooks {

std::string format_findings(const std::vector<Finding>& findings) {
  std::string out;
  for (const Finding& finding : findings) {
    const std::string where =
        finding.line ? fmt::format("{}:{}", finding.path, *finding.line) : finding.path;
    const char* level = finding.severity == Severity::warning ? "warning: " : "";
    out += fmt::format("{}: {}{}\n", where, level, finding.message);
    if (!finding.fix.empty()) {
      out += fmt::format("  fix: {}\n", finding.fix);
    }
  }
  return out;
}

}  // namespace gv::hooks
