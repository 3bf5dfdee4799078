#pragma once

#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "core/finding.hpp"

namespace gv {

// Findings for people: `path:line: error: message`, then `  fix: <command>` when there is one,
// then a one-line count. Empty when there are no findings.
[[nodiscard]] std::string format_findings(const std::vector<Finding>& findings);

// The `--json` document of `check` and `index --check`:
// {"schema":1,"ok":…,"findings":[{"check","severity","path","line","id","message","fix"}]}.
[[nodiscard]] nlohmann::ordered_json findings_json(const std::vector<Finding>& findings);

}  // namespace gv
