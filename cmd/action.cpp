#include "cmd/action.hpp"

#include <fmt/format.h>

#include <nlohmann/json.hpp>

#include "cmd/command.hpp"
#include "cmd/support.hpp"
#include "core/error.hpp"
#include "core/git/transaction.hpp"
#include "core/snapshot/snapshot.hpp"

namespace gv::cmd {

int land_action(git::Repo& repo, const Snapshot& before, distill::ActionDraft draft,
                const Clock& clock, const LandingFlags& flags, const Globals& globals,
                ParseCache* cache) {
  distill::FinishContext context;
  context.cache = cache;
  context.clock = clock;
  context.parent_commit = repo.head_commit();
  for (const auto& [log_id, commits] : repo.trailer_index(k_trailer_log_id)) {
    if (!commits.empty()) {
      context.commits_by_log_id.emplace(log_id, commits.front());
    }
  }
  const distill::FinishedAction done = distill::finish_action(std::move(draft), before, context);

  git::ApplyOptions options;
  options.commit = !flags.no_commit;
  options.allow_dirty = flags.allow_dirty;
  options.guarded_paths = k_distill_guarded_paths;
  const std::optional<std::string> commit = git::apply(repo, done.plan, options);

  if (globals.json) {
    nlohmann::ordered_json out{{"schema", 1},
                               {"commit", commit ? nlohmann::ordered_json(*commit) : nullptr},
                               {"log_id", done.log_id},
                               {"subject", done.plan.subject},
                               {"paths", nlohmann::ordered_json::array()}};
    for (const auto& [path, bytes] : done.plan.changes) {
      out["paths"].push_back(path);
    }
    print_json(out);
  } else if (globals.verbose) {
    note(commit ? fmt::format("committed {} {}", commit->substr(0, 12), done.plan.subject)
                : fmt::format("wrote {} files to the work tree (not committed): {}",
                              done.plan.changes.size(), done.plan.subject));
  }
  return exit_code::k_ok;
}

}  // namespace gv::cmd
