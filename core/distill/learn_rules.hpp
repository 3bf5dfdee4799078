#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "core/dates.hpp"
#include "core/distill/term_scoring.hpp"
#include "core/events/archive.hpp"
#include "core/memory/memory.hpp"

// The rules of `--learn` (doc/telemetry.md, "learn"): the unharvested memory candidates of
// archived tasks, each classified against the vault by overlap as `git vault learn` does
// (CREATE / UPDATE / EXTEND). Values in, values out.
namespace gv::distill {

enum class HarvestOp { create, update, extend };
[[nodiscard]] std::string_view harvest_op_name(HarvestOp op);  // CREATE, UPDATE, EXTEND

inline constexpr std::string_view k_rule_overlap_high = "overlap>60%:update";
inline constexpr std::string_view k_rule_overlap_medium = "overlap30-60%:extend";
inline constexpr std::string_view k_rule_overlap_low = "overlap<30%:create";

// Tasks completed within this many days may still have transcripts (Tier 4); older ones have
// only the prompt history and the task's archived artifacts.
inline constexpr std::int64_t k_transcript_window_days = 30;

struct HarvestProposal {
  std::string key;  // `T<task>-<n>`: task number and 1-based candidate position
  std::int64_t task = 0;
  std::string task_title;
  std::string record_path;
  std::size_t record_index = 0;
  std::size_t candidate_index = 0;
  std::string content;
  std::string title;     // the content's first line, at most 60 characters
  std::string category;  // upper-cased; INSIGHT when the candidate has none
  std::vector<std::string> keywords;
  double confidence = 0.0;
  HarvestOp op = HarvestOp::create;
  std::string rule;
  std::string target_id;  // UPDATE/EXTEND: the memory; empty for CREATE
  double overlap = 0.0;   // with the target (or the best match for CREATE)
  // Where the candidate's evidence comes from. Transcripts are never read (their location is
  // not recorded anywhere), so always `history_jsonl`: the archived record, its artifacts and
  // the prompt history; the run says so for every task.
  std::string source_tier = "history_jsonl";
};

struct HarvestScan {
  std::size_t tasks_scanned = 0;
  std::size_t tasks_with_candidates = 0;
  std::vector<HarvestProposal> proposals;  // task order of the records, then candidate order
  std::vector<std::int64_t> past_window;   // tasks whose transcripts rolled past the window
  std::vector<std::int64_t> in_window;     // tasks still inside it (transcripts unavailable)
};

// Classifies every unharvested candidate of `tasks` against the active `memories`: segment
// terms are the candidate's suggested keywords (its key terms when it has none), memory terms a
// memory's keywords; the best overlap decides (> 60% UPDATE, 30-60% EXTEND, < 30% CREATE; ties:
// the smaller id).
[[nodiscard]] HarvestScan scan_harvest(const std::vector<events::ArchivedTask>& tasks,
                                       const std::vector<Memory>& memories,
                                       const TermScoring& terms, Date today);

}  // namespace gv::distill
