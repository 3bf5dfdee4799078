#include "cmd/action.hpp"

#include <fmt/format.h>

#include <nlohmann/json.hpp>

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
  landing::Target target;
  target.commit = !flags.no_commit;
  target.allow_dirty = flags.allow_dirty;
  target.guarded_paths = landing::k_action_guarded_paths;
  target.read_state = flags.read_state;
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
