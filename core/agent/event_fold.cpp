#include "core/agent/event_fold.hpp"

#include <fmt/format.h>

#include <string_view>
#include <unordered_set>
#include <variant>

#include "core/events/event.hpp"
#include "core/events/event_store.hpp"
#include "core/git/repo.hpp"
#include "core/landing/land.hpp"
#include "core/plan.hpp"
#include "core/snapshot/worktree_snapshot.hpp"
#include "core/util/locked_append.hpp"
#include "core/util/text.hpp"

namespace gv::agent {
namespace {

// Calls `visit` for every line of `bytes` (without its newline).
template <class Visit>
void each_line(std::string_view bytes, Visit visit) {
  std::size_t start = 0;
  while (start < bytes.size()) {
    std::size_t end = bytes.find('\n', start);
    if (end == std::string_view::npos) {
      end = bytes.size();
    }
    visit(bytes.substr(start, end - start));
    start = end + 1;
  }
}

}  // namespace

EventFold plan_event_fold(const git::Repo& repo, const Snapshot& work_tree) {
  EventFold fold;
  const std::optional<std::string> journal =
      util::read_locked(events::event_journal_path(repo.common_dir()), "the event journal");
  if (!journal || journal->empty()) {
    return fold;
  }
  fold.journal_bytes = journal->size();
  const std::string store_path(events::k_events_path);
  if (!repo.dirty_paths({store_path}).empty()) {
    fold.kept = fmt::format(
        "{} has uncommitted changes; commit them and the next maintenance commit folds it",
        store_path);
    return fold;
  }
  std::string store = work_tree.read(store_path).value_or("");
  std::unordered_set<std::string> stored;
  each_line(store, [&](std::string_view line) {
    auto parsed = events::parse_event_line(line);
    if (auto* event = std::get_if<events::Event>(&parsed)) {
      stored.insert(event->event_id);
    }
  });
  // Appends hold the journal's lock and the read took it shared, so a line that does not parse
  // is one a crash tore: dropped with the rest, and counted.
  std::string added;
  each_line(*journal, [&](std::string_view line) {
    if (util::trim(line).empty()) {
      return;
    }
    auto parsed = events::parse_event_line(line);
    auto* event = std::get_if<events::Event>(&parsed);
    if (event == nullptr) {
      ++fold.bad_lines;
      return;
    }
    if (!stored.insert(event->event_id).second) {
      ++fold.already_stored;
      return;
    }
    added.append(line);
    added += '\n';
    ++fold.events;
  });
  if (!added.empty()) {
    if (!store.empty() && store.back() != '\n') {
      store += '\n';
    }
    fold.store = store + added;
  }
  return fold;
}

EventFoldResult fold_event_journal(git::Repo& repo, Date today) {
  EventFoldResult result;
  const std::string store_path(events::k_events_path);
  std::optional<git::ReadState> state = git::capture_read_state(repo, {store_path});
  const WorktreeSnapshot work_tree(repo.workdir());
  const EventFold fold = plan_event_fold(repo, work_tree);
  result.kept = fold.kept;
  result.bad_lines = fold.bad_lines;
  if (!fold.kept.empty() || fold.journal_bytes == 0) {
    return result;
  }
  if (fold.store) {
    Plan plan;
    plan.write(store_path, *fold.store);
    plan.subject = fmt::format("vault(events): fold {} into {}",
                               util::plural(fold.events, "event", "events"), store_path);
    plan.action = "events";
    landing::Context context;
    context.clock.today = today;
    landing::Target target;
    target.guarded_paths = {store_path};
    target.read_state = std::move(state);
    result.commit = landing::land(repo, work_tree, std::move(plan), context, target).commit;
    result.events = fold.events;
  }
  // The commit holds them (or the store already did, or they were torn): out of the journal,
  // and whatever was appended since stays.
  util::drop_prefix(events::event_journal_path(repo.common_dir()), fold.journal_bytes,
                    "the event journal");
  return result;
}

}  // namespace gv::agent
