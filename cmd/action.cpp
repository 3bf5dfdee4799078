#include "cmd/action.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <vector>

#include "core/agent/event_fold.hpp"
#include "core/agent/fold.hpp"
#include "core/error.hpp"
#include "core/events/event.hpp"
#include "core/git/repo.hpp"
#include "core/landing/land.hpp"
#include "core/plan.hpp"
#include "core/session/session.hpp"
#include "core/util/file.hpp"
#include "core/util/json_output.hpp"
#include "core/util/message.hpp"
#include "core/util/text.hpp"

namespace gv::cmd {
namespace action_command {

// A --no-commit message short enough to print as well as save.
constexpr std::ptrdiff_t k_message_lines_shown = 30;
constexpr std::size_t k_message_bytes_shown = 4096;

// What a --no-commit run leaves to the user: the files in the work tree and the message whose
// trailers `git vault log` and `git vault revert` read. The message is saved as
// `<git dir>/VAULT_MSG` for `git commit -F`: at 10,000 memories its Vault-Memories line alone is
// tens of kilobytes, not something to copy from a terminal. A short one is printed as well.
std::string uncommitted_note(const git::Repo& repo, const Plan& plan) {
  const std::string message = plan.message();
  const std::filesystem::path file = repo.git_dir() / "VAULT_MSG";
  util::write_file_atomic(file, message);
  std::set<std::string> tops;
  for (const auto& [path, bytes] : plan.changes) {
    tops.insert(util::path_from_cwd(repo.workdir(), path.substr(0, path.find('/'))));
  }
  std::error_code ec;
  const std::filesystem::path cwd = std::filesystem::current_path(ec);
  std::string shown = file.string();
  if (!ec) {
    const std::filesystem::path relative =
        std::filesystem::weakly_canonical(file, ec).lexically_relative(
            std::filesystem::weakly_canonical(cwd, ec));
    if (!ec && !relative.empty()) {
      shown = relative.string();
    }
  }
  std::string out = fmt::format(
      "Wrote {} to the work tree, not committed ({}).\nCommit them with the message saved in {}, "
      "so that `git vault log` and `git vault revert` find the action:\n  git add {} && git commit "
      "-F {}\n",
      util::plural(plan.changes.size(), "file", "files"), plan.subject, shown,
      util::join({tops.begin(), tops.end()}, " "), shown);
  if (std::count(message.begin(), message.end(), '\n') <= k_message_lines_shown &&
      message.size() <= k_message_bytes_shown) {
    out += fmt::format("\n{}", message);
  }
  return out;
}

// The paths `plan` writes that no guarded pathspec (a folder ending in `/`, or a file) covers.
std::vector<std::string> paths_outside(const Plan& plan, const std::vector<std::string>& guarded) {
  std::vector<std::string> outside;
  for (const auto& change : plan.changes) {
    const std::string& path = change.first;  // a named reference: clang 14 cannot capture a binding
    const bool covered = std::any_of(guarded.begin(), guarded.end(), [&](const std::string& spec) {
      return spec.ends_with('/') ? path.starts_with(spec) : path == spec;
    });
    if (!covered) {
      outside.push_back(path);
    }
  }
  return outside;
}

}  // namespace action_command

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
  // A file the action rewrites outside the vault (learn's archive records, a telemetry log) must
  // be committed as it is first: the commit would otherwise take the user's uncommitted bytes
  // with it, and a revert would put back HEAD's version, or delete a file HEAD lacks. Asked
  // before the fold below commits anything.
  const std::vector<std::string> outside =
      action_command::paths_outside(draft.plan, landing::k_action_guarded_paths);
  if (!flags.no_commit && !flags.allow_dirty && !outside.empty()) {
    const std::vector<std::string> dirty = session.repo().dirty_paths(outside);
    if (!dirty.empty()) {
      throw Error(
          "uncommitted changes in {}, which this action rewrites: commit {} first, so that the "
          "action's commit holds only its own change and `git vault revert` can undo it (or "
          "pass --allow-dirty to let the commit take {} as {} now)",
          util::join(dirty, ", "), dirty.size() == 1 ? "it" : "them",
          dirty.size() == 1 ? "it" : "them", dirty.size() == 1 ? "it is" : "they are");
    }
  }
  // D16: retrievals recorded since the last fold land first, as their own commit, checked
  // against what the action read; `before` (the work tree) then holds them, the draft's files
  // keep them, and the action's read state is taken again past the fold's own commit.
  if (!flags.no_commit) {
    const agent::FoldResult fold =
        agent::fold_before_action(session.repo(), draft.plan, session.clock().today,
                                  flags.allow_dirty, session.parse_cache(), flags.read_state);
    // Dropped, not lost in silence: a torn line (a crash mid-write) or a deleted memory's count.
    if (fold.bad_lines > 0) {
      util::print_warning(fmt::format(
          "{} of the retrieval journal {} not a record (a write torn by a crash?) and {} dropped",
          util::plural(fold.bad_lines, "line", "lines"), fold.bad_lines == 1 ? "was" : "were",
          fold.bad_lines == 1 ? "was" : "were"));
    }
    if (fold.unknown > 0) {
      util::print_warning(fmt::format("{} recorded for memories the vault no longer has {} dropped",
                                      util::plural(fold.unknown, "retrieval", "retrievals"),
                                      fold.unknown == 1 ? "was" : "were"));
    }
    if (fold.commit) {
      if (landing.read_state) {
        landing.read_state = git::capture_read_state(session.repo(), landing.read_state->paths);
      }
      // Two commits where one was asked for: said, so that `git log` holds no surprise.
      if (!session.output().quiet) {
        util::print_note(fmt::format(
            "committed {} first: the retrievals recorded since the last fold, folded into the "
            "memories' frontmatter",
            fold.commit->substr(0, 12)));
      }
    }
    // D20: so do the events recorded since, appended to specs/events.jsonl.
    const agent::EventFoldResult events =
        agent::fold_event_journal(session.repo(), session.clock().today);
    if (events.bad_lines > 0) {
      util::print_warning(fmt::format(
          "{} of the event journal {} not an event (a write torn by a crash?) and {} dropped",
          util::plural(events.bad_lines, "line", "lines"), events.bad_lines == 1 ? "was" : "were",
          events.bad_lines == 1 ? "was" : "were"));
    }
    if (!events.kept.empty()) {
      util::print_note(fmt::format("the event journal is not folded: {}", events.kept));
    }
    if (events.commit) {
      if (landing.read_state) {
        landing.read_state = git::capture_read_state(session.repo(), landing.read_state->paths);
      }
      if (!session.output().quiet) {
        util::print_note(
            fmt::format("committed {} first: the {} recorded since the last fold, appended to {}",
                        events.commit->substr(0, 12),
                        util::plural(events.events, "event", "events"), events::k_events_path));
      }
    }
  }
  landing::Target target;
  target.commit = !flags.no_commit;
  target.allow_dirty = flags.allow_dirty;
  target.guarded_paths = landing::k_action_guarded_paths;
  if (target.commit) {
    target.guarded_paths.insert(target.guarded_paths.end(), outside.begin(), outside.end());
  }
  target.read_state = std::move(landing.read_state);
  if (flags.allow_dirty && !flags.no_commit && !session.output().quiet) {
    say_what_allow_dirty_does(session.repo().dirty_paths(target.guarded_paths), draft.plan);
  }
  const landing::Landed landed =
      landing::land(session.repo(), before, std::move(draft), context, target);

  const OutputSettings& output = session.output();
  std::fputs(summary.c_str(), output.json ? stderr : stdout);
  std::fflush(stdout);  // before the commit line on stderr, when both go to one file
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
      out = action_command::uncommitted_note(session.repo(), landed.plan);
    }
    // stderr: stdout carries the action's own report, which scripts compare byte for byte.
    std::fputs(out.c_str(), stderr);
  }
  return exit_code::k_ok;
}

}  // namespace gv::cmd
