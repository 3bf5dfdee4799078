#include <fmt/format.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <cstdio>
#include <map>
#include <memory>
#include <string_view>

#include "cmd/action.hpp"
#include "cmd/command.hpp"
#include "cmd/telemetry.hpp"
#include "core/agent/journal.hpp"
#include "core/agent/wiring.hpp"
#include "core/distill/selection.hpp"
#include "core/distill/sub_mode.hpp"
#include "core/distill/sub_mode_registry.hpp"
#include "core/distill/summarize.hpp"
#include "core/distill/vault_state.hpp"
#include "core/error.hpp"
#include "core/events/event_store.hpp"
#include "core/gate/print.hpp"
#include "core/git/repo.hpp"
#include "core/git/transaction.hpp"
#include "core/landing/land.hpp"
#include "core/recall/maintain.hpp"
#include "core/recall/scan.hpp"
#include "core/recall/summary.hpp"
#include "core/scoring/render.hpp"
#include "core/session/session.hpp"
#include "core/snapshot/worktree_snapshot.hpp"
#include "core/util/json_output.hpp"
#include "core/util/message.hpp"
#include "core/vault/vault.hpp"

namespace gv::cmd {
namespace distill_command {

// How many candidates, with their keys, a run that needs a selection lists when it cannot ask.
constexpr std::size_t k_keys_shown = 20;

struct Options {
  // One flag per row of the sub-mode table, by name; for rows whose flag takes a value, the
  // value and the option that tells whether it was given.
  std::map<std::string, bool, std::less<>> sub_modes;
  std::map<std::string, std::string, std::less<>> arguments;
  std::map<std::string, CLI::Option*, std::less<>> argument_options;
  std::optional<std::string> history;
  bool dry_run = false;
  bool record = false;
  bool all = false;
  // --meta's target is this repository: the event store is per repository, so `--local` (and
  // DISTILL_META_LOCAL) name what meta does anyway (doc/telemetry.md, "meta").
  bool local = false;
  std::string select;
  LandingFlags landing;
};

// Retrievals recorded in the journal and not yet folded (D16): scoring counts them.
scoring::PendingRetrievalMap pending_retrievals(const git::Repo& repo) {
  try {
    return agent::read_journal(agent::journal_path(repo.common_dir()),
                               git::landed_consumptions(repo))
        .by_id;
  } catch (const Error& e) {
    util::print_warning(fmt::format("retrieval journal not read: {}", e.what()));
    return {};
  }
}

// Where the scores' signals come from (doc/sub-modes.md, "Where the signals come from"): whether
// retrievals and events were ever recorded here, since when, and by which agents' hooks.
scoring::Recording recording_of(const git::Repo& repo, const distill::VaultState& state) {
  scoring::Recording recording =
      scoring::retrieval_recording(state.vault.memories, state.report.scores);
  const events::StoreFiles files = events::store_files(repo.workdir(), repo.common_dir());
  for (const std::filesystem::path& file : {files.store, files.journal}) {
    const std::optional<events::Event> first = events::first_event(file);
    if (!first) {
      continue;
    }
    recording.events = true;
    if (!recording.first_event || first->timestamp < *recording.first_event) {
      recording.first_event = first->timestamp;
    }
  }
  try {
    for (const agent::AgentWiring& wiring : agent::wiring_status(repo.workdir())) {
      if (!wiring.hooks.empty()) {
        recording.recorded_by.emplace_back(agent::agent_name(wiring.agent));
      }
    }
  } catch (const Error& e) {
    util::print_warning(fmt::format("agent settings not read: {}", e.what()));
  }
  return recording;
}

// Findings about individual files do not stop a report: it scores what it could read and says
// what it skipped, so a partly broken vault still gets its health report.
void warn_findings(const std::vector<Finding>& findings) {
  for (const Finding& finding : findings) {
    if (finding.severity != Severity::error) {
      continue;
    }
    util::print_warning(finding.line
                            ? fmt::format("{}:{}: {}", finding.path, *finding.line, finding.message)
                            : fmt::format("{}: {}", finding.path, finding.message));
  }
}

// The working memory's section of the report (doc/sub-modes.md, "report"): a repository's
// second kind of memory is reported beside the first, and alone where it is the only one.
std::string working_memory_section(const git::Repo& repo, const Snapshot& snapshot) {
  int budget = recall::k_default_budget;
  if (const std::optional<std::string> configured = repo.config_string("vault.recallBudget")) {
    try {
      budget = std::max(1, std::stoi(*configured));
    } catch (const std::exception&) {
      // `recall maintain` names a bad value; the report keeps the default.
    }
  }
  return recall::render_markdown(recall::summarize(recall::scan_managed_files(snapshot)), budget);
}

int run_report(const Options& options, Session& session) {
  const OutputSettings& output = session.output();
  git::Repo& repo = session.repo();
  LandingFlags landing = options.landing;
  if (options.record) {
    landing.read_state = git::capture_read_state(repo, landing::k_action_guarded_paths);
  }
  const WorktreeSnapshot snapshot(repo.workdir());
  if (!vault_present(repo.workdir())) {
    const std::string working =
        options.record || output.json ? std::string() : working_memory_section(repo, snapshot);
    if (working.empty()) {
      throw Error(
          "no memory vault in this repository ({} is missing or empty); run `git vault init`",
          vault_path::k_root);
    }
    // A repository that keeps only a working memory gets its section alone.
    session.page();
    std::fputs(("## Working Memory Report\n\nNo memory vault here (.memory/ is missing); "
                "`git vault init` adds one.\n" +
                working.substr(working.find("\n###") + 1))
                   .c_str(),
               stdout);
    return exit_code::k_ok;
  }
  distill::VaultState state = distill::read_vault_state(
      snapshot, session.clock().today, session.parse_cache(), pending_retrievals(repo));
  state.report.recording = recording_of(repo, state);
  warn_findings(state.vault.findings);
  if (!state.index_findings.empty()) {
    util::print_warning(fmt::format("{} cannot be read; scores use the memory files alone",
                                    vault_path::k_index_json));
  }

  if (options.record) {
    distill::ActionDraft draft;
    draft.type = "report";
    draft.plan.subject = fmt::format("vault(report): health {}/100 ({})", state.report.health_score,
                                     scoring::health_status_label(state.report.status));
    draft.notes =
        fmt::format("Health report: {} purge, {} merge, {} compress, {} review candidates",
                    state.report.candidates.purge.size(), state.report.candidates.merge.size(),
                    state.report.candidates.compress.size(), state.report.candidates.review.size());
    // Printed once it has landed, as an action's summary is: a run that refuses (uncommitted
    // edits, a log that cannot be read) says only why.
    return land_action(session, snapshot, std::move(draft), landing,
                       output.json
                           ? std::string()
                           : scoring::render_markdown(state.report, output.verbose, output.limit));
  }
  if (!output.json) {
    session.page();
  }
  if (output.json) {
    scoring::write_json(state.report, [](std::string_view piece) {
      std::fwrite(piece.data(), 1, piece.size(), stdout);
    });
    std::fputc('\n', stdout);  // a line of its own, as every other --json document ends
  } else {
    std::fputs((scoring::render_markdown(state.report, output.verbose, output.limit) +
                working_memory_section(repo, snapshot))
                   .c_str(),
               stdout);
  }
  return exit_code::k_ok;
}

// The process's own terminal: the prompt on stdout (flushed, since it ends without a
// newline), the answer from stdin.
distill::Terminal stdio_terminal() {
  distill::Terminal terminal;
  terminal.write = [](std::string_view text) {
    std::fwrite(text.data(), 1, text.size(), stdout);
    std::fflush(stdout);
  };
  terminal.read_line = [] {
    distill::Terminal::Line line;
    int c = 0;
    while ((c = std::fgetc(stdin)) != EOF && c != '\n') {
      line.text += static_cast<char>(c);
    }
    line.at_end = c == EOF;
    return line;
  };
  return terminal;
}

// `--dry-run --select`: what the run with that selection would act on, and nothing else.
int print_selected_dry_run(const distill::SubMode& mode, const distill::CandidateSet& set,
                           const std::string& select, const OutputSettings& output) {
  std::vector<std::string> keys;
  for (const distill::Candidate& candidate : set.candidates) {
    keys.push_back(candidate.key);
  }
  const distill::Selection selection = distill::parse_selection(select, keys);
  if (!selection.error.empty()) {
    throw UsageError("--select: {}", selection.error);
  }
  if (output.json) {
    nlohmann::ordered_json out{{"schema", 1}, {"sub_mode", mode.name()}, {"dry_run", true}};
    out[set.json_key] = nlohmann::ordered_json::array();
    for (const std::size_t index : selection.indexes) {
      out[set.json_key].push_back(set.candidates[index].document());
    }
    util::print_json(out);
    return exit_code::k_ok;
  }
  std::string text =
      fmt::format("[DRY RUN] --{} with this --select would act on {} of {} candidates:\n",
                  mode.name(), selection.indexes.size(), set.candidates.size());
  for (const std::size_t index : selection.indexes) {
    const distill::Candidate& candidate = set.candidates[index];
    text += fmt::format("  - {}: {}\n", candidate.shown_label(), candidate.shown_details());
  }
  text += "\nNo changes made.\n";
  std::fputs(text.c_str(), stdout);
  return exit_code::k_ok;
}

// Steps 1-5 of the shared skeleton for one mutating sub-mode; finish_action and land_action
// do steps 6-7 and the commit.
int run_sub_mode(const distill::SubMode& mode, const Options& options, Session& session) {
  const OutputSettings& output = session.output();
  git::Repo& repo = session.repo();
  const Clock& clock = session.clock();
  LandingFlags landing = options.landing;
  landing.read_state = git::capture_read_state(repo, landing::k_action_guarded_paths);
  const WorktreeSnapshot snapshot(repo.workdir());
  distill::VaultState state = distill::read_vault_state(
      snapshot, clock.today, session.parse_cache(), pending_retrievals(repo));
  state.report.recording = recording_of(repo, state);
  std::vector<Finding> errors;
  for (const Finding& finding : state.vault.findings) {
    if (finding.severity == Severity::error) {
      errors.push_back(finding);
    }
  }
  if (!errors.empty()) {
    std::fputs(format_findings(errors, {output.limit, output.color_stderr}).c_str(), stderr);
    throw Error("{} memory file(s) have errors; fix them before running --{}", errors.size(),
                mode.name());
  }
  const distill::TelemetryInputs telemetry = telemetry_inputs(repo, options.history);
  distill::SubModeContext context{
      state, snapshot, clock,
      distill::configured_summarizer(repo.config_string("vault.summarizer"))};
  context.telemetry = &telemetry;
  context.limit = output.limit;
  if (const auto it = options.arguments.find(mode.name()); it != options.arguments.end()) {
    context.argument = it->second;
  }
  distill::CandidateSet set = mode.candidates(context);
  if (set.stop_is_result && set.stop_message) {
    // A read-only result (review's answer): the same output with or without --dry-run.
    if (output.json) {
      nlohmann::ordered_json out{{"schema", 1}, {"sub_mode", mode.name()}};
      for (const auto& [key, value] : set.dry_run_json.items()) {
        out[key] = value;
      }
      util::print_json(out);
    } else {
      std::fputs(set.stop_message->c_str(), stdout);
    }
    return exit_code::k_ok;
  }

  // Nothing to choose from: a --select naming a memory or a number would otherwise end in the
  // same "No … candidates found" as a run that asked for nothing, and succeed. `a` still does.
  if (set.stop_message && !options.select.empty()) {
    std::vector<std::string> keys;
    for (const distill::Candidate& candidate : set.candidates) {
      keys.push_back(candidate.key);
    }
    const distill::Selection selection = distill::parse_selection(options.select, keys);
    if (!selection.error.empty()) {
      std::fputs((*set.stop_message + "\n").c_str(), stderr);
      throw UsageError("--select: {}", selection.error);
    }
  }
  if (options.dry_run && !options.select.empty() && !set.stop_message) {
    return print_selected_dry_run(mode, set, options.select, output);
  }
  if (options.dry_run) {
    if (output.json) {
      nlohmann::ordered_json out{{"schema", 1}, {"sub_mode", mode.name()}, {"dry_run", true}};
      for (const auto& [key, value] : set.dry_run_json.items()) {
        out[key] = value;
      }
      if (set.stop_message) {
        out[set.json_key] = nlohmann::ordered_json::array();
        for (const distill::Candidate& candidate : set.candidates) {
          out[set.json_key].push_back(candidate.document());
        }
        out["message"] = *set.stop_message;
        util::print_json(out);
      } else {
        // Written one candidate at a time: a merge dry run can list hundreds of thousands of
        // pairs.
        util::print_json_streaming_array(
            out, set.json_key, set.candidates.size(), [&set](std::size_t index) {
              distill::Candidate& candidate = set.candidates[index];
              return candidate.source ? candidate.document() : std::move(candidate.json);
            });
      }
    } else {
      std::fputs((set.stop_message ? *set.stop_message + "\n" : set.dry_run_text).c_str(), stdout);
    }
    return exit_code::k_ok;
  }
  if (set.stop_message) {
    std::fputs((*set.stop_message + "\n").c_str(), output.json ? stderr : stdout);
    return exit_code::k_ok;
  }

  // Refine's Tier 1 runs whatever is selected (D6 exemption): an empty selection still executes
  // it, and with no Tier 2 candidates there is nothing to ask.
  const bool automatic = !set.automatic_text.empty();
  bool automatic_shown = false;
  bool nothing_selected = false;
  std::vector<distill::Candidate> selected;
  if (mode.needs_selection() && !(automatic && set.candidates.empty())) {
    std::vector<std::size_t> indexes;
    if (options.all) {
      for (std::size_t i = 0; i < set.candidates.size(); ++i) {
        indexes.push_back(i);
      }
    } else if (!options.select.empty()) {
      std::vector<std::string> keys;
      for (const distill::Candidate& candidate : set.candidates) {
        keys.push_back(candidate.key);
      }
      const distill::Selection selection = distill::parse_selection(options.select, keys);
      if (!selection.error.empty()) {
        throw UsageError("--select: {}", selection.error);
      }
      indexes = selection.indexes;
    } else if (output.interactive() && !output.json) {
      if (automatic) {
        std::fputs((set.automatic_text + "\n").c_str(), stdout);
        automatic_shown = true;
      }
      indexes = distill::prompt_selection(set, stdio_terminal(), output.limit);
    } else {
      // Off a terminal a run that would ask changes nothing until it is answered, automatic
      // fixes included: a commit nobody chose is what the flags exist to prevent.
      std::fputs(fmt::format("git-vault: --{} needs a selection: nothing was changed.\n{}"
                             "Pass --select with numbers (1,3-4), keys or `a`, or --all, or run "
                             "it on a terminal to choose.{}\n",
                             mode.name(), distill::selection_help(set, k_keys_shown),
                             automatic ? "\ngit vault distill --auto applies the Tier 1 fixes "
                                         "alone."
                                       : "")
                     .c_str(),
                 stderr);
      return exit_code::k_no;
    }
    if (indexes.empty() && !automatic) {
      std::fputs((set.none_selected_message + "\n").c_str(), output.json ? stderr : stdout);
      return exit_code::k_ok;
    }
    nothing_selected = indexes.empty();
    for (std::size_t index : indexes) {
      selected.push_back(set.candidates[index]);
    }
  }

  distill::Execution execution = mode.execute(context, selected);
  std::string summary;
  if (automatic && !automatic_shown) {
    summary += set.automatic_text + "\n";
  }
  summary += execution.summary;
  if (nothing_selected) {
    summary += set.none_selected_message + "\n";
  }
  const int code = land_action(session, snapshot, std::move(execution.draft), landing, summary);
  return code;
}

int run(const Options& options, Session& session) {
  std::vector<std::string_view> chosen;
  for (const auto& [name, given] : options.sub_modes) {
    if (given) {
      chosen.push_back(name);
    }
  }
  for (const auto& [name, option] : options.argument_options) {
    if (option->count() > 0) {
      chosen.push_back(name);
    }
  }
  const distill::SubModeInfo* const row = distill::builtin_sub_modes().choose(chosen);
  if (row == nullptr) {
    if (options.dry_run || options.all || !options.select.empty()) {
      throw UsageError("--dry-run, --select and --all go with a sub-mode such as --purge");
    }
    if (options.local) {
      throw UsageError("--local goes with --meta");
    }
    return run_report(options, session);
  }
  if (options.record) {
    throw UsageError("--record goes with the report only; sub-modes always log their action");
  }
  if (options.local && row->name != "meta") {
    throw UsageError("--local goes with --meta");
  }
  if (options.all && !options.select.empty()) {
    throw UsageError("pass either --select or --all, not both");
  }
  return run_sub_mode(*row->make(), options, session);
}

}  // namespace distill_command

Runner define_distill(CLI::App& app) {
  using namespace distill_command;  // this file's own helpers
  auto options = std::make_shared<Options>();
  for (const distill::SubModeInfo& row : distill::builtin_sub_modes().rows()) {
    const std::string name(row.name);
    if (row.argument.empty()) {
      app.add_flag(fmt::format("--{}", name), options->sub_modes[name], std::string(row.help));
    } else {
      options->argument_options[name] =
          app.add_option(fmt::format("--{}", name), options->arguments[name], std::string(row.help))
              ->type_name(std::string(row.argument));
    }
  }
  app.add_option("--history", options->history,
                 "Prompt history for --dream and --review (default: git config vault.history, "
                 "else ~/.claude/history.jsonl)");
  app.add_flag("--dry-run", options->dry_run, "Show what would change; write nothing");
  app.add_flag("--record", options->record,
               "Report only: also log the report and refresh memory_health, as one commit");
  app.add_option("--select", options->select,
                 "Candidates to act on: numbers (1,3-4), keys (MEM-a; a merge pair is "
                 "MEM-a+MEM-b) or a for all");
  app.add_flag("--all", options->all, "Act on every candidate");
  app.add_flag("--local", options->local,
               "--meta: propose for this repository (what meta does anyway: the event store is "
               "per repository)");
  app.add_flag("--no-commit", options->landing.no_commit,
               "Leave the changes in the work tree instead of committing them");
  app.add_flag("--allow-dirty", options->landing.allow_dirty,
               "Run even when vault files have uncommitted changes");
  return [options](const Globals& globals) { return run(*options, *globals.session); };
}

}  // namespace gv::cmd
