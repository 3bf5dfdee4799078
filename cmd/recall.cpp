#include <fmt/format.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <system_error>

#include "cmd/action.hpp"
#include "cmd/command.hpp"
#include "core/dates.hpp"
#include "core/error.hpp"
#include "core/git/repo.hpp"
#include "core/landing/land_recall.hpp"
#include "core/plan.hpp"
#include "core/recall/decisions.hpp"
#include "core/recall/doctor.hpp"
#include "core/recall/gate.hpp"
#include "core/recall/ids.hpp"
#include "core/recall/maintain.hpp"
#include "core/recall/maintain_render.hpp"
#include "core/recall/metadata.hpp"
#include "core/recall/plans.hpp"
#include "core/recall/scan.hpp"
#include "core/session/session.hpp"
#include "core/snapshot/worktree_snapshot.hpp"
#include "core/util/file.hpp"
#include "core/util/json_output.hpp"
#include "core/util/message.hpp"
#include "core/util/row_limit.hpp"
#include "core/util/text.hpp"

namespace gv::cmd {
namespace recall_command {

namespace fs = std::filesystem;

struct InitIdsOptions {
  bool dry_run = false;
  bool yes = false;
};

std::optional<std::string> read_answer() {
  std::string line;
  if (!std::getline(std::cin, line)) {
    return std::nullopt;
  }
  return line;
}

std::string lowered_answer(std::string_view answer) {
  std::string out;
  for (const char c : answer) {
    if (c != ' ' && c != '\t' && c != '\r') {
      out += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    }
  }
  return out;
}

bool is_yes(std::string_view answer) {
  const std::string word = lowered_answer(answer);
  return word == "y" || word == "yes";
}

bool is_cancel(std::string_view answer) {
  const std::string word = lowered_answer(answer);
  return word == "c" || word == "cancel" || word == "n" || word == "no";
}

std::string render_preview(const recall::InitIdsPlan& plan) {
  const std::string header = "recall-init-ids — preview";
  std::string out = header + "\n" + recall::header_underline(header) + "\n\n";
  const int will_tag = static_cast<int>(plan.tagged.size());
  out += fmt::format("Files scanned: {}\n", plan.files_scanned);
  out += fmt::format("Entries found: {} total\n", plan.already_tagged + will_tag + plan.malformed);
  out += fmt::format("  Already tagged: {}\n", plan.already_tagged);
  out += fmt::format("  Will be tagged: {}\n", will_tag);
  out += fmt::format("  Skipped (malformed): {}\n", plan.malformed);
  const std::vector<recall::TaggedLine> examples = recall::preview_examples(plan);
  if (!examples.empty()) {
    out += "\nExamples:\n";
    for (const recall::TaggedLine& example : examples) {
      out += fmt::format("\n  {}:\n    Before: {}\n    After:  {}\n", example.display_path,
                         example.before, example.after);
    }
  }
  return out;
}

std::string render_summary(const recall::InitIdsPlan& plan, std::size_t metadata_total) {
  const std::string header = "recall-init-ids — complete";
  std::string out = header + "\n" + recall::header_underline(header) + "\n\n";
  out +=
      fmt::format("Tagged: {} entries across {} files\n", plan.tagged.size(), plan.rewrites.size());
  out += fmt::format("Metadata: {} entries in {}\n", metadata_total, recall::k_metadata_path);
  if (!plan.rewrites.empty()) {
    std::size_t width = 0;
    for (const recall::FileRewrite& rewrite : plan.rewrites) {
      width = std::max(width, rewrite.display_path.size());
    }
    out += "\nFiles modified:\n";
    for (const recall::FileRewrite& rewrite : plan.rewrites) {
      out += fmt::format("  {:<{}}{} entries tagged\n", rewrite.display_path, width + 1,
                         rewrite.tagged);
    }
  }
  out += "\nYou can now run git vault recall maintain for pressure-based memory cleanup.\n";
  return out;
}

void print_warning(const Finding& finding) {
  const std::string where = finding.line ? fmt::format("{}:{}: ", finding.path, *finding.line)
                                         : fmt::format("{}: ", finding.path);
  std::fputs(fmt::format("git-vault: warning: {}{}\n", where, finding.message).c_str(), stderr);
}

nlohmann::json to_json(const recall::InitIdsPlan& plan, bool dry_run, int metadata_added,
                       const std::vector<Finding>& warnings) {
  nlohmann::json tagged = nlohmann::json::array();
  for (const recall::TaggedLine& line : plan.tagged) {
    tagged.push_back({{"path", line.path}, {"line", line.line}, {"id", line.id}});
  }
  nlohmann::json files = nlohmann::json::array();
  for (const recall::FileRewrite& rewrite : plan.rewrites) {
    files.push_back({{"path", rewrite.path}, {"tagged", rewrite.tagged}});
  }
  nlohmann::json findings = nlohmann::json::array();
  for (const Finding& finding : warnings) {
    nlohmann::json item{{"check", finding.check},
                        {"severity", finding.severity == Severity::error ? "error" : "warning"},
                        {"path", finding.path},
                        {"message", finding.message}};
    item["line"] = finding.line ? nlohmann::json(*finding.line) : nlohmann::json(nullptr);
    findings.push_back(std::move(item));
  }
  return nlohmann::json{{"schema", 1},
                        {"dry_run", dry_run},
                        {"files_scanned", plan.files_scanned},
                        {"already_tagged", plan.already_tagged},
                        {"malformed", plan.malformed},
                        {"tagged", std::move(tagged)},
                        {"files_modified", std::move(files)},
                        {"metadata_added", metadata_added},
                        {"findings", std::move(findings)}};
}

int run_init_ids(const InitIdsOptions& options, Session& session) {
  const Clock& clock = session.clock();
  const OutputSettings& output = session.output();
  git::Repo& repo = session.repo();
  git::ReadState read_state = git::capture_read_state(repo, landing::recall_guarded_paths());
  const WorktreeSnapshot snapshot(repo.workdir());
  const std::string now = format_instant(clock.now);

  // Metadata is read before anything is planned: invalid JSON stops the run with nothing written.
  recall::Metadata metadata;
  std::vector<Finding> warnings;
  const std::optional<std::string> metadata_bytes = snapshot.read(recall::k_metadata_path);
  if (metadata_bytes) {
    recall::MetadataRead read = recall::parse_metadata(*metadata_bytes, recall::k_metadata_path);
    metadata = std::move(read.records);
    warnings = std::move(read.findings);
  }

  const std::vector<recall::ParsedFile> files = recall::scan_managed_files(snapshot);
  const recall::InitIdsPlan plan =
      recall::plan_init_ids(files, recall::metadata_ids(metadata),
                            recall::content_random_source(files, metadata_bytes.value_or("")));
  warnings.insert(warnings.end(), plan.findings.begin(), plan.findings.end());
  // The backfill also runs when nothing is untagged: ids written by hand still get records.
  const int metadata_added = recall::add_missing_records(metadata, plan.inline_ids, now);

  const std::string nothing =
      fmt::format("All {} entries already have IDs. Nothing to do.\n", plan.already_tagged);
  // What would be tagged is shown before anything is written; on a terminal the user answers
  // (as the original command asked), elsewhere --yes is the answer.
  bool apply = !options.dry_run;
  if (apply && !plan.tagged.empty() && !options.yes) {
    if (output.json || !output.interactive()) {
      if (!output.json) {
        for (const Finding& finding : warnings) {
          print_warning(finding);
        }
        std::fputs(render_preview(plan).c_str(), stdout);
      }
      std::fputs(
          "git-vault: nothing changed: no terminal to ask on; pass --yes to tag these entries, "
          "or --dry-run to look only\n",
          stderr);
      return exit_code::k_no;
    }
    for (const Finding& finding : warnings) {
      print_warning(finding);
    }
    warnings.clear();
    std::fputs((render_preview(plan) + "\nApply? [y]es / [c]ancel ").c_str(), stdout);
    std::fflush(stdout);
    std::optional<std::string> answer = read_answer();
    while (answer && !is_yes(*answer) && !is_cancel(*answer)) {
      std::fputs("Answer y (apply) or c (cancel): ", stdout);
      std::fflush(stdout);
      answer = read_answer();
    }
    if (!answer || is_cancel(*answer)) {
      std::fputs("\nCancelled. Nothing changed.\n", stdout);
      return exit_code::k_no;
    }
    std::fputs("\n", stdout);
  }
  std::vector<std::string> written;
  if (apply) {
    Plan changes = recall::init_ids_plan(plan, metadata, metadata_added);
    for (const auto& [path, bytes] : changes.changes) {
      written.push_back(path);
    }
    landing::land_recall_init_ids(repo, snapshot, std::move(changes), std::move(read_state));
  }

  if (output.json) {
    util::print_json(to_json(plan, options.dry_run, metadata_added, warnings));
    return exit_code::k_ok;
  }
  for (const Finding& finding : warnings) {
    print_warning(finding);
  }
  std::string out;
  if (options.dry_run) {
    out = plan.tagged.empty() ? nothing : render_preview(plan);
    if (metadata_added > 0) {
      out += fmt::format("Metadata: would add {}\n", metadata_added);
    }
  } else {
    if (output.verbose) {
      for (const recall::TaggedLine& line : plan.tagged) {
        std::fputs(fmt::format("tagged {}:{} ^{}\n", line.path, line.line, line.id).c_str(),
                   stderr);
      }
    }
    out = plan.tagged.empty() ? nothing : render_summary(plan, metadata.size());
    // The summary counts the metadata already; the backfill on its own says what it added.
    if (metadata_added > 0 && plan.tagged.empty()) {
      out += fmt::format("Metadata: added {}\n", metadata_added);
    }
  }
  std::fputs(out.c_str(), stdout);
  if (!written.empty() && !output.quiet) {
    // Written to the work tree only, as `git vault index` does: the user stages them.
    std::vector<std::string> typed;
    for (const std::string& path : written) {
      typed.push_back(util::path_from_cwd(repo.workdir(), path));
    }
    util::print_note(fmt::format("wrote {}: {}; stage them with `git add {}`",
                                 util::plural(written.size(), "file", "files"),
                                 util::join(written, ", "), util::join(typed, " ")));
  }
  return exit_code::k_ok;
}

// ---------------------------------------------------------------------------------------------
// recall maintain

struct MaintainOptions {
  bool dry_run = false;
  bool apply_all = false;
  bool no_commit = false;
  bool allow_dirty = false;
  int budget = 0;  // 0: not given
  std::vector<std::string> decide;
};

void print_out(const std::string& text) { std::fputs(text.c_str(), stdout); }

int parse_budget(std::string_view text, std::string_view source) {
  int value = 0;
  bool ok = !text.empty() && text.size() <= 9;
  for (const char c : text) {
    ok = ok && c >= '0' && c <= '9';
    if (ok) {
      value = value * 10 + (c - '0');
    }
  }
  if (!ok || value < 1) {
    throw UsageError("{} '{}': expected a positive whole number of words", source, text);
  }
  return value;
}

int resolve_budget(const MaintainOptions& options, const git::Repo& repo) {
  if (options.budget > 0) {
    return options.budget;
  }
  if (const std::optional<std::string> configured = repo.config_string("vault.recallBudget")) {
    return parse_budget(*configured, "vault.recallBudget");
  }
  return recall::k_default_budget;
}

std::vector<std::string> list_daily_logs(const Snapshot& snapshot) {
  std::vector<std::string> paths;
  for (const SnapshotEntry& entry : snapshot.list("memory/daily/")) {
    // Only files directly in memory/daily/ are daily logs.
    if (entry.path.find('/', std::string_view{"memory/daily/"}.size()) == std::string::npos) {
      paths.push_back(entry.path);
    }
  }
  return paths;
}

// The questions on a terminal: apply all, or one answer per candidate. nullopt: cancelled.
std::optional<recall::Decisions> ask_decisions(const recall::Analysis& analysis) {
  std::optional<recall::Mode> mode;
  print_out(fmt::format("\n{} [a]ll / [i]ndividually / [c]ancel: ", recall::k_apply_prompt));
  while (!mode) {
    std::fflush(stdout);
    const std::optional<std::string> answer = read_answer();
    if (!answer) {
      return std::nullopt;
    }
    mode = recall::parse_mode_answer(*answer);
    if (!mode) {
      print_out("Answer a (apply all), i (decide individually) or c (cancel): ");
    }
  }
  if (*mode == recall::Mode::cancel) {
    return std::nullopt;
  }
  if (*mode == recall::Mode::apply_all) {
    return recall::resolve_decisions(analysis, {}, true);
  }
  recall::Decisions decisions;
  const std::vector<const recall::Candidate*> numbered = analysis.numbered();
  for (std::size_t i = 0; i < numbered.size(); ++i) {
    const recall::Candidate& candidate = *numbered[i];
    const bool pressure = candidate.kind == recall::CandidateKind::pressure;
    std::optional<recall::Decision> decision;
    while (!decision) {
      print_out(fmt::format("{}. ^{} [{}]: ", i + 1, candidate.id,
                            pressure ? "k/p/s [days]/d/a/m" : "a/k"));
      std::fflush(stdout);
      const std::optional<std::string> answer = read_answer();
      if (!answer) {
        return std::nullopt;
      }
      decision = recall::parse_candidate_answer(*answer, candidate.kind);
    }
    decisions.emplace(candidate.id, *decision);
  }
  return decisions;
}

// Log ids count seconds, so two runs in one second (a script, or --decide then --apply-all)
// would share one and `git vault revert` would find the newer. The commits of that second are
// at the top of HEAD's first-parent chain: the id gets the first `_2`, `_3`... none of them
// carries, as the distill log numbers its own.
// How to take a recall commit back. It has no distill log to rebuild, so git's own revert undoes
// it, but only what it committed: files git ignores (CLAUDE.local.md once init --recall ignored
// it) were written to the work tree alone, and a revert leaves them as this run left them.
std::string undo_line(const landing::RecallOutcome& outcome) {
  const std::string commit = outcome.commit->substr(0, 12);
  if (outcome.work_tree_only.empty()) {
    return fmt::format("Undo with: git revert {}\n", commit);
  }
  return fmt::format(
      "Undo with: git revert {} (it restores the committed files only: {} {} "
      "ignored by git and {} this run's changes)\n",
      commit, util::join(outcome.work_tree_only, ", "),
      outcome.work_tree_only.size() == 1 ? "is" : "are",
      outcome.work_tree_only.size() == 1 ? "keeps" : "keep");
}

std::string unique_log_id(const git::Repo& repo, const std::string& base, std::int64_t seconds) {
  constexpr int k_most_walked = 100;
  std::set<std::string> taken;
  std::optional<std::string> at = "HEAD";
  for (int walked = 0; at && walked < k_most_walked; ++walked) {
    git::CommitInfo commit;
    try {
      commit = repo.commit_info(*at);
    } catch (const Error&) {
      break;  // an unborn branch
    }
    if (commit.time < seconds - 1) {
      break;
    }
    for (const Trailer& trailer : commit.trailers) {
      if (trailer.key == "Vault-Log-Id") {
        taken.insert(trailer.value);
      }
    }
    at = commit.parents.empty() ? std::nullopt : std::optional<std::string>(commit.parents[0]);
  }
  std::string id = base;
  for (int suffix = 2; taken.contains(id); ++suffix) {
    id = fmt::format("{}_{}", base, suffix);
  }
  return id;
}

int run_maintain(const MaintainOptions& options, Session& session) {
  const Clock& clock = session.clock();
  const OutputSettings& output = session.output();
  git::Repo& repo = session.repo();
  const fs::path root = repo.workdir();
  git::ReadState read_state = git::capture_read_state(repo, landing::recall_guarded_paths());
  const WorktreeSnapshot snapshot(root);

  std::error_code ec;
  if (!fs::exists(root / "CLAUDE.local.md", ec) && !fs::is_directory(root / "memory", ec)) {
    std::fputs(
        "Memory system not initialized: there is no CLAUDE.local.md and no memory/ folder.\n",
        stderr);
    return exit_code::k_no;
  }

  // Preconditions come first and write nothing: every entry has an id, and no id repeats.
  recall::MaintainInput input;
  input.files = recall::scan_managed_files(snapshot);
  if (const std::optional<std::string> refusal =
          recall::maintain_refusal(recall::evaluate_id_gate(input.files))) {
    std::fputs(refusal->c_str(), stderr);
    return exit_code::k_no;
  }

  // A run that would refuse to land says so before it shows thousands of candidates.
  if (!options.dry_run) {
    if (const std::vector<std::string> dirty = landing::recall_blockers(repo, options.allow_dirty);
        !dirty.empty()) {
      throw Error("{}", git::dirty_refusal(repo, dirty, /*offers_allow_dirty=*/true));
    }
  }

  std::vector<Finding> warnings;
  recall::Metadata metadata;  // as read: the analysis takes it and reconciles it
  input.metadata_bytes = snapshot.read(recall::k_metadata_path);
  if (input.metadata_bytes) {
    // Invalid JSON throws `path:line: …` (exit 128) before anything is written.
    recall::MetadataRead read =
        recall::parse_metadata(*input.metadata_bytes, recall::k_metadata_path);
    metadata = std::move(read.records);
    warnings = std::move(read.findings);
  }
  input.now = clock.now;
  input.today = clock.today;
  input.budget = resolve_budget(options, repo);
  input.daily_logs = list_daily_logs(snapshot);
  for (const recall::ParsedFile& parsed : input.files) {
    warnings.insert(warnings.end(), parsed.findings.begin(), parsed.findings.end());
  }

  const recall::Analysis analysis = recall::analyze(input, std::move(metadata));
  warnings.insert(warnings.end(), analysis.warnings.begin(), analysis.warnings.end());
  for (const Finding& finding : warnings) {
    print_warning(finding);
  }

  // --decide ids are checked before anything is shown, so a typo never half-applies.
  const bool flags_decide = options.apply_all || !options.decide.empty();
  recall::Decisions decisions;
  if (flags_decide) {
    decisions = recall::resolve_decisions(analysis, options.decide, options.apply_all);
  }

  if (options.dry_run) {
    if (output.json) {
      util::print_json(recall::analysis_json(analysis));
    } else {
      print_out(recall::render_presentation(analysis, output.limit));
      print_out("\n" + recall::render_secondary(
                           recall::run_secondary_checks(input.files, analysis.metadata, input.now,
                                                        input.today, input.daily_logs),
                           output.limit));
    }
    return exit_code::k_ok;
  }

  if (!output.json) {
    // Asked one by one on a terminal, every candidate is shown; decided by flags, the list is
    // cut at --limit as the dry run's is.
    print_out(recall::render_presentation(analysis, flags_decide ? output.limit : 0));
  }
  if (analysis.candidate_count() > 0 && !flags_decide) {
    if (output.json || !output.interactive()) {
      std::fputs(
          "git-vault: nothing changed: no terminal to ask on; pass --decide ID=ACTION[:days] "
          "(repeatable) or --apply-all, or --dry-run to look only\n",
          stderr);
      return exit_code::k_no;
    }
    std::optional<recall::Decisions> asked = ask_decisions(analysis);
    if (!asked) {
      print_out("\nCancelled. Nothing changed.\n");
      return exit_code::k_no;
    }
    decisions = std::move(*asked);
  }

  const recall::MaintainResult result = recall::plan_maintain(input, analysis, decisions);
  if (const std::optional<std::string> changed =
          recall::changed_since_scan(input, result, snapshot)) {
    throw Error("{}: changed while maintain was running; nothing was written, run it again",
                *changed);
  }

  landing::RecallOutcome outcome;
  if (!result.empty()) {
    Plan plan = recall::maintain_plan(result, clock.now);
    plan.log_id = unique_log_id(repo, plan.log_id, clock.now.seconds);
    if (options.allow_dirty && !options.no_commit && !output.quiet) {
      say_what_allow_dirty_does(landing::recall_blockers(repo, /*allow_dirty=*/false), plan);
    }
    outcome = landing::land_recall_maintain(
        repo, snapshot, std::move(plan),
        {!options.no_commit, options.allow_dirty, std::move(read_state)});
    if (outcome.untracked) {
      std::fputs(
          "git-vault: note: CLAUDE.local.md and memory/ are not tracked by git; the changes are in "
          "the work tree only (no commit)\n",
          stderr);
    } else if (!outcome.work_tree_only.empty() && outcome.commit) {
      std::string list;
      for (const std::string& path : outcome.work_tree_only) {
        list += (list.empty() ? "" : ", ") + path;
      }
      std::fputs(
          fmt::format("git-vault: note: ignored by git, written without a commit: {}\n", list)
              .c_str(),
          stderr);
    }
  }

  if (output.json) {
    nlohmann::json document = recall::analysis_json(analysis);
    nlohmann::json applied = nlohmann::json::array();
    for (const auto& [id, action] : result.applied) {
      applied.push_back({{"id", id}, {"action", recall::action_name(action)}});
    }
    nlohmann::json written = nlohmann::json::array();
    for (const auto& [path, bytes] : result.writes) {
      written.push_back(path);
    }
    document["applied"] = std::move(applied);
    document["written"] = std::move(written);
    document["commit"] = outcome.commit ? nlohmann::json(*outcome.commit) : nlohmann::json(nullptr);
    util::print_json(document);
    return exit_code::k_ok;
  }
  print_out("\n" + recall::render_secondary(result.secondary, output.limit) + "\n" +
            result.summary);
  if (outcome.commit) {
    print_out(fmt::format("Committed {}\n{}", outcome.commit->substr(0, 12), undo_line(outcome)));
  }
  return exit_code::k_ok;
}

// ---------------------------------------------------------------------------------------------
// recall doctor

struct DoctorOptions {
  bool fix = false;
  bool allow_dirty = false;
};

std::string doctor_summary(const recall::DoctorReport& report) {
  std::vector<std::string> parts;
  if (report.respelled > 0) {
    parts.push_back(fmt::format("respell {} id(s)", report.respelled));
  }
  if (report.moved > 0) {
    parts.push_back(fmt::format("move {} id(s) onto their entries", report.moved));
  }
  if (report.dropped > 0) {
    parts.push_back(fmt::format("remove {} copied id(s)", report.dropped));
  }
  if (report.metadata_changed > 0) {
    parts.push_back(fmt::format("normalise {} metadata record(s)", report.metadata_changed));
  } else if (report.metadata_reformatted) {
    parts.emplace_back("rewrite metadata.json in its canonical layout");
  }
  std::string out;
  for (std::size_t i = 0; i < parts.size(); ++i) {
    out += (i == 0 ? "" : i + 1 == parts.size() ? " and " : ", ") + parts[i];
  }
  return out;
}

Plan doctor_plan(const recall::DoctorReport& report) {
  Plan plan;
  for (const auto& [path, bytes] : report.writes) {
    plan.write(path, bytes);
  }
  plan.subject = "vault(recall-doctor): " + doctor_summary(report);
  // One line per change reads well in a review up to a point; past it the diff says the rest.
  constexpr std::size_t k_body_lines = 200;
  std::size_t listed = 0;
  std::size_t left_out = 0;
  for (const recall::DoctorItem& item : report.items) {
    if (!item.fixed_by_doctor) {
      continue;
    }
    if (listed == k_body_lines) {
      ++left_out;
      continue;
    }
    ++listed;
    plan.body +=
        fmt::format("{}{}: {}\n", item.path,
                    item.line ? fmt::format(":{}", *item.line) : std::string{}, item.message);
  }
  if (left_out > 0) {
    plan.body += fmt::format("... and {} more (the diff has every one)\n", left_out);
  }
  plan.action = "recall-doctor";
  return plan;
}

nlohmann::json doctor_json(const recall::DoctorReport& report, const DoctorOptions& options,
                           const std::optional<std::string>& commit) {
  nlohmann::json items = nlohmann::json::array();
  for (const recall::DoctorItem& item : report.items) {
    items.push_back({{"kind", item.kind},
                     {"path", item.path},
                     {"line", item.line ? nlohmann::json(*item.line) : nlohmann::json(nullptr)},
                     {"id", item.id.empty() ? nlohmann::json(nullptr) : nlohmann::json(item.id)},
                     {"message", item.message},
                     {"fix", item.fix},
                     {"fixed_by_doctor", item.fixed_by_doctor}});
  }
  nlohmann::json written = nlohmann::json::array();
  for (const auto& [path, bytes] : report.writes) {
    written.push_back(path);
  }
  return {{"schema", 1},
          {"fix", options.fix},
          {"items", std::move(items)},
          {"respelled", report.respelled},
          {"moved", report.moved},
          {"removed_copies", report.dropped},
          {"metadata_changed", report.metadata_changed},
          {"untagged_after", report.untagged_after},
          {"written", std::move(written)},
          {"commit", commit ? nlohmann::json(*commit) : nlohmann::json(nullptr)}};
}

int run_doctor(const DoctorOptions& options, Session& session) {
  const Clock& clock = session.clock();
  git::Repo& repo = session.repo();
  git::ReadState read_state = git::capture_read_state(repo, landing::recall_guarded_paths());
  const WorktreeSnapshot snapshot(repo.workdir());

  recall::DoctorInput input;
  input.files = recall::scan_managed_files(snapshot);
  input.metadata_bytes = snapshot.read(recall::k_metadata_path);
  for (const std::string& path : list_daily_logs(snapshot)) {
    if (std::optional<std::string> bytes = snapshot.read(path)) {
      input.daily_logs.emplace_back(path, std::move(*bytes));
    }
  }
  input.now = format_instant(clock.now);
  const recall::DoctorReport report = recall::diagnose(input);

  landing::RecallOutcome outcome;
  if (options.fix && report.fixable()) {
    Plan plan = doctor_plan(report);
    if (options.allow_dirty && !session.output().quiet) {
      say_what_allow_dirty_does(landing::recall_blockers(repo, /*allow_dirty=*/false), plan);
    }
    outcome = landing::land_recall_maintain(repo, snapshot, std::move(plan),
                                            {true, options.allow_dirty, std::move(read_state)});
  }
  if (session.output().json) {
    print_out(doctor_json(report, options, outcome.commit).dump() + "\n");
  } else {
    std::string out;
    // --limit rows of each kind, in file order, so one kind by the thousand (ids respelled in a
    // large working memory) cannot hide another.
    std::map<std::string, util::RowLimit> shown;
    std::vector<std::pair<std::string, std::string>> lines;  // the line, and its fix or ""
    for (const recall::DoctorItem& item : report.items) {
      if (!shown.try_emplace(item.kind, session.output().limit).first->second.next()) {
        continue;
      }
      lines.emplace_back(
          fmt::format("{}{}: {}\n", item.path,
                      item.line ? fmt::format(":{}", *item.line) : std::string{}, item.message),
          options.fix && item.fixed_by_doctor ? std::string() : item.fix);
    }
    // A fix is printed once under the lines in a row that share it, as `check` prints them.
    for (std::size_t i = 0; i < lines.size(); ++i) {
      out += lines[i].first;
      if (!lines[i].second.empty() &&
          (i + 1 == lines.size() || lines[i + 1].second != lines[i].second)) {
        out += fmt::format("  fix: {}\n", lines[i].second);
      }
    }
    for (const auto& [kind, rows] : shown) {
      if (const std::string rest = rows.rest_line(); !rest.empty()) {
        out += fmt::format("{}: {}", kind, rest);
      }
    }
    if (!report.fixable()) {
      out += "Nothing for doctor to fix.\n";
    } else if (!options.fix) {
      out += fmt::format("`{}` would {}, as one commit.\n", recall::k_doctor_fix_command,
                         doctor_summary(report));
    } else if (outcome.commit) {
      out += fmt::format("Fixed: {} ({} {}).\n{}", doctor_summary(report),
                         outcome.commit->substr(0, 12), doctor_plan(report).subject,
                         undo_line(outcome));
    } else {
      out += fmt::format("Fixed in the work tree (not tracked by git, so no commit): {}.\n",
                         doctor_summary(report));
    }
    if (report.untagged_after > 0) {
      out += fmt::format("{} then tags the {} entr{} without an id.\n", recall::k_init_ids_command,
                         report.untagged_after, report.untagged_after == 1 ? "y" : "ies");
    }
    print_out(out);
  }
  if (options.fix) {
    return exit_code::k_ok;
  }
  const bool clean =
      !report.fixable() && report.untagged_after == 0 &&
      std::none_of(report.items.begin(), report.items.end(), [](const recall::DoctorItem& item) {
        // What still blocks maintain and the commit gate.
        return item.kind == "malformed-id" || item.kind == "duplicate-id";
      });
  return clean ? exit_code::k_ok : exit_code::k_no;
}

}  // namespace recall_command

Runner define_recall(CLI::App& app) {
  using namespace recall_command;  // this file's own helpers
  app.require_subcommand(1);
  auto init_options = std::make_shared<InitIdsOptions>();
  CLI::App* init_ids =
      app.add_subcommand("init-ids", "Give every untagged working-memory entry a ^tr id");
  init_ids->fallthrough();
  init_ids->add_flag("--dry-run", init_options->dry_run,
                     "Show what would be tagged; write nothing");
  init_ids->add_flag("--yes,-y", init_options->yes,
                     "Tag without asking (needed when there is no terminal to ask on)");

  auto maintain_options = std::make_shared<MaintainOptions>();
  CLI::App* maintain = app.add_subcommand(
      "maintain", "Pressure-based demotion, superseded cleanup and secondary checks");
  maintain->fallthrough();
  maintain->add_flag("--dry-run", maintain_options->dry_run,
                     "Show the candidates and checks; write nothing");
  maintain
      ->add_option("--decide", maintain_options->decide,
                   "Decide one candidate: ID=keep|pin|snooze[:days]|demote|archive|mark-superseded")
      ->type_name("ID=ACTION[:days]");
  maintain->add_flag("--apply-all", maintain_options->apply_all,
                     "Apply the recommended action to every candidate not decided by --decide");
  maintain
      ->add_option("--budget", maintain_options->budget,
                   "Working-memory word budget (default 1500)")
      ->check(CLI::Range(1, 1000000000));
  maintain->add_flag("--no-commit", maintain_options->no_commit,
                     "Write the work tree only; make no commit");
  maintain->add_flag("--allow-dirty", maintain_options->allow_dirty,
                     "Run even when CLAUDE.local.md or memory/ has uncommitted changes");

  auto doctor_options = std::make_shared<DoctorOptions>();
  CLI::App* doctor = app.add_subcommand(
      "doctor", "Report what an older working memory needs; --fix migrates it as one commit");
  doctor->fallthrough();
  doctor->add_flag("--fix", doctor_options->fix,
                   "Make the mechanical migrations (id spelling, misplaced ids, metadata keys "
                   "and tiers) as one commit");
  doctor->add_flag("--allow-dirty", doctor_options->allow_dirty,
                   "Run even when CLAUDE.local.md or memory/ has uncommitted changes");

  return [init_ids, init_options, maintain, maintain_options, doctor,
          doctor_options](const Globals& globals) -> int {
    if (doctor->parsed()) {
      return run_doctor(*doctor_options, *globals.session);
    }
    if (init_ids->parsed()) {
      return run_init_ids(*init_options, *globals.session);
    }
    if (maintain->parsed()) {
      return run_maintain(*maintain_options, *globals.session);
    }
    throw UsageError("recall: unknown subcommand");
  };
}

}  // namespace gv::cmd
