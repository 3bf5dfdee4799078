#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "core/distill/term_scoring.hpp"
#include "core/events/event.hpp"

// The rules of `--meta` (doc/telemetry.md, "meta"): improvement proposals for the agent system
// from deviations, blockers and reflections that keep coming back. Values in, values out.
namespace gv::distill {

inline constexpr std::string_view k_rule_recurring_at_checkpoint = "three-strikes-at-checkpoint";
inline constexpr std::string_view k_rule_recurring_reflection = "three-strikes-reflection";

struct MetaProposal {
  std::string key;      // `meta-<checkpoint>-<event_type>` or `meta-reflection-<n>`
  std::string summary;  // one line
  std::string rule;
  std::string checkpoint;     // where it recurs (`(none)` when the events have none)
  std::string affected_area;  // the checkpoint or the named part, or the default below
  std::vector<std::string> evidence_ids;
  std::vector<std::string> evidence_messages;
  std::size_t sessions = 0;
};

inline constexpr std::string_view k_default_affected_area = "core (default -- verify manually)";

struct MetaResult {
  std::vector<MetaProposal> proposals;  // sorted by key
  std::size_t deviations = 0;
  std::size_t blockers = 0;
  std::size_t reflections = 0;
  [[nodiscard]] bool any_signal() const { return deviations + blockers + reflections > 0; }
};

// (i) deviations and blockers of one (checkpoint, event type) in at least three distinct
// sessions, when they point at something nameable: a checkpoint, or a message naming a skill,
// hook, rule, command, agent, script or doc; (ii) `what_was_hard` / `what_was_missed` phrases of
// reflection events that overlap (>= 30%) across at least three distinct sessions.
[[nodiscard]] MetaResult find_meta_proposals(const std::vector<events::Event>& events,
                                             const TermScoring& terms);

}  // namespace gv::distill
