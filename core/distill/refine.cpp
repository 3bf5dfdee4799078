// The refine sub-mode (doc/sub-modes.md, "refine"): Tier 1 metadata fixes applied without a
// selection (a sanctioned exemption from the MANDATORY STOP, D6) and Tier 2 suggestions the user
// selects.
//
// Without a terminal and without --select/--all the skeleton applies Tier 1 alone and says
// which flags choose Tier 2, exiting 0: D6 names refine's Tier 1 as an exemption from the
// selection, so refusing the whole run would withhold exactly what the decision allows. A run
// whose only fixes are Tier 2 still needs a selection and is refused like any other sub-mode.
#include <fmt/format.h>

#include "core/distill/refine_rules.hpp"
#include "core/distill/sub_mode.hpp"
#include "core/util/row_limit.hpp"
#include "core/util/text.hpp"
#include "core/vault/vault.hpp"

namespace gv::distill {
namespace {

constexpr std::string_view k_exemption_note =
    "Tier 1 fixes are applied without a selection: they are mechanical and need none.\n";

std::vector<std::string> keys_of(const std::vector<Candidate>& selected) {
  std::vector<std::string> keys;
  for (const Candidate& candidate : selected) {
    keys.push_back(candidate.key);
  }
  return keys;
}

class Refine final : public SubMode {
 public:
  [[nodiscard]] std::string_view name() const override { return "refine"; }

  [[nodiscard]] CandidateSet candidates(const SubModeContext& context) const override {
    CandidateSet set;
    set.question = "Select quality improvements to apply (Tier 2 - interactive fixes):";
    set.none_selected_message =
        "No Tier 2 fixes selected. Only Tier 1 automatic fixes were applied.";
    const std::vector<RefineSubject> subjects =
        read_refine_subjects(context.state.vault, context.snapshot);
    if (subjects.empty()) {
      set.stop_message = "No memories in vault to refine.";
      return set;
    }
    const RefineFixes fixes = find_refine_fixes(subjects);
    if (fixes.tier1.empty() && fixes.tier2.empty()) {
      set.stop_message = "No quality issues found. All memories have clean metadata.";
      return set;
    }

    set.dry_run_json["tier1"] = nlohmann::ordered_json::array();
    for (const Tier1Fix& fix : fixes.tier1) {
      set.dry_run_json["tier1"].push_back({{"id", fix.id},
                                           {"fix", fix.fix},
                                           {"description", fix.description},
                                           {"before", fix.before},
                                           {"after", fix.after}});
    }
    if (!fixes.tier1.empty()) {
      set.automatic_text = render_tier1_table(fixes.tier1) + "\n" + std::string(k_exemption_note);
    }

    set.dry_run_text =
        fmt::format("[DRY RUN] Would apply {} Tier 1 fixes and offer {} Tier 2 fixes:\n",
                    fixes.tier1.size(), fixes.tier2.size());
    if (!fixes.tier1.empty()) {
      set.dry_run_text += "\n" + render_tier1_table(fixes.tier1);
    }
    if (!fixes.tier2.empty()) {
      set.dry_run_text +=
          fmt::format("\n## Refine Candidates ({} issues found)\n\n", fixes.tier2.size());
    }
    util::RowLimit rows(context.limit);
    for (const Tier2Fix& fix : fixes.tier2) {
      Candidate candidate;
      candidate.key = fix.key();
      candidate.label = fmt::format("{}: {}", fix.id, fix.fix);
      candidate.details =
          fmt::format("{} | Current: {} | Suggested: {}\nRule: {}", fix.description,
                      describe_value(fix.current), describe_value(fix.suggested), fix.rule);
      candidate.json = {{"key", candidate.key},   {"id", fix.id},
                        {"fix", fix.fix},         {"description", fix.description},
                        {"current", fix.current}, {"suggested", fix.suggested},
                        {"rule", fix.rule}};
      if (rows.next()) {
        set.dry_run_text += fmt::format("  - {} | {} | Current: {} | Suggested: {}\n    Rule: {}\n",
                                        candidate.key, fix.description, describe_value(fix.current),
                                        describe_value(fix.suggested), fix.rule);
      }
      set.candidates.push_back(std::move(candidate));
    }
    set.dry_run_text += rows.rest_line() + "\nNo changes made.\n";
    return set;
  }

  [[nodiscard]] Execution execute(const SubModeContext& context,
                                  const std::vector<Candidate>& selected) const override {
    const std::vector<RefineSubject> subjects =
        read_refine_subjects(context.state.vault, context.snapshot);
    const RefineFixes fixes = find_refine_fixes(subjects);
    RefineEdits edits = apply_refine_fixes(subjects, fixes, keys_of(selected), context.clock.today);

    Execution execution;
    ActionDraft& draft = execution.draft;
    draft.type = "refine";
    draft.changed_memories = !edits.files.empty();
    for (auto& [path, bytes] : edits.files) {
      draft.plan.write(path, std::move(bytes));
    }
    draft.plan.memories = edits.ids;
    draft.affected_memories = std::move(edits.affected);
    const std::string outcome = fmt::format("Refined {}. Tier 1: {}, Tier 2: {}",
                                            util::plural(edits.ids.size(), "memory", "memories"),
                                            util::plural(edits.tier1_count, "fix", "fixes"),
                                            util::plural(edits.tier2_count, "fix", "fixes"));
    draft.notes = outcome;
    const std::size_t fix_count = edits.tier1_count + edits.tier2_count;
    if (edits.ids.size() == 1) {
      std::vector<std::string> names;
      for (const auto& fix : draft.affected_memories.front()["fixes_applied"]) {
        names.push_back(fix.get<std::string>());
      }
      draft.plan.subject =
          fmt::format("vault(refine): refine {} ({})", edits.ids.front(), fmt::join(names, ", "));
    } else {
      draft.plan.subject =
          fmt::format("vault(refine): refine {} memories ({} fixes)", edits.ids.size(), fix_count);
    }

    if (edits.tier2_count > 0) {
      execution.summary =
          "## Tier 2 Fixes Applied\n\n| Memory | Fix | Change |\n|--------|-----|--------|\n";
      for (const Candidate& candidate : selected) {
        for (const Tier2Fix& fix : fixes.tier2) {
          if (fix.key() != candidate.key) {
            continue;
          }
          execution.summary +=
              fix.fix == k_fix_keyword_enrich
                  ? fmt::format("| {} | {} | Added {} |\n", fix.id, fix.fix,
                                describe_value(fix.suggested))
                  : fmt::format("| {} | {} | {} -> {} |\n", fix.id, fix.fix,
                                describe_value(fix.current), describe_value(fix.suggested));
        }
      }
      execution.summary += "\n";
    }
    execution.summary += outcome + "\n";
    return execution;
  }
};

}  // namespace

std::unique_ptr<SubMode> make_refine() { return std::make_unique<Refine>(); }

}  // namespace gv::distill
