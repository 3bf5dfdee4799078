#include "core/gate/print.hpp"

#include <algorithm>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

namespace gv {

std::string format_findings(const std::vector<Finding>& findings) {
  std::string out;
  std::size_t errors = 0;
  for (const Finding& finding : findings) {
    const bool error = finding.severity == Severity::error;
    errors += error ? 1 : 0;
    const std::string where =
        finding.line ? fmt::format("{}:{}", finding.path, *finding.line) : finding.path;
    out += fmt::format("{}: {}: {}\n", where, error ? "error" : "warning", finding.message);
    if (!finding.fix.empty()) {
      out += fmt::format("  fix: {}\n", finding.fix);
    }
  }
  if (!findings.empty()) {
    out += fmt::format("{} error(s), {} warning(s)\n", errors, findings.size() - errors);
  }
  return out;
}

nlohmann::ordered_json findings_json(const std::vector<Finding>& findings) {
  nlohmann::ordered_json list = nlohmann::ordered_json::array();
  for (const Finding& finding : findings) {
    list.push_back({{"check", finding.check},
                    {"severity", finding.severity == Severity::error ? "error" : "warning"},
                    {"path", finding.path},
                    {"line", finding.line ? nlohmann::ordered_json(*finding.line) : nullptr},
                    {"id", finding.id},
                    {"message", finding.message},
                    {"fix", finding.fix}});
  }
  const bool ok = std::none_of(findings.begin(), findings.end(), [](const Finding& finding) {
    return finding.severity == Severity::error;
  });
  return {{"schema", 1}, {"ok", ok}, {"findings", list}};
}

}  // namespace gv
