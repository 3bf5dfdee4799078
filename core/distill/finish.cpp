#include "core/distill/finish.hpp"

#include <fmt/format.h>

#include <set>

#include "core/distill/log.hpp"
#include "core/distill/memory_health.hpp"
#include "core/distill/vault_state.hpp"
#include "core/memory/frontmatter_edit.hpp"
#include "core/memory/parse.hpp"
#include "core/snapshot/overlay_snapshot.hpp"
#include "core/vault/index_carry_over.hpp"
#include "core/vault/index_check.hpp"
#include "core/vault/index_files.hpp"

namespace gv::distill {
namespace {

// D3: a rewritten memory file never keeps a stale `token_count`.
void refresh_token_counts(Plan& plan, const Vault& after, const std::set<std::string>& verbatim) {
  for (const Memory& memory : after.memories) {
    auto it = plan.changes.find(memory.path);
    if (it == plan.changes.end() || !it->second || verbatim.count(memory.path) != 0) {
      continue;
    }
    FrontmatterEditor editor(memory.path, *it->second);
    if (editor.has("token_count")) {
      editor.set_scalar("token_count", std::to_string(memory.token_count));
      it->second = editor.bytes();
    }
  }
}

// D4: counts the old index kept (and the memory files did not) move into frontmatter before
// the index is regenerated, so regeneration never loses them.
std::vector<std::string> carry_retrievals(Plan& plan, const Snapshot& view, const Vault& after,
                                          const std::optional<ExistingIndex>& existing) {
  std::vector<std::string> carried;
  if (!existing) {
    return carried;
  }
  for (const RetrievalCarry& carry : retrieval_carry_over(after.memories, *existing)) {
    const std::string path = memory_path(carry.id);
    const std::optional<std::string> bytes = view.read(path);
    if (!bytes) {
      continue;
    }
    FrontmatterEditor editor(path, *bytes);
    if (carry.retrieval_count) {
      editor.set_scalar("retrieval_count", std::to_string(*carry.retrieval_count));
    }
    if (carry.last_retrieved) {
      editor.set_scalar("last_retrieved", format_date(*carry.last_retrieved));
    }
    plan.write(path, editor.bytes());
    carried.push_back(carry.id);
  }
  return carried;
}

}  // namespace

Regeneration regenerate_index_files(Plan& plan, const Snapshot& before,
                                    const std::optional<ExistingIndex>& existing, Date today,
                                    ParseCache* cache, const std::set<std::string>& verbatim) {
  Regeneration result;
  {
    const OverlaySnapshot edited(before, plan.changes);
    const Vault after_edits = load_vault(edited, cache);
    result.carried = carry_retrievals(plan, edited, after_edits, existing);
  }
  const OverlaySnapshot after_view(before, plan.changes);
  result.after = load_vault(after_view, cache);
  refresh_token_counts(plan, result.after, verbatim);
  const IndexFiles fresh = render_index_files(result.after.memories, today);
  for (FileWrite& write : plan_index_writes(fresh, read_index_files(after_view))) {
    result.regenerated.push_back(write.path);
    plan.write(std::move(write.path), std::move(write.bytes));
  }
  return result;
}

FinishedAction finish_action(ActionDraft draft, const Snapshot& before,
                             const FinishContext& context) {
  const Date today = context.clock.today;
  InMemoryParseCache local_cache;
  ParseCache* cache = context.cache != nullptr ? context.cache : &local_cache;
  const VaultState pre = read_vault_state(before, today, cache);

  FinishedAction done;
  done.plan = std::move(draft.plan);
  std::set<std::string> verbatim;
  if (draft.verbatim) {
    for (const auto& [path, bytes] : done.plan.changes) {
      verbatim.insert(path);
    }
  }
  done.pre = scoring::vault_metrics(pre.report);
  Regeneration regeneration =
      regenerate_index_files(done.plan, before, pre.existing_index, today, cache, verbatim);
  done.regenerated = std::move(regeneration.regenerated);
  done.carried = std::move(regeneration.carried);
  done.post = scoring::vault_metrics(scoring::build_report(regeneration.after.memories, today));

  DistillLog log;
  if (const auto text = before.read(k_log_path)) {
    log = DistillLog::parse(k_log_path, *text);
  }
  for (const OperationView& entry : log.operations()) {
    if (!entry.commit) {
      if (const auto it = context.commits_by_log_id.find(entry.id);
          it != context.commits_by_log_id.end()) {
        log.set_commit(entry.id, it->second);
      }
    }
  }
  NewOperation operation;
  operation.type = draft.type;
  operation.timestamp = context.clock.now;
  operation.pre = done.pre;
  operation.post = done.post;
  operation.affected_memories = std::move(draft.affected_memories);
  operation.notes = std::move(draft.notes);
  if (!done.regenerated.empty() && draft.type == "report") {
    operation.notes +=
        fmt::format("{}validate-on-read regenerated {}", operation.notes.empty() ? "" : "; ",
                    fmt::join(done.regenerated, ", "));
  }
  operation.parent_commit = context.parent_commit;
  operation.extra = std::move(draft.extra);
  done.log_id = log.append(operation);
  done.plan.write(std::string{k_log_path}, log.serialize());

  HealthRefresh refresh;
  refresh.now = context.clock.now;
  refresh.total_memories = static_cast<std::int64_t>(done.post.total_memories);
  refresh.never_retrieved = static_cast<std::int64_t>(done.post.never_retrieved);
  refresh.health_score = done.post.health_score;
  refresh.status = std::string{scoring::health_status_label(done.post.status)};
  refresh.changed_memories = draft.changed_memories;
  const std::optional<std::string> state = before.read(k_state_path);
  done.plan.write(std::string{k_state_path},
                  refresh_memory_health(
                      state ? std::optional<std::string_view>(*state) : std::nullopt, refresh));
  done.plan.log_id = done.log_id;
  if (done.plan.action.empty()) {
    done.plan.action = draft.type;
  }
  return done;
}

}  // namespace gv::distill
