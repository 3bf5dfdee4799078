#pragma once

#include <nlohmann/json_fwd.hpp>

#include "core/scoring/report.hpp"

namespace gv::scoring {

// The `git vault distill --json` document (doc/sub-modes.md, "JSON output"): schema, today,
// health_score, status, the active memories' scores by id, the four candidate id lists and the
// tombstoned memories. Include <nlohmann/json.hpp> to use the result.
[[nodiscard]] nlohmann::json report_json(const Report& report);

}  // namespace gv::scoring
