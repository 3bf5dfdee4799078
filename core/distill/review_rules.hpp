#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "core/distill/term_scoring.hpp"
#include "core/events/event.hpp"
#include "core/events/history.hpp"
#include "core/memory/memory.hpp"

// The rules of `--review "<question>"` (doc/telemetry.md, "review"): a read-only answer built
// from the records that share the question's terms, every statement citing its tier and record.
namespace gv::distill {

// What review reads. `nullopt` for a source that is not there (no store, no history file).
struct ReviewSources {
  const std::vector<Memory>* memories = nullptr;
  std::optional<std::vector<events::Event>> events;
  std::optional<std::vector<events::Prompt>> prompts;
  // The Markdown artifacts of archived tasks (reports, plans, summaries): path and text.
  std::vector<std::pair<std::string, std::string>> artifacts;
};

// One cited record.
struct Citation {
  std::string tier;    // `Vault / memory`, `Tier 2 / events.jsonl`, `Tier 3 / history.jsonl`,
                       // `Tier 4 fallback / archived specs`
  std::string record;  // memory id, event id, prompt timestamp, artifact path
  std::string text;    // title, message, prompt excerpt, matching line
  std::size_t matched_terms = 0;
};

struct ReviewAnswer {
  std::vector<std::string> terms;        // the question's terms
  std::vector<std::string> answer;       // statements, each naming the records it rests on
  std::vector<Citation> evidence;        // in the order of the statements
  std::vector<std::string> unavailable;  // the degraded messages, one per missing source
  std::string rule;                      // how records were chosen
};

// At most this many records are cited per source.
inline constexpr std::size_t k_review_citations_per_source = 5;

// The words of a question review looks for: lower-cased, each once, stop words and single
// characters left out (`what is the rust ci node?` -> rust, ci, node).
[[nodiscard]] std::vector<std::string> question_terms(std::string_view question);

// Answers `question` from the records that share at least one of its words (whole words,
// case-insensitive; a compound such as `max_time` is also its parts) or that it names by id (a
// memory id such as `MEM-retry`, an event id), named records first, then most words, then
// newest.
[[nodiscard]] ReviewAnswer answer_review(std::string_view question, const ReviewSources& sources,
                                         const TermScoring& terms);

// The Markdown an answer prints as (answer, evidence, degraded notes, where to go next).
[[nodiscard]] std::string render_review(const ReviewAnswer& answer, std::string_view question);

}  // namespace gv::distill
