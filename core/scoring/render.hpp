#pragma once

#include <string>

#include "core/scoring/report.hpp"

namespace gv::scoring {

// The report as the distill skill's Markdown health report, with the Tombstoned Memories section
// after Maintenance Candidates. `verbose` appends a per-memory score table (`--verbose`). Ends
// with a newline.
[[nodiscard]] std::string render_markdown(const Report& report, bool verbose = false);

// The report as the `git vault distill --json` document, pretty-printed with a 2-space indent and
// no trailing newline. For the document as a value, see report_json.hpp.
[[nodiscard]] std::string render_json(const Report& report);

}  // namespace gv::scoring
