#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/dates.hpp"
#include "core/memory/memory.hpp"
#include "core/scoring/score.hpp"

namespace gv {
class Snapshot;
}
namespace gv::search {
class SearchIndex;
}

// `git vault context --session` and MCP build_context's `session`: what an agent should know
// at the start of a session (doc/agent.md, "The session briefing").
namespace gv::agent {

// A memory as the briefing lists it.
struct UsedMemory {
  std::string id;
  std::string title;
  std::string category;  // upper-cased; empty when the memory has none
  Date created;
  std::int64_t count = 0;  // frontmatter plus the retrieval journal
  std::optional<Date> last;
};

// The `max` memories retrieved most (count, then the later last retrieval, then id), among
// the active ones retrieved at least once. `pending` holds the journal's counts.
[[nodiscard]] std::vector<UsedMemory> most_used(const std::vector<Memory>& memories,
                                                const scoring::PendingRetrievalMap& pending,
                                                std::size_t max);

// The same from a search index's saved counts, reading and parsing only the files of the
// candidates (a few dozen at most): what a hook can afford on a vault of 10,000 memories.
[[nodiscard]] std::vector<UsedMemory> most_used(const search::SearchIndex& index,
                                                const Snapshot& snapshot,
                                                const scoring::PendingRetrievalMap& pending,
                                                std::size_t max);

struct SessionBriefing {
  std::string text;
  std::vector<std::string> memories;  // ids listed, in order
  std::int64_t tokens = 0;
};

// The briefing: CLAUDE.local.md's active context; the open loops (CLAUDE.local.md's
// `## Open Loops`, `- [ ]` items under `## Active` in registers/open-loops.md, and the older
// layout's `## Title` sections whose `**Status**` is open, in progress or blocked); the
// decisions in effect and the preferences of the registers; then `used`. Cut to
// `token_budget` tokens (D3's 1.3 per word) by dropping whole lines: memories first, then
// preferences, decisions, open loops and last the active context, so what the agent is working
// on now survives longest.
[[nodiscard]] SessionBriefing session_briefing(const std::vector<UsedMemory>& used,
                                               const Snapshot& snapshot, Date today,
                                               std::int64_t token_budget);

// session_briefing over most_used(memories, pending, max_memories).
[[nodiscard]] SessionBriefing session_briefing(const std::vector<Memory>& memories,
                                               const Snapshot& snapshot, Date today,
                                               const scoring::PendingRetrievalMap& pending,
                                               std::int64_t token_budget,
                                               std::size_t max_memories = 8);

}  // namespace gv::agent
