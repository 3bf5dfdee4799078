#include "core/agent/fold.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <map>

#include "core/git/repo.hpp"
#include "core/landing/land.hpp"
#include "core/memory/frontmatter_edit.hpp"
#include "core/memory/parse.hpp"
#include "core/snapshot/worktree_snapshot.hpp"
#include "core/util/shared_log.hpp"
#include "core/util/text.hpp"
#include "core/vault/regenerate.hpp"
#include "core/vault/vault.hpp"

namespace gv::agent {

FoldPlan plan_fold(const Snapshot& snapshot, const JournalTotals& totals, ParseCache* cache) {
  FoldPlan fold;
  if (totals.by_id.empty()) {
    return fold;
  }
  const Vault vault = load_vault(snapshot, cache);
  const std::optional<ExistingIndex> existing = read_existing_index(snapshot);
  std::map<std::string, const IndexEntryRecord*, std::less<>> indexed;
  if (existing) {
    for (const IndexEntryRecord& entry : existing->entries) {
      indexed.emplace(entry.id, &entry);
    }
  }
  // Sorted ids keep the plan and the Vault-Memories trailer deterministic.
  std::map<std::string, scoring::PendingRetrievals> pending(totals.by_id.begin(),
                                                            totals.by_id.end());
  for (const auto& [id, retrievals] : pending) {
    const Memory* memory = find_memory(vault, id);
    const std::optional<std::string> bytes =
        memory != nullptr ? snapshot.read(memory->path) : std::nullopt;
    if (!bytes) {
      fold.unknown += static_cast<std::size_t>(retrievals.count);
      continue;
    }
    std::int64_t base = memory->retrieval_count;
    std::optional<Date> last = memory->last_retrieved;
    if (const auto found = indexed.find(id); found != indexed.end()) {
      base = std::max(base, found->second->retrieval_count);
      if (found->second->last_retrieved && (!last || *last < *found->second->last_retrieved)) {
        last = found->second->last_retrieved;
      }
    }
    if (retrievals.last_retrieved && (!last || *last < *retrievals.last_retrieved)) {
      last = retrievals.last_retrieved;
    }
    FrontmatterEditor editor(memory->path, *bytes);
    editor.set_scalar("retrieval_count", std::to_string(base + retrievals.count));
    if (last) {
      editor.set_scalar("last_retrieved", format_date(*last));
    }
    fold.plan.write(memory->path, editor.bytes());
    fold.memories.push_back(id);
    fold.records += static_cast<std::size_t>(retrievals.count);
  }
  if (fold.plan.empty()) {
    return fold;
  }
  fold.plan.subject = fmt::format("vault(retrievals): fold {} into {}",
                                  util::plural(fold.records, "retrieval", "retrievals"),
                                  util::plural(fold.memories.size(), "memory", "memories"));
  fold.plan.action = "retrievals";
  fold.plan.memories = fold.memories;
  return fold;
}

namespace {

// Folds the journal's records into frontmatter as one commit that also consumes them: the
// landing drops the journal's prefix it read once the branch has moved (git::ApplyOptions::
// consumes), so the commit and the emptying are one recoverable step.
FoldResult fold_read(const JournalContents& journal, git::Repo& repo, Date today, bool allow_dirty,
                     ParseCache* cache, const std::optional<git::ReadState>& read_state) {
  FoldResult result;
  if (journal.totals.records == 0 && journal.totals.bad_lines == 0) {
    return result;
  }
  // Taken before the read (git::capture_read_state), unless the caller read the vault already.
  std::optional<git::ReadState> state = read_state;
  if (!state) {
    state = git::capture_read_state(repo, {std::string(vault_path::k_root)});
  }
  const WorktreeSnapshot snapshot(repo.workdir());
  FoldPlan fold = plan_fold(snapshot, journal.totals, cache);
  if (!fold.plan.empty()) {
    landing::Context context;
    context.clock.today = today;
    context.cache = cache;
    landing::Target target;
    target.allow_dirty = allow_dirty;
    target.guarded_paths = {std::string(vault_path::k_root)};
    target.read_state = std::move(state);
    target.consumes = journal.read;
    result.commit = landing::land(repo, snapshot, landing::IndexRegeneration{std::move(fold.plan)},
                                  context, target)
                        .commit;
  } else {
    // Records of deleted memories and torn lines alone have nowhere to go: dropped, no commit.
    (void)util::drop_prefix(journal.read);
  }
  result.bad_lines = journal.totals.bad_lines;
  result.unknown = fold.unknown;
  result.records = fold.records;
  result.memories = std::move(fold.memories);
  return result;
}

// Adds `retrievals` to the counts written in `bytes` (a memory file an action rewrites).
std::string add_retrievals(std::string_view path, std::string_view bytes,
                           const scoring::PendingRetrievals& retrievals) {
  const ParsedMemory parsed = parse_memory(path, bytes, {});
  if (!parsed.memory) {
    return std::string(bytes);
  }
  std::optional<Date> last = parsed.memory->last_retrieved;
  if (retrievals.last_retrieved && (!last || *last < *retrievals.last_retrieved)) {
    last = retrievals.last_retrieved;
  }
  FrontmatterEditor editor(path, bytes);
  editor.set_scalar("retrieval_count",
                    std::to_string(parsed.memory->retrieval_count + retrievals.count));
  if (last) {
    editor.set_scalar("last_retrieved", format_date(*last));
  }
  return editor.bytes();
}

JournalContents read_for_fold(const git::Repo& repo) {
  return read_journal_contents(journal_path(repo.common_dir()), git::landed_consumptions(repo));
}

}  // namespace

FoldResult fold_journal(git::Repo& repo, Date today, bool allow_dirty, ParseCache* cache) {
  return fold_read(read_for_fold(repo), repo, today, allow_dirty, cache, std::nullopt);
}

FoldResult fold_before_action(git::Repo& repo, Plan& action, Date today, bool allow_dirty,
                              ParseCache* cache, const std::optional<git::ReadState>& read_state) {
  const JournalContents journal = read_for_fold(repo);
  FoldResult result = fold_read(journal, repo, today, allow_dirty, cache, read_state);
  if (!result.commit) {
    return result;
  }
  for (const std::string& id : result.memories) {
    const auto written = action.changes.find(memory_path(id));
    if (written == action.changes.end() || !written->second) {
      continue;
    }
    written->second = add_retrievals(written->first, *written->second, journal.totals.by_id.at(id));
  }
  return result;
}

}  // namespace gv::agent
