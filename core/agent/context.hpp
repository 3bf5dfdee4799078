#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/dates.hpp"
#include "core/memory/memory.hpp"
#include "core/scoring/score.hpp"

namespace gv {
class Snapshot;
}

// What an agent puts in its prompt: the original auto-retrieval (`memory-retrieve.sh`) and a
// session-start briefing (doc/agent.md, "git vault context").
namespace gv::agent {

inline constexpr std::int64_t k_context_token_budget = 2000;
inline constexpr std::size_t k_context_max_entries = 5;
inline constexpr std::size_t k_context_max_keywords = 10;

// The task's keywords (doc/agent.md, "git vault context", step 1): lower-case, split on
// non-letters, drop stop words, keep words longer than three letters, unique, sorted, the first
// ten.
[[nodiscard]] std::vector<std::string> context_keywords(std::string_view text);

struct ContextPick {
  const Memory* memory = nullptr;
  std::int64_t score = 0;  // matching keywords + 2 (topic == type) or 1 (category == type)
};

struct ContextSelection {
  std::vector<std::string> keywords;  // what the task text was reduced to
  std::vector<ContextPick> picked;    // in score order
  std::int64_t tokens = 0;            // sum of the picked memories' token counts
};

// Steps 2-4 of that list over the active memories: score, keep score >= 1, sort by score (ties in
// id order), then take greedily while fewer than five are taken and the running token count stays
// within the budget (a memory too large to fit is skipped, not the end). `email/preferences/`
// topics are left out unless `task_type` is `email`. The category is compared upper-cased.
[[nodiscard]] ContextSelection select_context(const std::vector<Memory>& memories,
                                              std::string_view task, std::string_view task_type,
                                              std::int64_t token_budget = k_context_token_budget,
                                              std::size_t max_entries = k_context_max_entries);

// A memory file without its `## History` section: the earlier versions an UPDATE and a compress
// keep there are not current guidance, and D3's token count, which the budget adds up, leaves
// them out too. A file without one is returned as it is.
[[nodiscard]] std::string without_history(std::string_view file);

// The `<memory-context>` block as the original prints it: a header line, then per memory
// `### {title} (relevance: {score})` and the file (without its History, so that the block stays
// within the budget its token counts were added up to), then `</memory-context>`.
// `read` returns a memory file's bytes (nullopt leaves that memory out, as the original skips
// a file that no longer exists).
[[nodiscard]] std::string render_context_block(
    const ContextSelection& selection,
    const std::function<std::optional<std::string>(const Memory&)>& read);

}  // namespace gv::agent
