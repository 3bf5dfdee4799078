// The auto sub-mode (doc/sub-modes.md, "auto"): routine maintenance that applies only
// refine's Tier 1 fixes, with no prompt at all. That is a sanctioned exemption from the
// MANDATORY STOP (D6), and the output says so. It never runs Tier 2 refine, compress, purge,
// merge or the telemetry sub-modes.
//
// A run with nothing to fix prints the health score and writes nothing: no log entry and no
// commit, so a scheduled `--auto` does not add a commit every time it finds a clean vault.
#include <fmt/format.h>

#include <algorithm>

#include "core/distill/refine_rules.hpp"
#include "core/distill/sub_mode.hpp"
#include "core/scoring/report.hpp"
#include "core/snapshot/overlay_snapshot.hpp"
#include "core/util/text.hpp"
#include "core/vault/vault.hpp"

namespace gv::distill {
namespace {

constexpr std::string_view k_auto_exemption_note =
    "Auto mode applies only Tier 1 fixes, which need no selection;\n"
    "run `git vault distill --refine` to review Tier 2 suggestions.\n";

// Why auto leaves the other sub-modes alone, shown by the dry run.
constexpr std::string_view k_exclusions =
    "| Not run | Why |\n"
    "|---------|-----|\n"
    "| Compress | AI-generated summaries require human review |\n"
    "| Purge | Tombstoning decisions need user judgment |\n"
    "| Merge | Content combination needs user oversight |\n"
    "| Tier 2 Refine | Interactive fixes require user selection |\n"
    "| Revise, dream | Revising memories from recorded events or prompts needs a person's "
    "judgment |\n";

std::size_t count_fix(const std::vector<Tier1Fix>& fixes, std::string_view fix) {
  return static_cast<std::size_t>(std::count_if(
      fixes.begin(), fixes.end(), [&](const Tier1Fix& candidate) { return candidate.fix == fix; }));
}

std::size_t memory_count(const std::vector<Tier1Fix>& fixes) {
  std::vector<std::string> ids;
  for (const Tier1Fix& fix : fixes) {
    if (std::find(ids.begin(), ids.end(), fix.id) == ids.end()) {
      ids.push_back(fix.id);
    }
  }
  return ids.size();
}

std::string health_line(int score, scoring::HealthStatus status, std::string_view prefix) {
  return fmt::format("{}Health score{} {}/100 ({})\n", prefix, prefix.empty() ? ":" : "**:", score,
                     scoring::health_status_label(status));
}

class Auto final : public SubMode {
 public:
  [[nodiscard]] std::string_view name() const override { return "auto"; }
  [[nodiscard]] bool needs_selection() const override { return false; }

  [[nodiscard]] CandidateSet candidates(const SubModeContext& context) const override {
    CandidateSet set;
    set.json_key = "tier1";
    const RefineFixes fixes = tier1_fixes(context);
    if (fixes.tier1.empty()) {
      set.stop_message =
          "Auto distill: No changes needed. All memories have clean metadata.\n" +
          health_line(context.state.report.health_score, context.state.report.status, "");
      set.stop_message->pop_back();  // the skeleton adds the final newline
      return set;
    }
    for (const Tier1Fix& fix : fixes.tier1) {
      Candidate candidate;
      candidate.key = fix.id + ":" + fix.fix;
      candidate.label = fmt::format("{}: {}", fix.id, fix.fix);
      candidate.details = fix.outcome;
      candidate.json = {{"id", fix.id},
                        {"fix", fix.fix},
                        {"description", fix.description},
                        {"before", fix.before},
                        {"after", fix.after}};
      set.candidates.push_back(std::move(candidate));
    }
    set.dry_run_text = fmt::format("[DRY RUN] Auto distill would apply {} to {}:\n\n",
                                   util::plural(fixes.tier1.size(), "Tier 1 fix", "Tier 1 fixes"),
                                   util::plural(memory_count(fixes.tier1), "memory", "memories")) +
                       render_tier1_table(fixes.tier1) + "\n" + std::string(k_auto_exemption_note) +
                       "\n" + std::string(k_exclusions) + "\nNo changes made.\n";
    return set;
  }

  [[nodiscard]] Execution execute(const SubModeContext& context,
                                  const std::vector<Candidate>& /*selected*/) const override {
    const std::vector<RefineSubject> subjects =
        read_refine_subjects(context.state.vault, context.snapshot);
    RefineFixes fixes = find_refine_fixes(subjects);
    fixes.tier2.clear();  // never Tier 2
    RefineEdits edits = apply_refine_fixes(subjects, fixes, {}, context.clock.today);

    Execution execution;
    ActionDraft& draft = execution.draft;
    draft.type = "refine";  // auto logs as refine; `auto mode` in the notes tells them apart
    draft.plan.action = "auto";
    draft.changed_memories = !edits.files.empty();
    for (auto& [path, bytes] : edits.files) {
      draft.plan.write(path, std::move(bytes));
    }
    draft.plan.memories = edits.ids;
    draft.affected_memories = std::move(edits.affected);
    draft.notes = fmt::format("auto mode - Tier 1 fixes only. Applied {} to {}",
                              util::plural(edits.tier1_count, "fix", "fixes"),
                              util::plural(edits.ids.size(), "memory", "memories"));
    draft.plan.subject =
        edits.ids.size() == 1
            ? fmt::format("vault(auto): Tier 1 fixes in {}", edits.ids.front())
            : fmt::format("vault(auto): Tier 1 fixes in {} memories", edits.ids.size());

    // The health score after the fixes, as the log's post_metrics will record it.
    const OverlaySnapshot after(context.snapshot, draft.plan.changes);
    const scoring::Report report = scoring::build_report(
        load_vault(after).memories, context.clock.today, context.state.overrides);

    const std::size_t dedup = count_fix(fixes.tier1, k_fix_keyword_dedup);
    const std::size_t summaries = count_fix(fixes.tier1, k_fix_summary_gen);
    const std::size_t topics = count_fix(fixes.tier1, k_fix_topic_normalize);
    execution.summary = fmt::format(
        "## Auto Distill Complete\n\n"
        "| Fix Type | Count | Details |\n"
        "|----------|-------|---------|\n"
        "| Keyword dedup | {0} | Removed duplicates in {1} |\n"
        "| Summary gen | {2} | Generated summaries for {3} |\n"
        "| Topic normalize | {4} | Normalized topics in {5} |\n\n"
        "**Total fixes**: {6} across {7}\n",
        dedup, util::plural(dedup, "memory", "memories"), summaries,
        util::plural(summaries, "memory", "memories"), topics,
        util::plural(topics, "memory", "memories"), edits.tier1_count,
        util::plural(edits.ids.size(), "memory", "memories"));
    execution.summary += health_line(report.health_score, report.status, "**");
    execution.summary += "\n" + std::string(k_auto_exemption_note);
    return execution;
  }

 private:
  static RefineFixes tier1_fixes(const SubModeContext& context) {
    RefineFixes fixes =
        find_refine_fixes(read_refine_subjects(context.state.vault, context.snapshot));
    fixes.tier2.clear();
    return fixes;
  }
};

}  // namespace

std::unique_ptr<SubMode> make_auto() { return std::make_unique<Auto>(); }

}  // namespace gv::distill
