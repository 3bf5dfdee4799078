// The gc sub-mode: hard-delete memories tombstoned at least 7 days ago (doc/sub-modes.md, "gc";
// doc/decisions.md, D5). The only destructive operation of the vault, so the grace period is
// checked on a date that is really there: a tombstone without a readable date is never collected.
#include <fmt/format.h>

#include <algorithm>
#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <unordered_map>
#include <vector>

#include "core/distill/sub_mode.hpp"
#include "core/error.hpp"
#include "core/scoring/score.hpp"
#include "core/snapshot/snapshot.hpp"
#include "core/util/row_limit.hpp"
#include "core/util/text.hpp"
#include "core/vault/vault.hpp"

namespace gv::distill {
namespace {

// The date a memory was tombstoned: its frontmatter, else its entry in the existing index
// (indexes written by the original scripts may hold the date the file lacks).
std::optional<Date> tombstone_date(const Memory& memory,
                                   const std::optional<ExistingIndex>& index) {
  if (memory.tombstoned_at) {
    return memory.tombstoned_at;
  }
  if (!index) {
    return std::nullopt;
  }
  for (const IndexEntryRecord& entry : index->entries) {
    if (entry.id == memory.id && entry.tombstoned_at) {
      return parse_date(*entry.tombstoned_at);
    }
  }
  return std::nullopt;
}

// The score a tombstoned memory had, for the prompt only: the scoring engine skips tombstoned
// memories (D5), so it is scored as if it alone were active again. Every component but the
// duplicate one reads the memory alone, and the duplicate one is its largest keyword overlap
// with an active memory, counted through the active memories' keywords, which are indexed once:
// scoring the whole vault again per candidate took seconds at 10,000 memories.
class RevivedScores {
 public:
  explicit RevivedScores(const Vault& vault) {
    for (const Memory& memory : vault.memories) {
      if (!memory.active()) {
        continue;
      }
      const auto holder = static_cast<std::uint32_t>(m_active);
      ++m_active;
      for (const std::string& key : keyword_keys(memory)) {
        m_holders[key].push_back(holder);
      }
    }
    m_shared.assign(m_active, 0);
  }

  double composite(const Memory& memory, Date today) {
    const std::set<std::string> own = keyword_keys(memory);
    std::uint32_t best = 0;
    std::vector<std::uint32_t> touched;
    for (const std::string& key : own) {
      const auto found = m_holders.find(key);
      if (found == m_holders.end()) {
        continue;
      }
      for (const std::uint32_t holder : found->second) {
        if (m_shared[holder]++ == 0) {
          touched.push_back(holder);
        }
        best = std::max(best, m_shared[holder]);
      }
    }
    for (const std::uint32_t holder : touched) {
      m_shared[holder] = 0;
    }
    const double duplicate =
        own.empty() ? 0.0 : static_cast<double>(best) / static_cast<double>(own.size());
    return scoring::composite_score(scoring::staleness_score(memory.created, memory.last_retrieved,
                                                             memory.retrieval_count, today),
                                    scoring::zero_retrieval_penalty(memory.topic, memory.created,
                                                                    memory.retrieval_count, today),
                                    scoring::size_penalty(memory.token_count), duplicate);
  }

 private:
  std::size_t m_active = 0;
  std::unordered_map<std::string, std::vector<std::uint32_t>> m_holders;
  std::vector<std::uint32_t> m_shared;  // per active memory, keys shared with the one scored
};

class Gc final : public SubMode {
 public:
  [[nodiscard]] std::string_view name() const override { return "gc"; }

  [[nodiscard]] CandidateSet candidates(const SubModeContext& context) const override {
    CandidateSet set;
    set.question =
        "Select tombstoned memories to permanently delete (one commit: `git vault revert` "
        "brings them back).";
    set.none_selected_message = "No memories selected for deletion. GC cancelled.";
    const Date today = context.clock.today;
    std::size_t tombstoned = 0;
    util::RowLimit rows(context.limit);
    std::optional<RevivedScores> revived;  // built for the first candidate
    // vault.memories is sorted by id, which is the dry run's order (doc/sub-modes.md,
    // "JSON output").
    for (const Memory& memory : context.state.vault.memories) {
      if (memory.active()) {
        continue;
      }
      tombstoned += 1;
      const std::optional<Date> at = tombstone_date(memory, context.state.existing_index);
      if (!at || days_between(today, *at) < scoring::k_gc_grace_days) {
        continue;
      }
      const std::string date = format_date(*at);
      const std::string reason =
          memory.tombstone_reason.empty() ? "unknown" : memory.tombstone_reason;
      Candidate candidate;
      candidate.key = memory.id;
      candidate.label = memory.id;
      candidate.details = fmt::format(
          "Tombstoned: {} | Reason: {} | Original score: {:.2f} | Tokens: {}", date, reason,
          (revived ? *revived : revived.emplace(context.state.vault)).composite(memory, today),
          memory.token_count);
      candidate.json = {{"id", memory.id},
                        {"tombstoned_at", date},
                        {"tombstone_reason", memory.tombstone_reason}};
      if (rows.next()) {
        set.dry_run_text +=
            fmt::format("  - {} (tombstoned: {}, reason: {})\n", memory.id, date, reason);
      }
      set.candidates.push_back(std::move(candidate));
    }
    if (set.candidates.empty()) {
      set.stop_message = fmt::format(
          "No tombstoned memories past the 7-day grace period.\n"
          "{} tombstoned memories are still within the grace period.",
          tombstoned);
      set.dry_run_text.clear();
      return set;
    }
    set.dry_run_text =
        fmt::format("[DRY RUN] Would permanently delete {}:\n{}{}\nNo changes made.\n",
                    util::plural(set.candidates.size(), "memory", "memories"), set.dry_run_text,
                    rows.rest_line());
    return set;
  }

  [[nodiscard]] Execution execute(const SubModeContext& context,
                                  const std::vector<Candidate>& selected) const override {
    Execution execution;
    ActionDraft& draft = execution.draft;
    draft.type = "gc";
    draft.changed_memories = true;
    for (const Candidate& candidate : selected) {
      const auto it =
          std::find_if(context.state.vault.memories.begin(), context.state.vault.memories.end(),
                       [&](const Memory& m) { return m.id == candidate.key; });
      // Only a tombstoned memory file is ever deleted, whatever the selection says.
      if (it == context.state.vault.memories.end() || it->active() || !is_memory_path(it->path)) {
        throw Error("{}: not a tombstoned memory; gc deletes nothing else", candidate.key);
      }
      draft.plan.remove(it->path);
      draft.plan.memories.push_back(it->id);
      draft.affected_memories.push_back(it->id);
    }
    draft.notes = fmt::format("Hard-deleted {} tombstoned memories", selected.size());
    draft.plan.subject =
        selected.size() == 1
            ? fmt::format("vault(gc): delete {}", selected.front().key)
            : fmt::format("vault(gc): delete {} tombstoned memories", selected.size());
    execution.summary = fmt::format("Deleted {} tombstoned {}.\n", selected.size(),
                                    selected.size() == 1 ? "memory" : "memories");
    return execution;
  }
};

}  // namespace

std::unique_ptr<SubMode> make_gc() { return std::make_unique<Gc>(); }

}  // namespace gv::distill
