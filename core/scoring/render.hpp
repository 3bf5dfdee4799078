#pragma once

#include <cstddef>
#include <functional>
#include <string>
#include <string_view>

#include "core/scoring/report.hpp"

namespace gv::scoring {

// The report as the distill skill's Markdown health report, with the Tombstoned Memories section
// after Maintenance Candidates. `verbose` appends a per-memory score table (`--verbose`). Each
// list and table stops after `limit` rows (0: all) with a line counting the rest. Ends with a
// newline.
[[nodiscard]] std::string render_markdown(const Report& report, bool verbose = false,
                                          std::size_t limit = 0);

// The report as the `git vault distill --json` document, pretty-printed with a 2-space indent and
// no trailing newline. For the document as a value, see report_json.hpp.
[[nodiscard]] std::string render_json(const Report& report);
// The same text handed to `sink` in pieces of about 64 KiB, in order.
void write_json(const Report& report, const std::function<void(std::string_view)>& sink);

}  // namespace gv::scoring
