// The purge sub-mode: tombstone stale or never-retrieved memories (doc/sub-modes.md, "purge").
#include <fmt/format.h>

#include <algorithm>
#include <string>
#include <vector>

#include "core/distill/sub_mode.hpp"
#include "core/error.hpp"
#include "core/memory/frontmatter_edit.hpp"
#include "core/scoring/score.hpp"
#include "core/snapshot/snapshot.hpp"
#include "core/util/row_limit.hpp"
#include "core/util/text.hpp"
#include "core/vault/vault.hpp"

namespace gv::distill {
namespace {

// Active memories that still link to a memory this run tombstones. Reported, never rewritten:
// the Connections edits are left to the user.
std::vector<std::pair<std::string, std::string>> link_scan(const Vault& vault,
                                                           const std::vector<Candidate>& selected) {
  std::vector<std::pair<std::string, std::string>> stale;  // (referencing path, target id)
  for (const Memory& memory : vault.memories) {
    if (!memory.active()) {
      continue;
    }
    const bool purged_itself = std::any_of(selected.begin(), selected.end(),
                                           [&](const Candidate& c) { return c.key == memory.id; });
    if (purged_itself) {
      continue;
    }
    for (const Candidate& candidate : selected) {
      if (std::find(memory.links.begin(), memory.links.end(), candidate.key) !=
          memory.links.end()) {
        stale.emplace_back(memory.path, candidate.key);
      }
    }
  }
  return stale;
}

// Why the rule picked a memory (never retrieved, or stale), and its TTL, in the words a reviewer
// checks it by.
// `evidence` is false while nothing in the repository has ever recorded a retrieval: "never
// retrieved" then says nothing about the memory (doc/sub-modes.md, "Where the signals come
// from"), and the reason says so.
std::string why_candidate(const scoring::PurgeCandidate& c, bool evidence) {
  std::vector<std::string> why;
  if (c.zero_retrieval == 1.0) {
    why.emplace_back(evidence
                         ? "never retrieved"
                         : "never retrieved (no evidence: no retrieval was ever recorded here)");
  }
  if (scoring::above(c.staleness, scoring::k_purge_staleness_threshold)) {
    why.push_back(fmt::format("staleness {:.2f} > {:.2f}", c.staleness,
                              scoring::k_purge_staleness_threshold));
  }
  if (c.past_ttl) {
    why.push_back(fmt::format("TTL expired by {} {}", c.ttl_excess_days,
                              c.ttl_excess_days == 1 ? "day" : "days"));
  }
  return util::join(why, ", ");
}

class Purge final : public SubMode {
 public:
  [[nodiscard]] std::string_view name() const override { return "purge"; }

  [[nodiscard]] CandidateSet candidates(const SubModeContext& context) const override {
    CandidateSet set;
    set.question =
        "Select memories to tombstone (purge). Tombstoned memories are excluded from retrieval "
        "but preserved on disk for 7 days before gc can hard-delete them.";
    set.none_selected_message = "No memories selected for purge. Operation cancelled.";
    const auto ranked = scoring::purge_candidates(context.state.report.scores, context.clock.today);
    if (ranked.empty()) {
      set.stop_message =
          "No purge candidates found. All memories are healthy or already tombstoned.";
      return set;
    }
    const bool evidence =
        !context.state.report.recording || context.state.report.recording->retrievals;
    set.dry_run_text = fmt::format("[DRY RUN] Would tombstone {} memories:\n", ranked.size());
    if (!evidence) {
      set.dry_run_text +=
          "  Note: no retrieval has ever been recorded in this repository, so \"never "
          "retrieved\" is no evidence that a memory is unused (`git vault init --agent claude` "
          "records them).\n";
    }
    util::RowLimit rows(context.limit);
    for (const scoring::PurgeCandidate& c : ranked) {
      Candidate candidate;
      candidate.key = c.id;
      candidate.label = c.id;
      candidate.details =
          fmt::format("Score: {:.2f} | Created: {} | Retrievals: {} | Tokens: {} | Category: {}{}",
                      c.composite, format_date(c.created), c.retrieval_count, c.token_count,
                      c.category.empty() ? "(none)" : c.category,
                      c.past_ttl ? fmt::format(" | PAST TTL by {}d", c.ttl_excess_days) : "");
      candidate.json = {{"id", c.id},
                        {"composite", c.composite},
                        {"category", c.category},
                        {"past_ttl", c.past_ttl},
                        {"ttl_excess_days", c.ttl_excess_days},
                        {"never_retrieved", c.zero_retrieval == 1.0},
                        {"retrieval_evidence", evidence}};
      if (rows.next()) {
        set.dry_run_text +=
            fmt::format("  - {} (score: {:.2f}, category: {}): {}\n", c.id, c.composite,
                        c.category.empty() ? "(none)" : c.category, why_candidate(c, evidence));
      }
      set.candidates.push_back(std::move(candidate));
    }
    set.dry_run_text += rows.rest_line() + "\nNo changes made.\n";
    return set;
  }

  [[nodiscard]] Execution execute(const SubModeContext& context,
                                  const std::vector<Candidate>& selected) const override {
    Execution execution;
    ActionDraft& draft = execution.draft;
    draft.type = "purge";
    draft.changed_memories = true;
    const std::string today = format_date(context.clock.today);
    const MemoriesById by_id(context.state.vault);
    for (const Candidate& candidate : selected) {
      const Memory* memory = by_id.find(candidate.key);
      if (memory == nullptr) {
        throw Error("{}: no such memory", candidate.key);
      }
      const std::optional<std::string> bytes = context.snapshot.read(memory->path);
      if (!bytes) {
        throw Error("{}: cannot read", memory->path);
      }
      FrontmatterEditor editor(memory->path, *bytes);
      editor.insert_fields({{"status", "tombstoned"},
                            {"tombstoned_at", today},
                            {"tombstone_reason", yaml_double_quoted("purge")}},
                           "summary", "token_count");
      draft.plan.write(memory->path, editor.bytes());
      draft.plan.memories.push_back(memory->id);
      draft.affected_memories.push_back(memory->id);
    }

    const auto stale = link_scan(context.state.vault, selected);
    std::string warnings;
    for (const auto& [path, target] : stale) {
      const std::string file = path.substr(path.rfind('/') + 1);
      warnings += fmt::format("{}{}->{}", warnings.empty() ? "" : ", ", file, target);
    }
    draft.notes = fmt::format("Tombstoned {} memories. Link-scan warnings: {}", selected.size(),
                              warnings.empty() ? "none" : warnings);
    draft.plan.subject = selected.size() == 1
                             ? fmt::format("vault(purge): tombstone {}", selected.front().key)
                             : fmt::format("vault(purge): tombstone {} memories", selected.size());

    if (stale.empty()) {
      execution.summary = "Link-scan: No stale references found.\n";
    } else {
      execution.summary =
          "## Link-Scan Warnings\n\nThe following active memories reference tombstoned memories:\n";
      // Cut at --limit like every list a person reads (thousands at 10,000 memories); the log
      // entry's notes keep every one.
      std::size_t shown = 0;
      for (const auto& [path, target] : stale) {
        if (context.limit == 0 || shown < context.limit) {
          execution.summary += fmt::format("- {} -> [[{}]] (tombstoned)\n", path, target);
          ++shown;
        }
      }
      if (shown < stale.size()) {
        execution.summary += fmt::format(
            "... and {} more (`--limit 0` lists them all; the log entry's notes name every one)\n",
            stale.size() - shown);
      }
      execution.summary +=
          "\nThese references will become stale. Consider manually updating the Connections "
          "section\nin the above files to remove or replace the references.\n";
    }
    return execution;
  }
};

}  // namespace

std::unique_ptr<SubMode> make_purge() { return std::make_unique<Purge>(); }

}  // namespace gv::distill
