#include <fmt/format.h>

#include <CLI/CLI.hpp>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "cmd/command.hpp"
#include "core/error.hpp"
#include "core/gate/input.hpp"
#include "core/gate/print.hpp"
#include "core/gate/registry.hpp"
#include "core/git/repo.hpp"
#include "core/landing/land.hpp"
#include "core/session/session.hpp"
#include "core/snapshot/worktree_snapshot.hpp"
#include "core/util/file.hpp"
#include "core/util/json_output.hpp"
#include "core/util/message.hpp"
#include "core/util/text.hpp"
#include "core/vault/generated_records.hpp"
#include "core/vault/index_check.hpp"
#include "core/vault/index_files.hpp"
#include "core/vault/vault.hpp"

namespace gv::cmd {
namespace {

struct Options {
  bool check = false;
  bool commit = false;
};

// `index --commit`: the fix for a stale index a merge made elsewhere left on a branch.
constexpr const char* k_commit_subject = "vault(reindex): regenerate index files";
constexpr const char* k_commit_action = "reindex";

// Schema errors stop a regeneration: an index built from a vault with unreadable notes would
// silently drop them, and the next commit would carry that loss.
void refuse_on_schema_errors(const Vault& vault, FindingStyle style) {
  std::vector<Finding> errors;
  for (const Finding& finding : vault.findings) {
    if (finding.severity == Severity::error) {
      errors.push_back(finding);
    }
  }
  if (!errors.empty()) {
    std::fputs(format_findings(errors, style).c_str(), stderr);
    throw Error("{} memory file(s) are unreadable; fix them, then run `git vault index` again",
                errors.size());
  }
}

int run_check(Session& session, const Snapshot& snapshot) {
  // The gate's own stale-index check over the work tree: current at once when a recorded
  // regeneration wrote exactly these generated files from exactly these memories; otherwise the
  // memories the parse cache does not know are parsed on every core and the generated files are
  // compared by blob id, read and diagnosed only when they differ.
  const GeneratedRecords records =
      GeneratedRecords::load(generated_records_path(session.repo().common_dir()));
  GateInput input(snapshot, session.persistent_parse_cache(), &records);
  std::vector<Finding> findings = find_gate_check(builtin_gate_checks(), "stale-index")->run(input);
  // `git vault index` refuses while a memory file is unreadable, so a stale index names those
  // files first and the fix says so: what the gate's input parsed to find the index stale.
  std::vector<Finding> unreadable;
  if (!findings.empty()) {
    for (const Finding& finding : input.vault().parse_findings) {
      if (finding.severity == Severity::error) {
        unreadable.push_back(finding);
      }
    }
  }
  for (Finding& finding : findings) {
    // The work tree is what was checked: nothing to stage.
    finding.fix = unreadable.empty()
                      ? "git vault index"
                      : "fix the unreadable memory file(s) above, then run git vault index";
  }
  findings.insert(findings.begin(), unreadable.begin(), unreadable.end());
  if (session.output().json) {
    util::print_json(findings_json(findings));
  } else if (!findings.empty()) {
    // The findings are this command's result, so stdout, as `check` prints them.
    std::fputs(
        format_findings(findings, {session.output().limit, session.output().color_stdout}).c_str(),
        stdout);
  }
  return findings.empty() ? exit_code::k_ok : exit_code::k_no;
}

int run(const Options& options, Session& session) {
  git::Repo& repo = session.repo();
  if (options.check && options.commit) {
    throw UsageError("index: --check and --commit exclude each other");
  }
  std::optional<git::ReadState> read_state;
  if (!options.check) {
    read_state = git::capture_read_state(repo, {std::string(vault_path::k_root)});
  }
  const WorktreeSnapshot snapshot(repo.workdir());
  if (options.check) {
    return run_check(session, snapshot);
  }
  refuse_on_schema_errors(load_vault(snapshot, session.parse_cache()),
                          {session.output().limit, session.output().color_stderr});

  // The same regeneration an action commit makes, retrieval carry-over included (D4), written
  // to the work tree only: `index` is the fix the gate names, and the user stages it. With
  // --commit it is one commit instead, from clean vault paths, so the commit holds exactly the
  // regeneration of what HEAD holds.
  landing::Context context;
  context.clock = session.clock();
  context.cache = session.parse_cache();
  landing::IndexRegeneration draft;
  landing::Target target;
  if (options.commit) {
    draft.plan.subject = k_commit_subject;
    draft.plan.action = k_commit_action;
    target.guarded_paths = {std::string(vault_path::k_root)};
    target.offers_allow_dirty = false;
  } else {
    target.commit = false;
    target.allow_dirty = true;
  }
  target.read_state = std::move(read_state);
  const landing::Landed landed = landing::land(repo, snapshot, std::move(draft), context, target);
  const Plan& plan = landed.plan;
  if (session.output().json) {
    nlohmann::ordered_json out{{"schema", 1},
                               {"written", nlohmann::ordered_json::array()},
                               {"retrieval_counts_carried", landed.carried},
                               {"commit", landed.commit ? nlohmann::ordered_json(*landed.commit)
                                                        : nlohmann::ordered_json(nullptr)}};
    for (const auto& [path, bytes] : plan.changes) {
      out["written"].push_back(path);
    }
    util::print_json(out);
  } else if (!session.output().quiet) {
    // Said without -v: a command that rewrites files says which, and what to do next.
    if (plan.empty()) {
      util::print_note("index files are up to date");
    } else if (landed.commit) {
      util::print_note(fmt::format("committed {} file(s) as {} {}", plan.changes.size(),
                                   landed.commit->substr(0, 12), plan.subject));
    } else {
      std::vector<std::string> paths;
      for (const auto& [path, bytes] : plan.changes) {
        paths.push_back(path);
      }
      util::print_note(
          fmt::format("wrote {}: {}; stage them with `git add {}`",
                      util::plural(paths.size(), "file", "files"), util::join(paths, ", "),
                      util::path_from_cwd(session.repo().workdir(), vault_path::k_root)));
    }
  }
  return exit_code::k_ok;
}

}  // namespace

Runner define_index(CLI::App& app) {
  auto options = std::make_shared<Options>();
  app.add_flag("--check", options->check,
               "Only report whether the generated files are stale (exit 1 when they are)");
  app.add_flag("--commit", options->commit,
               "Commit the regenerated files as `vault(reindex): ...` instead of leaving them in "
               "the work tree (the vault's files must be committed first)");
  return [options](const Globals& globals) { return run(*options, *globals.session); };
}

}  // namespace gv::cmd
