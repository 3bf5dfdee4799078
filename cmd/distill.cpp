#include <cstdio>
#include <memory>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "cmd/action.hpp"
#include "cmd/command.hpp"
#include "cmd/support.hpp"
#include "core/distill/vault_state.hpp"
#include "core/error.hpp"
#include "core/scoring/render.hpp"
#include "core/snapshot/worktree_snapshot.hpp"
#include "core/vault/vault.hpp"

namespace gv::cmd {
namespace {

struct Options {
  bool purge = false;
  bool merge = false;
  bool compress = false;
  bool refine = false;
  bool gc = false;
  bool auto_mode = false;
  bool dry_run = false;
  bool record = false;
  bool all = false;
  std::string select;
  LandingFlags landing;
};

// Findings about individual files do not stop a report: it scores what it could read and says
// what it skipped, so a partly broken vault still gets its health report.
void warn_findings(const std::vector<Finding>& findings) {
  for (const Finding& finding : findings) {
    if (finding.severity != Severity::error) {
      continue;
    }
    warn(finding.line ? fmt::format("{}:{}: {}", finding.path, *finding.line, finding.message)
                      : fmt::format("{}: {}", finding.path, finding.message));
  }
}

int run_report(const Options& options, const Globals& globals) {
  git::Repo repo = open_repo();
  const WorktreeSnapshot snapshot(repo.workdir());
  if (snapshot.list(vault_path::k_root).empty()) {
    throw Error("no memory vault in this repository ({} is missing or empty); run `git vault init`",
                vault_path::k_root);
  }
  const Clock clock = clock_of(globals);
  const distill::VaultState state = distill::read_vault_state(snapshot, clock.today);
  warn_findings(state.vault.findings);
  if (!state.index_findings.empty()) {
    warn(fmt::format("{} cannot be read; scores use the memory files alone",
                     vault_path::k_index_json));
  }

  if (options.record) {
    distill::ActionDraft draft;
    draft.type = "report";
    draft.plan.subject = fmt::format("vault(report): health {}/100 ({})", state.report.health_score,
                                     scoring::health_status_label(state.report.status));
    draft.notes = fmt::format("Health report: {} purge, {} merge, {} compress, {} review candidates",
                              state.report.candidates.purge.size(),
                              state.report.candidates.merge.size(),
                              state.report.candidates.compress.size(),
                              state.report.candidates.review.size());
    if (!globals.json) {
      std::fputs(scoring::render_markdown(state.report, globals.verbose).c_str(), stdout);
    }
    return land_action(repo, snapshot, std::move(draft), clock, options.landing, globals);
  }
  std::fputs(globals.json ? scoring::render_json(state.report).c_str()
                          : scoring::render_markdown(state.report, globals.verbose).c_str(),
             stdout);
  return exit_code::k_ok;
}

int run(const Options& options, const Globals& globals) {
  const int modes = options.purge + options.merge + options.compress + options.refine +
                    options.gc + options.auto_mode;
  if (modes > 1) {
    throw UsageError("choose one sub-mode: --purge, --merge, --compress, --refine, --gc or --auto");
  }
  if (modes == 0) {
    if (options.dry_run || options.all || !options.select.empty()) {
      throw UsageError("--dry-run, --select and --all go with a sub-mode such as --purge");
    }
    return run_report(options, globals);
  }
  throw Error("this sub-mode is not available yet");
}

}  // namespace

Runner define_distill(CLI::App& app) {
  auto options = std::make_shared<Options>();
  app.add_flag("--purge", options->purge, "Tombstone stale or never-retrieved memories");
  app.add_flag("--merge", options->merge, "Merge memories with overlapping keywords");
  app.add_flag("--compress", options->compress, "Summarise oversized memories");
  app.add_flag("--refine", options->refine, "Fix metadata quality issues");
  app.add_flag("--gc", options->gc, "Delete memories tombstoned more than 7 days ago");
  app.add_flag("--auto", options->auto_mode, "Apply automatic metadata fixes without a prompt");
  app.add_flag("--dry-run", options->dry_run, "Show what would change; write nothing");
  app.add_flag("--record", options->record,
               "Report only: also log the report and refresh memory_health, as one commit");
  app.add_option("--select", options->select, "Candidates to act on, e.g. MEM-a,MEM-b");
  app.add_flag("--all", options->all, "Act on every candidate");
  app.add_flag("--no-commit", options->landing.no_commit,
               "Leave the changes in the work tree instead of committing them");
  app.add_flag("--allow-dirty", options->landing.allow_dirty,
               "Run even when vault files have uncommitted changes");
  return [options](const Globals& globals) { return run(*options, globals); };
}

}  // namespace gv::cmd
