#include "cmd/action.hpp"

#include <fmt/format.h>

#include <nlohmann/json.hpp>

#include "cmd/command.hpp"
#include "cmd/support.hpp"
#include "core/agent/fold.hpp"
#include "core/error.hpp"
#include "core/landing/land.hpp"

namespace gv::cmd {

int land_action(git::Repo& repo, const Snapshot& before, distill::ActionDraft draft,
                const Clock& clock, const LandingFlags& flags, const Globals& globals,
                ParseCache* cache) {
  landing::Context context;
  context.clock = clock;
  context.cache = cache;
  // D16: retrievals recorded since the last fold land first, as their own commit; `before`
  // (the work tree) then holds them, and the draft's files keep them.
  if (!flags.no_commit) {
    const agent::FoldResult fold =
        agent::fold_before_action(repo, draft.plan, clock.today, flags.allow_dirty, cache);
    if (fold.commit && globals.verbose) {
      note(fmt::format("committed {} (retrievals folded into frontmatter)",
                       fold.commit->substr(0, 12)));
    }
  }
  landing::Target target;
  target.commit = !flags.no_commit;
  target.allow_dirty = flags.allow_dirty;
  target.guarded_paths = landing::k_action_guarded_paths;
  const landing::Landed landed = landing::land(repo, before, std::move(draft), context, target);

  if (globals.json) {
    nlohmann::ordered_json out{
        {"schema", 1},
        {"commit", landed.commit ? nlohmann::ordered_json(*landed.commit) : nullptr},
        {"log_id", landed.log_id},
        {"subject", landed.plan.subject},
        {"paths", nlohmann::ordered_json::array()}};
    for (const auto& [path, bytes] : landed.plan.changes) {
      out["paths"].push_back(path);
    }
    print_json(out);
  } else if (globals.verbose) {
    note(landed.commit
             ? fmt::format("committed {} {}", landed.commit->substr(0, 12), landed.plan.subject)
             : fmt::format("wrote {} files to the work tree (not committed): {}",
                           landed.plan.changes.size(), landed.plan.subject));
  }
  return exit_code::k_ok;
}

}  // namespace gv::cmd
