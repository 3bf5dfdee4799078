#pragma once

#include <string>
#include <vector>

#include "core/finding.hpp"

namespace gv::hooks {

// Findings as a hook prints them on stderr, one per line in the given order:
// `path:line: message` (`path: message` without a line; `warning: ` before the message of a
// warning), then `  fix: <command>` when the finding names one. Empty for no findings.
[[nodiscard]] std::string format_findings(const std::vector<Finding>& findings);

}  // namespace gv::hooks
