#include "core/distill/learn_rules.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "core/util/text.hpp"

namespace gv::distill {
namespace {

constexpr std::size_t k_title_chars = 60;

// A candidate's title: its first line, whole words only.
std::string title_line(std::string_view content) {
  return whole_words(content.substr(0, content.find('\n')), k_title_chars);
}

}  // namespace

std::string_view harvest_op_name(HarvestOp op) {
  switch (op) {
    case HarvestOp::update:
      return "UPDATE";
    case HarvestOp::extend:
      return "EXTEND";
    case HarvestOp::create:
      break;
  }
  return "CREATE";
}

HarvestScan scan_harvest(const std::vector<events::ArchivedTask>& tasks,
                         const std::vector<Memory>& memories, const TermScoring& terms,
                         Date today) {
  HarvestScan scan;
  std::vector<const Memory*> active;
  for (const Memory& memory : memories) {
    if (memory.active()) {
      active.push_back(&memory);
    }
  }
  std::sort(active.begin(), active.end(),
            [](const Memory* a, const Memory* b) { return a->id < b->id; });
  for (const events::ArchivedTask& task : tasks) {
    ++scan.tasks_scanned;
    const std::vector<const events::MemoryCandidate*> open = task.unharvested();
    if (open.empty()) {
      continue;
    }
    ++scan.tasks_with_candidates;
    const std::optional<Date> completed =
        parse_date(task.archived_at.value_or(task.completed_at.value_or("")));
    const bool in_window = completed && days_between(today, *completed) <= k_transcript_window_days;
    (in_window ? scan.in_window : scan.past_window).push_back(task.number);
    for (const events::MemoryCandidate* candidate : open) {
      HarvestProposal proposal;
      proposal.key = fmt::format("T{}-{}", task.number, candidate->index + 1);
      proposal.task = task.number;
      proposal.task_title = task.title;
      proposal.record_path = task.record_path;
      proposal.record_index = task.record_index;
      proposal.candidate_index = candidate->index;
      proposal.content = candidate->content;
      proposal.title = title_line(candidate->content);
      proposal.category =
          candidate->category.empty() ? std::string("INSIGHT") : category_key(candidate->category);
      proposal.keywords = candidate->suggested_keywords.empty()
                              ? terms.key_terms(candidate->content)
                              : candidate->suggested_keywords;
      proposal.confidence = candidate->confidence;
      const Memory* best = nullptr;
      for (const Memory* memory : active) {
        const double overlap = terms.overlap(proposal.keywords, memory->keywords);
        if (overlap > proposal.overlap + 1e-9) {
          best = memory;
          proposal.overlap = overlap;
        }
      }
      if (best != nullptr && proposal.overlap > 0.60 + 1e-9) {
        proposal.op = HarvestOp::update;
        proposal.rule = std::string(k_rule_overlap_high);
        proposal.target_id = best->id;
      } else if (best != nullptr && overlaps(proposal.overlap)) {
        proposal.op = HarvestOp::extend;
        proposal.rule = std::string(k_rule_overlap_medium);
        proposal.target_id = best->id;
      } else {
        proposal.op = HarvestOp::create;
        proposal.rule = std::string(k_rule_overlap_low);
      }
      scan.proposals.push_back(std::move(proposal));
    }
  }
  return scan;
}

}  // namespace gv::distill
