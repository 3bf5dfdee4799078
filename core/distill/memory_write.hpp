#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/dates.hpp"
#include "core/distill/telemetry_inputs.hpp"
#include "core/distill/term_scoring.hpp"
#include "core/memory/memory.hpp"

namespace gv {
class Snapshot;
}

// The memory creation primitives the telemetry sub-modes write with (doc/telemetry.md, "Writing
// memories"; doc/vault-format.md, "New memories" and "Ids and slugs"): the CREATE / UPDATE /
// EXTEND edits, the summary and where a new memory goes. Key terms and overlap are
// `git vault learn`'s (agent::learn_term_scoring), passed in as a TermScoring.
namespace gv::distill {

// The active memory whose keywords `terms` overlap most (`scoring.overlap`; ties: the smaller
// id), or nullptr when none shares a word: where a new memory's topic and category come from
// when it is given none.
[[nodiscard]] const Memory* nearest_memory(const std::vector<Memory>& memories,
                                           const std::vector<std::string>& terms,
                                           const TermScoring& scoring);

// The first segment of the topic most active memories have (ties: the first in byte order), or
// "" in a vault without topics: where a memory no other resembles goes, rather than "(no
// topic)".
[[nodiscard]] std::string usual_topic(const std::vector<Memory>& memories);

// A one-sentence summary of Markdown `content`: the first sentence of its first paragraph of
// prose (headings, tables, code and comments passed over; a list item's marker dropped). A
// sentence longer than `max_bytes` ends after its last clause that fits, marked `...`, never
// inside a clause or a word. nullopt when the content has no prose.
[[nodiscard]] std::optional<std::string> first_sentence(std::string_view content,
                                                        std::size_t max_bytes = 200);

// Writes `write` over the vault of `before`: CREATE renders the new-memory template (category as
// the one tag, keywords as a block list); UPDATE keeps every field but `modified` (`source` is
// set only when the memory had none), puts the old main content under `### Previous Version
// (<created>)` at the top of `## History` and the new content in its place; EXTEND adds `##
// Extension (<today>)` before `## Connections`. Throws gv::Error when the target is missing,
// tombstoned or has no frontmatter, or the content holds a `## History` / `## Connections` heading.
[[nodiscard]] WrittenMemory write_memory(const Snapshot& before, const MemoryWrite& write,
                                         Date today, const TermScoring& scoring);

}  // namespace gv::distill
