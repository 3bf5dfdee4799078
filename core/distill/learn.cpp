// The learn sub-mode: a retroactive harvest of the memory candidates archived tasks collected and
// nobody turned into memories (doc/telemetry.md, "learn"; rules in core/distill/learn_rules.hpp).
// Each selected candidate is written with `git vault learn`'s CREATE / UPDATE / EXTEND, and marked
// harvested in its archive record so later runs skip it.

#include <fmt/format.h>

#include <algorithm>
#include <map>

#include "core/distill/learn_rules.hpp"
#include "core/distill/sub_mode.hpp"
#include "core/distill/telemetry_inputs.hpp"
#include "core/distill/telemetry_log.hpp"
#include "core/distill/telemetry_support.hpp"
#include "core/error.hpp"
#include "core/snapshot/overlay_snapshot.hpp"
#include "core/util/text.hpp"

namespace gv::distill {
namespace {

using Json = nlohmann::ordered_json;

struct LearnRun {
  ArchivedTasks archived;
  HarvestScan scan;
};

LearnRun read_learn_run(const SubModeContext& context) {
  const TelemetryInputs& inputs = telemetry_of(context, "learn");
  LearnRun run;
  run.archived = read_archived_tasks(context.snapshot);
  run.scan = scan_harvest(run.archived.tasks, context.state.vault.memories, inputs.terms,
                          context.clock.today);
  return run;
}

std::string source_notes(const HarvestScan& scan) {
  std::string out;
  for (std::int64_t task : scan.past_window) {
    out += fmt::format(
        "Task {}'s transcript has rolled past the 30-day replay window -- falling back to\n"
        "history.jsonl's prompt-level record and the task's own archived specs/ artifacts for "
        "candidate\nextraction.\n",
        task);
  }
  for (std::int64_t task : scan.in_window) {
    out += fmt::format(
        "Task {}: no transcript available within the 30-day window for this task; falling back "
        "to\nhistory.jsonl's prompt-level record and the task's own archived specs/ artifacts.\n",
        task);
  }
  return out;
}

std::string describe(const HarvestProposal& proposal) {
  return proposal.op == HarvestOp::create
             ? fmt::format("CREATE new memory (best overlap {:.0f}%)", proposal.overlap * 100)
             : fmt::format("{} {} ({:.0f}% overlap)", harvest_op_name(proposal.op),
                           proposal.target_id, proposal.overlap * 100);
}

class Learn final : public SubMode {
 public:
  [[nodiscard]] std::string_view name() const override { return "learn"; }

  [[nodiscard]] CandidateSet candidates(const SubModeContext& context) const override {
    const LearnRun run = read_learn_run(context);
    const HarvestScan& scan = run.scan;
    CandidateSet set;
    set.none_selected_message = "No candidates selected. No memories created.";
    set.question = "Select memory candidates to harvest (each is written as shown).";
    if (scan.proposals.empty()) {
      set.stop_message = "No archived tasks with unharvested memory candidates found.";
      return set;
    }
    std::map<std::int64_t, std::size_t> per_task;
    for (const HarvestProposal& proposal : scan.proposals) {
      ++per_task[proposal.task];
    }
    set.dry_run_text =
        fmt::format("[DRY RUN] Unharvested memory candidates found across {} archived task(s):\n",
                    scan.tasks_with_candidates);
    std::int64_t last_task = -1;
    for (const HarvestProposal& proposal : scan.proposals) {
      if (proposal.task != last_task) {
        set.dry_run_text +=
            fmt::format("  - Task {}: {} candidate(s), source: history.jsonl+specs artifacts\n",
                        proposal.task, per_task[proposal.task]);
        last_task = proposal.task;
      }
      set.dry_run_text +=
          fmt::format("    - {} [{}] \"{}\" -> {} [rule {}]\n", proposal.key, proposal.category,
                      proposal.title, describe(proposal), proposal.rule);
      Candidate candidate;
      candidate.key = proposal.key;
      candidate.label =
          fmt::format("{} [{}] \"{}\" -> {} [rule {}]", proposal.key, proposal.category,
                      proposal.title, describe(proposal), proposal.rule);
      candidate.details = fmt::format("Task {} ({}), confidence {:.2f}, keywords: {}",
                                      proposal.task, proposal.task_title, proposal.confidence,
                                      util::join(proposal.keywords, ", "));
      candidate.json =
          Json{{"key", proposal.key},
               {"task", proposal.task},
               {"candidate", proposal.candidate_index + 1},
               {"title", proposal.title},
               {"category", proposal.category},
               {"operation", harvest_op_name(proposal.op)},
               {"target", proposal.target_id.empty() ? Json(nullptr) : Json(proposal.target_id)},
               {"overlap", proposal.overlap},
               {"rule", proposal.rule},
               {"source", proposal.source_tier}};
      set.candidates.push_back(std::move(candidate));
    }
    set.dry_run_text += "\n" + source_notes(scan) + "\nNo memories created.\n";
    set.dry_run_json = Json{{"tasks_scanned", scan.tasks_scanned},
                            {"tasks_with_candidates", scan.tasks_with_candidates}};
    return set;
  }

  [[nodiscard]] Execution execute(const SubModeContext& context,
                                  const std::vector<Candidate>& selected) const override {
    const TelemetryInputs& inputs = telemetry_of(context, "learn");
    const LearnRun run = read_learn_run(context);
    Execution execution;
    ActionDraft& draft = execution.draft;
    draft.type = "learn";
    const OverlaySnapshot after(context.snapshot, draft.plan.changes);
    std::map<std::string, std::vector<events::HarvestMark>> marks;  // by record file
    Json affected = Json::array();
    std::size_t created = 0;
    for (const Candidate& candidate : selected) {
      const auto proposal =
          std::find_if(run.scan.proposals.begin(), run.scan.proposals.end(),
                       [&](const HarvestProposal& p) { return p.key == candidate.key; });
      if (proposal == run.scan.proposals.end()) {
        throw Error("{}: no such candidate", candidate.key);
      }
      MemoryWrite write;
      write.op = proposal->op;
      write.target_id = proposal->target_id;
      write.title = proposal->title;
      write.content = proposal->content;
      write.category = proposal->category;
      write.keywords = proposal->keywords;
      write.source = fmt::format("distill --learn retroactive harvest (task {})", proposal->task);
      const WrittenMemory written = inputs.write_memory(after, write, context.clock.today);
      draft.plan.write(written.path, written.bytes);
      draft.plan.memories.push_back(written.id);
      marks[proposal->record_path].push_back(
          {proposal->record_index, proposal->candidate_index, written.id});
      created += proposal->op == HarvestOp::create ? 1 : 0;
      affected.push_back(Json{{"task", proposal->task},
                              {"memory_id", written.id},
                              {"classification", proposal->category},
                              {"operation", harvest_op_name(proposal->op)},
                              {"rule", proposal->rule},
                              {"source", proposal->source_tier}});
    }
    const std::string now = format_instant(context.clock.now);
    for (const auto& [path, record_marks] : marks) {
      const std::optional<std::string> text = context.snapshot.read(path);
      if (!text) {
        throw Error("{}: cannot read", path);
      }
      draft.plan.write(path, events::mark_harvested(path, *text, record_marks, now));
    }
    draft.changed_memories = !selected.empty();
    draft.affected_memories = affected;
    draft.notes = fmt::format("learn: harvested {} candidate(s) from {} archived task(s)",
                              selected.size(), run.scan.tasks_with_candidates);
    draft.plan.subject = fmt::format("vault(learn): harvest {} memory candidate{}", selected.size(),
                                     selected.size() == 1 ? "" : "s");

    const std::optional<std::string> log_text = context.snapshot.read(k_learn_log_path);
    TelemetryLog log = TelemetryLog::parse(
        k_learn_log_path, log_text ? std::optional<std::string_view>(*log_text) : std::nullopt,
        {"total_learn_harvest_runs", "total_memories_created"});
    log.append("learn_harvest", "learn_harvest", context.clock.now,
               Json{{"session_id", nullptr},
                    {"tasks_scanned", run.scan.tasks_scanned},
                    {"tasks_with_candidates", run.scan.tasks_with_candidates},
                    {"candidates_by_source",
                     {{"transcript", 0}, {"history_jsonl", run.scan.proposals.size()}}},
                    {"affected_memories", affected},
                    {"notes", draft.notes}});
    log.add("total_learn_harvest_runs", 1);
    log.add("total_memories_created", static_cast<std::int64_t>(created));
    draft.plan.write(std::string(k_learn_log_path), log.serialize());
    execution.summary = source_notes(run.scan);
    return execution;
  }
};

}  // namespace

std::unique_ptr<SubMode> make_learn() { return std::make_unique<Learn>(); }

}  // namespace gv::distill
