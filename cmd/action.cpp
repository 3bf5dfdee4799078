#include "cmd/action.hpp"

#include <fmt/format.h>

#include <cstdio>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "core/agent/fold.hpp"
#include "core/error.hpp"
#include "core/git/repo.hpp"
#include "core/landing/land.hpp"
#include "core/plan.hpp"
#include "core/session/session.hpp"
#include "core/util/json_output.hpp"
#include "core/util/message.hpp"
#include "core/util/text.hpp"

namespace gv::cmd {

void say_what_allow_dirty_does(const std::vector<std::string>& dirty, const Plan& plan) {
  std::vector<std::string> included;
  std::vector<std::string> left;
  for (const std::string& path : dirty) {
    (plan.changes.contains(path) ? included : left).push_back(path);
  }
  if (!included.empty()) {
    util::print_note(fmt::format("--allow-dirty: the commit includes your uncommitted edits of {}",
                                 util::join(included, ", ")));
  }
  if (!left.empty()) {
    util::print_note(
        fmt::format("--allow-dirty: uncommitted changes stay out of the commit, as they are: {}",
                    util::join(left, ", ")));
  }
}

int land_action(Session& session, const Snapshot& before, distill::ActionDraft draft,
                const LandingFlags& flags, const std::string& summary) {
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
  if (flags.allow_dirty && !flags.no_commit && !session.output().quiet) {
    say_what_allow_dirty_does(session.repo().dirty_paths(target.guarded_paths), draft.plan);
  }
  const landing::Landed landed =
      landing::land(session.repo(), before, std::move(draft), context, target);

  const OutputSettings& output = session.output();
  std::fputs(summary.c_str(), output.json ? stderr : stdout);
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
  } else if (!output.quiet) {
    // What git prints after a commit, then how to take it back.
    std::string out;
    if (landed.commit) {
      out = fmt::format("[{} {}] {}\n", session.repo().head_branch(), landed.commit->substr(0, 7),
                        landed.plan.subject);
      if (!landed.log_id.empty()) {
        out += fmt::format("Undo with: git vault revert {}\n", landed.log_id);
      }
    } else if (!landed.plan.changes.empty()) {
      out = fmt::format(
          "Wrote {} to the work tree, not committed ({}).\nCommit them with this message so "
          "`git vault log` and `git vault revert` find the action:\n\n{}",
          util::plural(landed.plan.changes.size(), "file", "files"), landed.plan.subject,
          landed.plan.message());
    }
    // stderr: stdout carries the action's own report, which scripts compare byte for byte.
    std::fputs(out.c_str(), stderr);
  }
  return exit_code::k_ok;
}

}  // namespace gv::cmd
