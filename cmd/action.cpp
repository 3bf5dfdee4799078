#include "cmd/action.hpp"

#include <fmt/format.h>

#include <nlohmann/json.hpp>

#include "core/agent/fold.hpp"
#include "core/error.hpp"
#include "core/git/repo.hpp"
#include "core/landing/land.hpp"
#include "core/session/session.hpp"
#include "core/util/json_output.hpp"
#include "core/util/message.hpp"

namespace gv::cmd {

int land_action(Session& session, const Snapshot& before, distill::ActionDraft draft,
                const LandingFlags& flags) {
  landing::Context context;
  context.clock = session.clock();
  context.cache = session.parse_cache();
  LandingFlags landing = flags;
  // D16: retrievals recorded since the last fold land first, as their own commit, checked
  // against what the action read; `before` (the work tree) then holds them, the draft's files
  // keep them, and the action's read state is taken again past the fold's own commit.
  if (!flags.no_commit) {
    const agent::FoldResult fold =
        agent::fold_before_action(session.repo(), draft.plan, session.clock().today,
                                  flags.allow_dirty, session.parse_cache(), flags.read_state);
    if (fold.commit) {
      if (landing.read_state) {
        landing.read_state = git::capture_read_state(session.repo(), landing.read_state->paths);
      }
      if (session.output().verbose) {
        util::print_note(fmt::format("committed {} (retrievals folded into frontmatter)",
                                     fold.commit->substr(0, 12)));
      }
    }
  }
  landing::Target target;
  target.commit = !flags.no_commit;
  target.allow_dirty = flags.allow_dirty;
  target.guarded_paths = landing::k_action_guarded_paths;
  target.read_state = std::move(landing.read_state);
  const landing::Landed landed =
      landing::land(session.repo(), before, std::move(draft), context, target);

  const OutputSettings& output = session.output();
  if (output.json) {
    nlohmann::ordered_json out{
        {"schema", 1},
        {"commit", landed.commit ? nlohmann::ordered_json(*landed.commit) : nullptr},
        {"log_id", landed.log_id},
        {"subject", landed.plan.subject},
        {"paths", nlohmann::ordered_json::array()}};
    for (const auto& [path, bytes] : landed.plan.changes) {
      out["paths"].push_back(path);
    }
    util::print_json(out);
  } else if (output.verbose) {
    util::print_note(
        landed.commit
            ? fmt::format("committed {} {}", landed.commit->substr(0, 12), landed.plan.subject)
            : fmt::format("wrote {} files to the work tree (not committed): {}",
                          landed.plan.changes.size(), landed.plan.subject));
  }
  return exit_code::k_ok;
}

}  // namespace gv::cmd
