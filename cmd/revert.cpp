#include <fmt/format.h>

#include <CLI/CLI.hpp>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "cmd/action.hpp"
#include "cmd/command.hpp"
#include "core/error.hpp"
#include "core/git/repo.hpp"
#include "core/landing/land.hpp"
#include "core/landing/land_recall.hpp"
#include "core/landing/revert_search.hpp"
#include "core/session/session.hpp"
#include "core/snapshot/worktree_snapshot.hpp"
#include "core/util/text.hpp"

namespace gv::cmd {
namespace revert_command {

struct Options {
  std::string target;
  bool force = false;
  LandingFlags landing;
};

using landing::short_id;

// A working-memory maintenance commit keeps no distill log: its revert restores its files as
// one commit of their own, which `git vault log` lists beside it.
int revert_recall(Session& session, const Snapshot& snapshot, const landing::RevertSearch& search,
                  const Options& options) {
  git::Repo& repo = session.repo();
  landing::RecallOptions recall;
  recall.commit = !options.landing.no_commit;
  recall.allow_dirty = options.landing.allow_dirty;
  recall.read_state = git::capture_read_state(repo, landing::recall_guarded_paths());
  const Plan plan = landing::recall_revert_plan(search);
  const std::size_t files = plan.changes.size();
  const landing::RecallOutcome outcome =
      landing::land_recall_maintain(repo, snapshot, plan, recall);
  if (session.output().quiet) {
    return exit_code::k_ok;
  }
  std::string said = fmt::format("Reverted {} ({}): restored {}.\n", short_id(search.action.id),
                                 search.action.summary, util::plural(files, "file", "files"));
  if (outcome.commit) {
    said += fmt::format("[{} {}] {}\nUndo with: git revert {}\n", repo.head_branch(),
                        outcome.commit->substr(0, 7), plan.subject, outcome.commit->substr(0, 12));
  } else {
    said += "Written to the work tree, not committed.\n";
  }
  std::fputs(said.c_str(), stderr);
  return exit_code::k_ok;
}

int run(const Options& options, Session& session) {
  git::Repo& repo = session.repo();
  LandingFlags landing = options.landing;
  landing.read_state = git::capture_read_state(repo, landing::k_action_guarded_paths);
  const landing::RevertSearch search = landing::find_revert(repo, options.target, options.force);
  const git::CommitInfo& action = search.action;
  if (search.status == landing::RevertSearch::Status::nothing_changed) {
    std::fputs(fmt::format("git-vault: {} ({}) changed no memory files; nothing to revert.\n",
                           short_id(action.id), action.summary)
                   .c_str(),
               stderr);
    return exit_code::k_no;
  }
  if (search.status == landing::RevertSearch::Status::already_reverted) {
    const std::string how =
        search.reverted_by ? fmt::format("{} ({}) reverted it", short_id(search.reverted_by->id),
                                         search.reverted_by->summary)
                           : std::string("its files are back as they were before it");
    std::fputs(fmt::format("git-vault: {} ({}) is already undone: {}; nothing to revert.\n",
                           short_id(action.id), action.summary, how)
                   .c_str(),
               stderr);
    return exit_code::k_no;
  }
  if (search.status == landing::RevertSearch::Status::conflicts) {
    std::fputs(
        fmt::format("git-vault: cannot revert {} ({}): later commits changed the same "
                    "files:\n{}Nothing was changed. Pass --force to restore these files "
                    "anyway (the later changes to them are lost), or keep them with "
                    "`git revert {}`, which merges the undo with them but also takes the "
                    "action's entry out of the distill log instead of logging a revert (then "
                    "`git vault index` for the generated files).\n",
                    short_id(action.id), action.summary, search.later_changes, short_id(action.id))
            .c_str(),
        stderr);
    return exit_code::k_no;
  }

  const WorktreeSnapshot snapshot(repo.workdir());
  if (search.recall) {
    return revert_recall(session, snapshot, search, options);
  }
  // A file the action created is removed, not restored: say which the revert did.
  std::size_t removed = 0;
  for (const auto& [path, bytes] : search.request.restored) {
    removed += bytes ? 0 : 1;
  }
  const std::size_t restored = search.request.restored.size() - removed;
  std::vector<std::string> done;
  if (restored > 0) {
    done.push_back("restored " + util::plural(restored, "file", "files"));
  }
  if (removed > 0) {
    done.push_back("removed " + util::plural(removed, "file", "files") + " it had created");
  }
  std::string summary = fmt::format("Reverted {} ({}): {}.\n", short_id(action.id), action.summary,
                                    util::join(done, " and "));
  // What the next run of the sub-mode will see (revise reads events, dream prompts, since its
  // cursor).
  for (const distill::CursorRestore& cursor : search.request.cursors.restore) {
    summary += fmt::format(
        "The {} cursor is back {}: `git vault distill --{}` offers what that run saw again.\n",
        cursor.name, cursor.last ? "at " + *cursor.last : "to before any run", cursor.name);
  }
  for (const std::string& name : search.request.cursors.moved_on) {
    summary += fmt::format(
        "The {} cursor stays where a later {} run moved it, so that run's input is not offered "
        "twice.\n",
        name, name);
  }
  const int code =
      land_action(session, snapshot, distill::revert_draft(search.request), landing, summary);
  return code;
}

}  // namespace revert_command

Runner define_revert(CLI::App& app) {
  using namespace revert_command;  // this file's own helpers
  auto options = std::make_shared<Options>();
  app.add_option("target", options->target,
                 "A distill log id (distill_..., recall_...) or an action commit, a working-memory "
                 "maintenance commit included")
      ->required();
  app.add_flag("--force", options->force,
               "Restore the files even when later commits changed them (their changes are lost)");
  app.add_flag("--no-commit", options->landing.no_commit,
               "Leave the changes in the work tree instead of committing them");
  app.add_flag("--allow-dirty", options->landing.allow_dirty,
               "Run even when vault files have uncommitted changes");
  return [options](const Globals& globals) { return run(*options, *globals.session); };
}

}  // namespace gv::cmd
