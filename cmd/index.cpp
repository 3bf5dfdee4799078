#include <fmt/format.h>

#include <CLI/CLI.hpp>
#include <memory>
#include <nlohmann/json.hpp>

#include "cmd/command.hpp"
#include "core/error.hpp"
#include "core/gate/print.hpp"
#include "core/git/repo.hpp"
#include "core/landing/land.hpp"
#include "core/session/session.hpp"
#include "core/snapshot/worktree_snapshot.hpp"
#include "core/util/json_output.hpp"
#include "core/util/message.hpp"
#include "core/vault/index_check.hpp"
#include "core/vault/index_files.hpp"
#include "core/vault/vault.hpp"

namespace gv::cmd {
namespace {

struct Options {
  bool check = false;
};

// Schema errors stop a regeneration: an index built from a vault with unreadable notes would
// silently drop them, and the next commit would carry that loss.
void refuse_on_schema_errors(const Vault& vault) {
  std::vector<Finding> errors;
  for (const Finding& finding : vault.findings) {
    if (finding.severity == Severity::error) {
      errors.push_back(finding);
    }
  }
  if (!errors.empty()) {
    std::fputs(format_findings(errors).c_str(), stderr);
    throw Error("{} memory file(s) have errors; fix them, then run `git vault index` again",
                errors.size());
  }
}

int run_check(Session& session, const Snapshot& snapshot) {
  const Vault vault = load_vault(snapshot, session.parse_cache());
  const std::vector<Finding> findings = check_index_files(
      render_index_files(vault.memories, session.clock().today), read_index_files(snapshot));
  if (session.output().json) {
    util::print_json(findings_json(findings));
  } else if (!findings.empty()) {
    std::fputs(format_findings(findings).c_str(), stderr);
  }
  return findings.empty() ? exit_code::k_ok : exit_code::k_no;
}

int run(const Options& options, Session& session) {
  git::Repo& repo = session.repo();
  std::optional<git::ReadState> read_state;
  if (!options.check) {
    read_state = git::capture_read_state(repo, {std::string(vault_path::k_root)});
  }
  const WorktreeSnapshot snapshot(repo.workdir());
  if (options.check) {
    return run_check(session, snapshot);
  }
  refuse_on_schema_errors(load_vault(snapshot, session.parse_cache()));

  // The same regeneration an action commit makes, retrieval carry-over included (D4), but
  // written to the work tree only: `index` is the fix the gate names, and the user stages it.
  landing::Context context;
  context.clock = session.clock();
  context.cache = session.parse_cache();
  landing::Target target;
  target.commit = false;
  target.allow_dirty = true;
  target.read_state = std::move(read_state);
  const landing::Landed landed =
      landing::land(repo, snapshot, landing::IndexRegeneration{}, context, target);
  const Plan& plan = landed.plan;
  if (session.output().json) {
    nlohmann::ordered_json out{{"schema", 1},
                               {"written", nlohmann::ordered_json::array()},
                               {"retrieval_counts_carried", landed.carried}};
    for (const auto& [path, bytes] : plan.changes) {
      out["written"].push_back(path);
    }
    util::print_json(out);
  } else if (session.output().verbose) {
    util::print_note(plan.empty() ? "index files are up to date"
                                  : fmt::format("wrote {} file(s); stage them with `git add {}`",
                                                plan.changes.size(), vault_path::k_root));
  }
  return exit_code::k_ok;
}

}  // namespace

Runner define_index(CLI::App& app) {
  auto options = std::make_shared<Options>();
  app.add_flag("--check", options->check,
               "Only report whether the generated files are stale (exit 1 when they are)");
  return [options](const Globals& globals) { return run(*options, *globals.session); };
}

}  // namespace gv::cmd
