#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

#include "core/recall/maintain.hpp"

namespace gv::recall {

// The question asked on a terminal after the candidates.
inline constexpr std::string_view k_apply_prompt = "Apply all / decide individually?";

// `━` repeated once per code point of `header` (the header holds a multi-byte dash).
[[nodiscard]] std::string header_underline(std::string_view header);

// What maintain shows before it asks: the "all clear" block when working memory is within
// budget and nothing is superseded, else the numbered candidates (pressure, then superseded
// cleanup) with the choices each offers. The prompt line is not included. `limit` cuts each
// list (0: all), for a dry run a person reads; the numbers stay those --decide takes.
[[nodiscard]] std::string render_presentation(const Analysis& analysis, std::size_t limit = 0);

// The "complete" block after an applied run.
[[nodiscard]] std::string render_summary(const MaintainResult& result, const Analysis& analysis);

// `--dry-run --json`: {"schema", "working_words", "budget", "pressure_candidates": [{"id",
// "path", "line", "words", "score"}], "superseded": [{"id", "path", "line"}]}, pressure
// candidates in selection order.
[[nodiscard]] nlohmann::json analysis_json(const Analysis& analysis);

}  // namespace gv::recall
