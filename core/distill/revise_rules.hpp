#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "core/distill/term_scoring.hpp"
#include "core/events/event.hpp"
#include "core/memory/memory.hpp"

// The rules of `--revise` (doc/telemetry.md, "revise"): which recorded events speak about which
// memory, and what they say about it. Values in, values out.
namespace gv::distill {

// Rule names, as printed beside every proposal and kept in the log.
inline constexpr std::string_view k_rule_task_in_source = "task-number-in-source";
inline constexpr std::string_view k_rule_keyword_overlap = "keyword-overlap>=30%";
inline constexpr std::string_view k_rule_three_strikes = "three-strikes";
inline constexpr std::string_view k_rule_below_three_strikes = "below-three-strikes";
inline constexpr std::string_view k_rule_gap_knowledge = "three-strikes-uncovered";
inline constexpr std::string_view k_rule_gap_system = "three-strikes-uncovered-system-change";

// Whether `event` is evidence for revise: a deviation or blocker, or a (historical) reflection.
[[nodiscard]] bool revise_evidence(const events::Event& event);

// Whether the memory's `source` names task `task`: a run of digits in it equal to the number
// (`specs/259_x`, `task 0259`), never part of a longer number.
[[nodiscard]] bool source_names_task(std::string_view source, std::int64_t task);

// The text of an event that overlap scoring reads: its message and the string values of its
// `detail`.
[[nodiscard]] std::string event_text(const events::Event& event);

// One event tied to one memory, and by which rule.
struct Correlation {
  std::string event_id;
  std::string rule;      // k_rule_task_in_source or k_rule_keyword_overlap
  double overlap = 0.0;  // for keyword overlap
};

enum class ReviseBucket { corroborated, contradicted };

// A memory with at least one correlated event.
struct MemoryVerdict {
  std::string memory_id;
  ReviseBucket bucket = ReviseBucket::corroborated;
  std::string rule;                       // k_rule_three_strikes or k_rule_below_three_strikes
  std::vector<Correlation> correlations;  // every correlated event, in store order
  // The events behind the rule: for contradicted, the deviations/blockers of the strike group
  // (one checkpoint and event type) in store order; for corroborated, every correlated event.
  std::vector<std::string> evidence_ids;
  std::vector<std::string> evidence_messages;  // parallel to evidence_ids
  std::string checkpoint;                      // of the strike group (`(none)` when null)
  std::string event_type;                      // of the strike group
  std::size_t sessions = 0;  // distinct sessions of the strike group (or of all, corroborated)
  std::vector<std::string> otel_error_types;  // `error.type` cited inside the evidence's detail
};

// Events that no memory covers, recurring at one checkpoint and event type.
struct ReviseGap {
  std::string key;  // `gap-<checkpoint>-<event_type>`, what --select names
  std::string checkpoint;
  std::string event_type;
  std::string rule;  // k_rule_gap_knowledge (offer CREATE) or k_rule_gap_system (escalate)
  std::vector<std::string> evidence_ids;
  std::vector<std::string> evidence_messages;
  std::size_t sessions = 0;
  std::vector<std::string> key_terms;  // of the events' text together
  [[nodiscard]] bool system_change() const { return rule == k_rule_gap_system; }
};

struct ReviseResult {
  std::vector<MemoryVerdict> memories;  // sorted by memory id
  std::vector<ReviseGap> gaps;          // sorted by key
  std::size_t events = 0;               // evidence events considered
  std::size_t deviations = 0;
  std::size_t blockers = 0;
  std::size_t reflections = 0;
  std::size_t with_cc_session = 0;  // events carrying a cc_session_id (the OTel join key)
  std::size_t correlated_events = 0;

  [[nodiscard]] std::size_t count(ReviseBucket bucket) const;
};

// Classifies `events` against the active `memories`. An event correlates with every memory
// whose source names its task; failing that, with the memory whose keywords its text overlaps
// most, when that overlap is >= 30% (ties: the smaller id). A memory is contradicted when the
// deviations and blockers correlated with it recur at one (checkpoint, event type) in at least
// three distinct sessions; otherwise its evidence corroborates it. Uncorrelated deviations and
// blockers recurring the same way are gaps: system changes (they name a skill, hook, rule,
// command, agent, script or doc) are escalated to --meta, the rest offered as new memories.
[[nodiscard]] ReviseResult classify_revise(const std::vector<Memory>& memories,
                                           const std::vector<events::Event>& events,
                                           const TermScoring& terms);

// A text as a selection key: lower-case letters and digits, other runs as one `-`.
[[nodiscard]] std::string key_slug(std::string_view text);

// Whether a text names a part of the agent system (skill, hook, rule, command, agent, script,
// doc): the revise escalation test and meta's "named target".
[[nodiscard]] bool names_system_part(std::string_view text);

// What a memory written from events quotes of them, whatever their number: the
// k_digest_messages most frequent distinct messages (each cut to k_digest_width), each with how
// often it was recorded and its first k_digest_ids event ids, then how many others there were.
// At 200,000 events it is still a few hundred tokens, far below the size compress rewrites
// (doc/sub-modes.md: 900 tokens).
inline constexpr std::size_t k_digest_messages = 5;
inline constexpr std::size_t k_digest_ids = 3;
inline constexpr std::size_t k_digest_width = 120;
[[nodiscard]] std::string evidence_digest(const std::vector<std::string>& ids,
                                          const std::vector<std::string>& messages);

// The body an UPDATE proposes for a contradicted memory: what went against it, and the
// evidence digest. The old guidance moves under `## History` when it is applied.
[[nodiscard]] std::string proposed_revision(const MemoryVerdict& verdict, std::string_view today);

// The title of the memory a knowledge gap becomes: its most frequent message, whole words, at
// most k_title_width bytes.
inline constexpr std::size_t k_title_width = 60;
[[nodiscard]] std::string gap_title(const ReviseGap& gap);

// The body of that memory, written as guidance: where it recurs and what to do there, then the
// evidence digest.
[[nodiscard]] std::string gap_guidance(const ReviseGap& gap);

}  // namespace gv::distill
