// The meta sub-mode: improvement proposals for the agent system from recurring deviations, blockers
// and reflections (doc/telemetry.md, "meta"; rules in core/distill/meta_rules.hpp, D10). It creates
// no tasks in another system: the selected proposals are noted in its log and report.

#include <fmt/format.h>

#include "core/distill/meta_rules.hpp"
#include "core/distill/sub_mode.hpp"
#include "core/distill/telemetry_inputs.hpp"
#include "core/distill/telemetry_log.hpp"
#include "core/distill/telemetry_support.hpp"
#include "core/util/text.hpp"

namespace gv::distill {
namespace {

using Json = nlohmann::ordered_json;

constexpr std::string_view k_scope_note =
    "Signal from this repository's specs/events.jsonl only: the store is per repository, so "
    "patterns that recur across repositories are not seen here.";

std::string evidence(const MetaProposal& proposal) {
  std::string out;
  for (std::size_t i = 0; i < proposal.evidence_ids.size(); ++i) {
    out += fmt::format("{}{} ({})", i == 0 ? "" : ", ", proposal.evidence_ids[i],
                       excerpt(proposal.evidence_messages[i], 60));
  }
  return out;
}

Json proposal_json(const MetaProposal& proposal) {
  return Json{{"key", proposal.key},
              {"summary", proposal.summary},
              {"rule", proposal.rule},
              {"checkpoint", proposal.checkpoint},
              {"affected_area", proposal.affected_area},
              {"sessions", proposal.sessions},
              {"evidence_event_ids", proposal.evidence_ids}};
}

std::string report(const std::vector<const MetaProposal*>& proposals, std::string_view title) {
  std::string out = fmt::format("## {}\n\n", title);
  for (const MetaProposal* proposal : proposals) {
    out += fmt::format("### {}\n\n- Rule: {}\n- Affected area: {}\n- Evidence: {}\n\n",
                       proposal->summary, proposal->rule, proposal->affected_area,
                       evidence(*proposal));
  }
  return out;
}

MetaResult read_meta_run(const SubModeContext& context) {
  const TelemetryInputs& inputs = telemetry_of(context, "meta");
  return find_meta_proposals(read_events(inputs, {}).events, inputs.terms);
}

class Meta final : public SubMode {
 public:
  [[nodiscard]] std::string_view name() const override { return "meta"; }

  [[nodiscard]] CandidateSet candidates(const SubModeContext& context) const override {
    const TelemetryInputs& inputs = telemetry_of(context, "meta");
    const MetaResult result = read_meta_run(context);
    CandidateSet set;
    set.none_selected_message = "No proposals selected. Nothing noted.";
    set.question = fmt::format(
        "meta surfaced {} recurring agent-system improvement candidates at {}. Select those to "
        "note in the proposals report (no tasks are created).",
        result.proposals.size(), inputs.repo_root);
    if (!result.any_signal()) {
      set.stop_message =
          "No agent-system improvement signal found in this repo's specs/events.jsonl or\n"
          "reflections. Nothing to propose this run.";
      return set;
    }
    if (result.proposals.empty()) {
      set.stop_message = fmt::format(
          "No improvement proposal: no deviation, blocker or reflection recurs in three distinct "
          "sessions ({} deviations, {} blockers, {} reflections read).\n{}",
          result.deviations, result.blockers, result.reflections, k_scope_note);
      return set;
    }
    set.dry_run_text =
        fmt::format("[DRY RUN] Improvement proposal candidates ({}):\n", result.proposals.size());
    for (const MetaProposal& proposal : result.proposals) {
      set.dry_run_text += fmt::format("  - {} (evidence: {}; affected area: {}) [rule {}]\n",
                                      proposal.summary, util::join(proposal.evidence_ids, ", "),
                                      proposal.affected_area, proposal.rule);
      Candidate candidate;
      candidate.key = proposal.key;
      candidate.label = fmt::format("{} [rule {}]", proposal.summary, proposal.rule);
      candidate.details = fmt::format(
          "Evidence: {} -- recurring at checkpoint '{}'\nAffected "
          "area: {}",
          evidence(proposal), proposal.checkpoint, proposal.affected_area);
      candidate.json = proposal_json(proposal);
      set.candidates.push_back(std::move(candidate));
    }
    set.dry_run_text += fmt::format(
        "\n{}\nExpect misses: these rules catch only recurring, recorded signals.\n\nNo tasks "
        "created.\n",
        k_scope_note);
    set.dry_run_json = Json{{"target_root", inputs.repo_root}};
    return set;
  }

  [[nodiscard]] Execution execute(const SubModeContext& context,
                                  const std::vector<Candidate>& selected) const override {
    const TelemetryInputs& inputs = telemetry_of(context, "meta");
    const MetaResult result = read_meta_run(context);
    std::vector<const MetaProposal*> noted;
    for (const Candidate& candidate : selected) {
      for (const MetaProposal& proposal : result.proposals) {
        if (proposal.key == candidate.key) {
          noted.push_back(&proposal);
        }
      }
    }
    Execution execution;
    ActionDraft& draft = execution.draft;
    draft.type = "meta";
    draft.refresh_health = false;  // D8: meta keeps its bookkeeping in its own log
    draft.notes =
        fmt::format("meta: {} of {} proposals noted", noted.size(), result.proposals.size());
    draft.plan.subject = fmt::format("vault(meta): note {} improvement proposal{}", noted.size(),
                                     noted.size() == 1 ? "" : "s");
    Json proposals = Json::array();
    for (const MetaProposal* proposal : noted) {
      proposals.push_back(proposal_json(*proposal));
    }
    draft.extra = Json{{"proposals", proposals}};

    const std::optional<std::string> log_text = context.snapshot.read(k_meta_log_path);
    TelemetryLog log = TelemetryLog::parse(
        k_meta_log_path, log_text ? std::optional<std::string_view>(*log_text) : std::nullopt,
        {"total_meta_runs", "total_proposals_created"});
    log.append("meta", "meta", context.clock.now,
               Json{{"session_id", nullptr},
                    {"target_root", inputs.repo_root},
                    {"proposals",
                     {{"surfaced", result.proposals.size()},
                      {"created_as_task", 0},
                      {"noted_only", noted.size()},
                      {"skipped", result.proposals.size() - noted.size()},
                      {"task_numbers_created", Json::array()}}},
                    {"noted", proposals},
                    {"notes", draft.notes}});
    log.add("total_meta_runs", 1);
    draft.plan.write(std::string(k_meta_log_path), log.serialize());
    execution.summary = report(noted, "Improvement proposals noted");
    return execution;
  }
};

}  // namespace

std::unique_ptr<SubMode> make_meta() { return std::make_unique<Meta>(); }

}  // namespace gv::distill
