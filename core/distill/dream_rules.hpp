#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "core/distill/term_scoring.hpp"
#include "core/events/history.hpp"
#include "core/memory/memory.hpp"

// The rules of `--dream` (doc/telemetry.md, "dream"): themes the user keeps coming back to in
// this repository's prompts that no memory and no open task covers. Values in, values out.
namespace gv::distill {

inline constexpr std::string_view k_rule_dream_recurring = "three-strikes-distinct-sessions";
inline constexpr std::string_view k_rule_covered_by_memory = "covered-by-memory>=30%";
inline constexpr std::string_view k_rule_covered_by_task = "covered-by-open-task>=30%";

struct DreamTheme {
  std::string summary;                         // its key terms, most frequent first
  std::vector<std::string> terms;              // the same terms
  std::size_t prompts = 0;                     // how many prompts fell into it
  std::size_t sessions = 0;                    // in how many distinct sessions
  std::int64_t latest_ms = 0;                  // the newest prompt's timestamp
  std::vector<std::string> samples;            // up to two prompt excerpts, newest first
  std::vector<std::string> prompt_timestamps;  // ISO instants of its prompts (the records)
  std::string rule;                            // k_rule_dream_recurring
  // Set when the theme is covered: by which rule and which memory id or TODO line.
  std::string covered_rule;
  std::string covered_by;
};

struct DreamResult {
  std::size_t prompts_scanned = 0;
  std::vector<DreamTheme> themes;   // uncovered recurring themes: sessions desc, then summary
  std::vector<DreamTheme> covered;  // recurring themes skipped because something covers them
  std::size_t clusters = 0;         // themes found before the recurrence rule
};

// Open tasks of `specs/TODO.md`: every non-blank line that is not a heading of the file itself
// and not marked done (`[x]`, `[COMPLETED]`, `[DONE]`, `[ABANDONED]`).
[[nodiscard]] std::vector<std::string> open_task_lines(std::string_view todo);

// Clusters `prompts` (in order) by Overlap Scoring of their key terms against each theme's
// first prompt (>= 30%), keeps themes seen in at least three distinct sessions, and sets aside
// those whose terms overlap (>= 30%) a memory's keywords or an open task line.
[[nodiscard]] DreamResult find_dream_themes(const std::vector<events::Prompt>& prompts,
                                            const std::vector<Memory>& memories,
                                            const std::vector<std::string>& open_tasks,
                                            const TermScoring& terms);

}  // namespace gv::distill
