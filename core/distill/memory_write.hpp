#pragma once

#include <cstddef>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "core/dates.hpp"
#include "core/distill/telemetry_inputs.hpp"
#include "core/distill/term_scoring.hpp"

namespace gv {
class Snapshot;
}

// The memory creation primitives the telemetry sub-modes write with (doc/telemetry.md, "Writing
// memories"; doc/vault-format.md, "New memories" and "Ids and slugs"): key term extraction,
// overlap scoring, the slug rule and the CREATE / UPDATE / EXTEND edits.
namespace gv::distill {

// Key Term Extraction made deterministic: words of letters, digits, `-` and `_` (trimmed of
// `-`/`_`), lower-cased, stop words (the retrieval list) dropped, longer than four characters;
// ranked by frequency, then technical terms (a digit, `-` or `_`) first, then first
// appearance; the top `count`.
[[nodiscard]] std::vector<std::string> extract_key_terms(std::string_view text,
                                                         std::size_t count = 5);

// Overlap Scoring: |segment ∩ memory| / |segment| over lower-cased words (a multi-word keyword
// counts as its words); 0 for an empty segment.
[[nodiscard]] double overlap_score(const std::vector<std::string>& segment,
                                   const std::vector<std::string>& memory);

// The two above as the TermScoring capability.
[[nodiscard]] TermScoring builtin_term_scoring();

// `MEM-` + the slug of the topic's last segment and the title's first three words, with `-2`,
// `-3`… until `exists` says the id is free (doc/vault-format.md, "Ids and slugs").
[[nodiscard]] std::string new_memory_id(std::string_view topic, std::string_view title,
                                        const std::function<bool(std::string_view id)>& exists);

// Writes `write` over the vault of `before`: CREATE renders the new-memory template (category as
// the one tag, keywords as a block list); UPDATE keeps every field but `modified` and `source`,
// puts the old main content under `### Previous Version (<created>)` at the top of `## History` and
// the new content in its place; EXTEND adds `## Extension (<today>)` before `## Connections`.
// Throws gv::Error when the target is missing, tombstoned or has no frontmatter, or the content
// holds a `## History` / `## Connections` heading.
[[nodiscard]] WrittenMemory write_memory(const Snapshot& before, const MemoryWrite& write,
                                         Date today);

}  // namespace gv::distill
