// The dream sub-mode: themes the user keeps returning to in this repository's prompt history
// that no memory and no open task covers (doc/telemetry.md, "dream"; rules in
// core/distill/dream_rules.hpp, D10). Surfacing needs no selection (a stated exemption, D6):
// the run prints the themes and records itself in dream-log.json and memory_health's
// `last_dream` / `dream_count`, which are the next run's cursor.

#include <fmt/format.h>

#include "core/distill/dream_rules.hpp"
#include "core/distill/sub_mode.hpp"
#include "core/distill/telemetry_inputs.hpp"
#include "core/distill/telemetry_log.hpp"
#include "core/distill/telemetry_support.hpp"
#include "core/snapshot/snapshot.hpp"
#include "core/util/text.hpp"

namespace gv::distill {
namespace {

using Json = nlohmann::ordered_json;

constexpr std::string_view k_todo_path = "specs/TODO.md";

struct DreamRun {
  std::optional<std::string> since;
  events::HistoryQuery history;
  DreamResult result;
};

DreamRun read_dream_run(const SubModeContext& context) {
  const TelemetryInputs& inputs = telemetry_of(context, "dream");
  DreamRun run;
  run.since = health_cursor(context, "dream");
  std::optional<std::int64_t> since_ms;
  if (run.since) {
    if (const std::optional<Instant> instant = parse_instant(*run.since)) {
      since_ms = instant->seconds * 1000;
    }
  }
  run.history = read_history(inputs, since_ms);
  const std::optional<std::string> todo = context.snapshot.read(k_todo_path);
  run.result =
      find_dream_themes(run.history.prompts, context.state.vault.memories,
                        todo ? open_task_lines(*todo) : std::vector<std::string>{}, inputs.terms);
  return run;
}

// The records behind a theme: its prompts' timestamps, newest first (at most five named).
std::string prompt_records(const DreamTheme& theme) {
  constexpr std::size_t k_named = 5;
  std::string out;
  for (std::size_t i = 0; i < theme.prompt_timestamps.size() && i < k_named; ++i) {
    out += fmt::format("{}{}", i == 0 ? "" : ", ", theme.prompt_timestamps[i]);
  }
  if (theme.prompt_timestamps.size() > k_named) {
    out += fmt::format(" and {} more", theme.prompt_timestamps.size() - k_named);
  }
  return out;
}

std::string latest_date(const DreamTheme& theme) {
  return format_date(date_of(Instant{theme.latest_ms / 1000}));
}

Json theme_json(const DreamTheme& theme) {
  Json out{{"summary", theme.summary},          {"terms", theme.terms},
           {"prompts", theme.prompts},          {"sessions", theme.sessions},
           {"most_recent", latest_date(theme)}, {"rule", theme.rule},
           {"samples", theme.samples},          {"prompt_timestamps", theme.prompt_timestamps}};
  if (!theme.covered_by.empty()) {
    out["covered_rule"] = theme.covered_rule;
    out["covered_by"] = theme.covered_by;
  }
  return out;
}

std::string terminal_output(const DreamRun& run) {
  const DreamResult& result = run.result;
  std::string out;
  for (const DreamTheme& theme : result.themes) {
    out += fmt::format(
        "{} -- recurring interest, no existing memory or task found. [rule {}: {} prompts, {} "
        "sessions, most recent {}]\n",
        theme.summary, theme.rule, theme.prompts, theme.sessions, latest_date(theme));
    std::string samples;
    for (const std::string& sample : theme.samples) {
      samples += fmt::format("{}\"{}\"", samples.empty() ? "" : ", ", sample);
    }
    out += fmt::format("  Sample prompts: {}\n", samples);
    out += fmt::format("  Prompts (history.jsonl): {}\n", prompt_records(theme));
    out +=
        "  Suggested next step: `git vault distill --meta` to propose a task, or `git vault "
        "learn` to capture it as a memory.\n";
  }
  for (const DreamTheme& theme : result.covered) {
    out += fmt::format("(covered) {} -- {} by {}\n", theme.summary, theme.covered_rule,
                       theme.covered_by);
  }
  if (result.themes.empty()) {
    out += fmt::format(
        "--dream: no recurring theme without coverage in {} prompts (a theme needs three distinct "
        "sessions).\n",
        result.prompts_scanned);
  }
  return out;
}

class Dream final : public SubMode {
 public:
  [[nodiscard]] std::string_view name() const override { return "dream"; }
  [[nodiscard]] bool needs_selection() const override { return false; }

  [[nodiscard]] CandidateSet candidates(const SubModeContext& context) const override {
    const DreamRun run = read_dream_run(context);
    const DreamResult& result = run.result;
    CandidateSet set;
    if (!run.history.exists) {
      set.stop_message = fmt::format(
          "No prompt history at {}: nothing to dream over yet. Point --history or `git config "
          "vault.history` at the agent's history.jsonl.",
          telemetry_of(context, "dream").history_path);
      return set;
    }
    if (run.history.prompts.empty()) {
      set.stop_message = run.since ? fmt::format(
                                         "No new prompts for this repo in history.jsonl since {}. "
                                         "Nothing to dream over yet.",
                                         *run.since)
                                   : std::string(
                                         "No prompt history found for this repo in "
                                         "history.jsonl. Nothing to dream over yet.");
      return set;
    }
    set.dry_run_text =
        fmt::format("[DRY RUN] --dream: {} with no existing memory or task coverage:\n",
                    util::plural(result.themes.size(), "recurring theme", "recurring themes"));
    for (const DreamTheme& theme : result.themes) {
      set.dry_run_text += fmt::format(
          "  - \"{}\" -- seen {} times across {} session(s), most recent {} [rule {}]\n"
          "    prompts (history.jsonl): {}\n",
          theme.summary, theme.prompts, theme.sessions, latest_date(theme), theme.rule,
          prompt_records(theme));
    }
    for (const DreamTheme& theme : result.covered) {
      set.dry_run_text += fmt::format("  (skipped, {} {}) \"{}\"\n", theme.covered_rule,
                                      theme.covered_by, theme.summary);
    }
    set.dry_run_text += "\nNo changes made.\n";
    Json themes = Json::array();
    for (const DreamTheme& theme : result.themes) {
      themes.push_back(theme_json(theme));
    }
    Json covered = Json::array();
    for (const DreamTheme& theme : result.covered) {
      covered.push_back(theme_json(theme));
    }
    set.dry_run_json = Json{{"since", run.since ? Json(*run.since) : Json(nullptr)},
                            {"prompts_scanned", result.prompts_scanned},
                            {"themes", themes},
                            {"covered", covered}};
    set.automatic_text = terminal_output(run);
    return set;
  }

  [[nodiscard]] Execution execute(const SubModeContext& context,
                                  const std::vector<Candidate>& /*selected*/) const override {
    const DreamRun run = read_dream_run(context);
    const DreamResult& result = run.result;
    Execution execution;
    ActionDraft& draft = execution.draft;
    draft.type = "dream";
    draft.health_cursor = "dream";
    draft.notes = fmt::format("dream: {} themes surfaced from {} prompts", result.themes.size(),
                              result.prompts_scanned);
    draft.plan.subject =
        fmt::format("vault(dream): {} theme{} surfaced from {} prompts", result.themes.size(),
                    result.themes.size() == 1 ? "" : "s", result.prompts_scanned);
    // The log entry is committed, and the themes are the user's own words: it records which
    // prompts made each theme (their timestamps) and the counts, never their text or terms.
    // The text is printed, on the terminal only (doc/telemetry.md, "dream").
    Json themes = Json::array();
    for (const DreamTheme& theme : result.themes) {
      themes.push_back(Json{{"prompts", theme.prompts},
                            {"sessions", theme.sessions},
                            {"most_recent", latest_date(theme)},
                            {"rule", theme.rule},
                            {"prompt_timestamps", theme.prompt_timestamps}});
    }
    draft.extra = Json{{"themes", themes}};
    const std::optional<std::string> log_text = context.snapshot.read(k_dream_log_path);
    TelemetryLog log = TelemetryLog::parse(
        k_dream_log_path, log_text ? std::optional<std::string_view>(*log_text) : std::nullopt,
        {"total_dreamed", "total_themes_surfaced"});
    log.append("dream", "dream", context.clock.now,
               Json{{"session_id", nullptr},
                    {"since", run.since ? Json(*run.since) : Json(nullptr)},
                    {"prompts_scanned", result.prompts_scanned},
                    {"themes_surfaced", result.themes.size()},
                    {"themes_with_existing_coverage_skipped", result.covered.size()},
                    {"notes", draft.notes}});
    log.add("total_dreamed", 1);
    log.add("total_themes_surfaced", static_cast<std::int64_t>(result.themes.size()));
    draft.plan.write(std::string(k_dream_log_path), log.serialize());
    return execution;
  }
};

}  // namespace

std::unique_ptr<SubMode> make_dream() { return std::make_unique<Dream>(); }

}  // namespace gv::distill
