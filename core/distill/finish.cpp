#include "core/distill/finish.hpp"

#include <fmt/format.h>

#include <set>

#include "core/distill/log.hpp"
#include "core/distill/memory_health.hpp"
#include "core/distill/vault_state.hpp"
#include "core/vault/regenerate.hpp"

namespace gv::distill {

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
      context.committed != nullptr
          ? regenerate_index_files(done.plan, *context.committed,
                                   read_existing_index(*context.committed), today, cache, verbatim)
          : regenerate_index_files(done.plan, before, pre.existing_index, today, cache, verbatim);
  done.regenerated = std::move(regeneration.regenerated);
  done.carried = std::move(regeneration.carried);
  done.generated = std::move(regeneration.record);
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
  if (draft.forget_text_of) {
    log.forget_read_text(*draft.forget_text_of);
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

  done.plan.log_id = done.log_id;
  if (done.plan.action.empty()) {
    done.plan.action = draft.type;
  }
  if (!draft.refresh_health) {
    return done;
  }
  HealthRefresh refresh;
  refresh.now = context.clock.now;
  refresh.cursor = draft.health_cursor;
  refresh.restore = draft.restore_cursors;
  refresh.total_memories = static_cast<std::int64_t>(done.post.total_memories);
  refresh.never_retrieved = static_cast<std::int64_t>(done.post.never_retrieved);
  refresh.health_score = done.post.health_score;
  refresh.status = std::string{scoring::health_status_label(done.post.status)};
  refresh.changed_memories = draft.changed_memories;
  const std::optional<std::string> state = before.read(k_state_path);
  // specs/state.json is a file git-vault shares with other tools: refreshed where the repository
  // keeps one (or keeps specs/ for them), never created as a new top-level folder (D8). The
  // distill log holds the same numbers, and the telemetry cursors are read from it then.
  if (!state && before.list("specs/").empty()) {
    return done;
  }
  done.plan.write(std::string{k_state_path},
                  refresh_memory_health(
                      state ? std::optional<std::string_view>(*state) : std::nullopt, refresh));
  return done;
}

}  // namespace gv::distill
