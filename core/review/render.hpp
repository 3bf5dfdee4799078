#pragma once

#include <cstddef>
#include <nlohmann/json.hpp>
#include <string>

#include "core/review/review.hpp"

namespace gv::review {

struct RenderOptions {
  // Rows shown per table. Longer lists end with `…and N more` and a breakdown by category,
  // field or reason, so a range touching 1,000 memories stays a comment people read.
  std::size_t max_rows = 20;
};

// Markdown for a pull-request comment or a CI job summary. Deterministic: every list is sorted
// and nothing depends on the clock or the terminal.
[[nodiscard]] std::string render_markdown(const Review& review, const RenderOptions& options = {});

// The `--json` document: every list in full, `"schema": 1`.
[[nodiscard]] nlohmann::ordered_json review_json(const Review& review);

}  // namespace gv::review
