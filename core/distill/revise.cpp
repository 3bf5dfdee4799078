// The revise sub-mode: memories that recorded events corroborate or contradict, and recurring
// events no memory covers (doc/telemetry.md, "revise"; rules in core/distill/revise_rules.hpp,
// D10).

#include <fmt/format.h>

#include <map>
#include <set>

#include "core/distill/revise_rules.hpp"
#include "core/distill/sub_mode.hpp"
#include "core/distill/telemetry_inputs.hpp"
#include "core/distill/telemetry_log.hpp"
#include "core/distill/telemetry_support.hpp"
#include "core/error.hpp"
#include "core/memory/frontmatter_edit.hpp"
#include "core/snapshot/overlay_snapshot.hpp"
#include "core/util/row_limit.hpp"
#include "core/util/text.hpp"
#include "core/vault/vault.hpp"

namespace gv::distill {
namespace {

using Json = nlohmann::ordered_json;

constexpr std::string_view k_tombstone_suffix = ":tombstone";

// What one run reads and decides; candidates() and execute() both start from it.
struct ReviseRun {
  std::optional<std::string> since;
  events::EventQuery query;
  ReviseResult result;
};

ReviseRun read_revise_run(const SubModeContext& context) {
  const TelemetryInputs& inputs = telemetry_of(context, "revise");
  ReviseRun run;
  run.since = health_cursor(context, "revise");
  events::EventFilter filter;
  filter.since = run.since;
  run.query = read_events(inputs, filter);
  run.result = classify_revise(context.state.vault.memories, run.query.events, inputs.terms);
  return run;
}

// Evidence on one line: the first k_evidence_shown events, then how many more.
constexpr std::size_t k_evidence_shown = 5;
std::string evidence_lines(const std::vector<std::string>& ids,
                           const std::vector<std::string>& messages) {
  std::string out;
  for (std::size_t i = 0; i < ids.size() && i < k_evidence_shown; ++i) {
    out += fmt::format("{}{} ({})", i == 0 ? "" : ", ", ids[i], excerpt(messages[i], 60));
  }
  if (ids.size() > k_evidence_shown) {
    out += fmt::format(" and {} more", ids.size() - k_evidence_shown);
  }
  return out;
}

Json verdict_json(const MemoryVerdict& verdict, std::string_view action) {
  Json out{{"id", verdict.memory_id},
           {"classification",
            verdict.bucket == ReviseBucket::contradicted ? "contradicted" : "corroborated"},
           {"action", action},
           {"rule", verdict.rule},
           {"evidence_event_ids", verdict.evidence_ids}};
  if (!verdict.otel_error_types.empty()) {
    out["otel_evidence"] = Json{{"error.type", verdict.otel_error_types.front()}};
  }
  return out;
}

class Revise final : public SubMode {
 public:
  [[nodiscard]] std::string_view name() const override { return "revise"; }

  [[nodiscard]] CandidateSet candidates(const SubModeContext& context) const override {
    const TelemetryInputs& inputs = telemetry_of(context, "revise");
    CandidateSet set;
    set.none_selected_message = "No revisions selected. No changes made.";
    set.question =
        "Select revisions to apply (MEM-x: UPDATE with the proposed body; MEM-x:tombstone: "
        "tombstone as revise_superseded; gap-…: CREATE a memory). Unselected items are skipped.";
    const bool any_active =
        std::any_of(context.state.vault.memories.begin(), context.state.vault.memories.end(),
                    [](const Memory& memory) { return memory.active(); });
    if (!any_active) {
      set.stop_message =
          "No memories in vault to revise. Use `git vault learn` to add memories first.";
      return set;
    }
    const ReviseRun run = read_revise_run(context);
    const ReviseResult& result = run.result;
    if (run.query.events.empty()) {
      const std::string next =
          "Run `git vault distill` for the scores, or --purge/--merge/--compress to act on them.";
      if (run.since && run.query.stats.events > 0) {
        // Not the original's "No events captured yet": the store has events, the cursor is past
        // them all.
        set.stop_message = fmt::format(
            "No new events in specs/events.jsonl since the last revise, {}: the {} it holds are "
            "all from before it, and only later ones count.\n{}\nTo revise over them again, "
            "revert that revise run (`git vault log` lists it).",
            *run.since, util::plural(run.query.stats.events, "event", "events"), next);
        return set;
      }
      set.stop_message =
          "No events captured yet in specs/events.jsonl -- revise proceeds using vault scoring "
          "alone\n(staleness/duplicate/size), with zero event correlations this run.\n" +
          next;
      return set;
    }

    // One line per memory and gap, cut after --limit rows.
    std::string details;
    util::RowLimit rows(context.limit);
    for (const MemoryVerdict& verdict : result.memories) {
      const bool contradicted = verdict.bucket == ReviseBucket::contradicted;
      if (rows.next()) {
        details += fmt::format(
            "  - {} [{}] rule {}: {} correlated event(s), {} session(s); evidence: {}\n",
            verdict.memory_id, contradicted ? "contradicted" : "corroborated", verdict.rule,
            verdict.correlations.size(), verdict.sessions,
            evidence_lines(verdict.evidence_ids, verdict.evidence_messages));
      }
      if (!contradicted) {
        continue;
      }
      const std::string otel = verdict.otel_error_types.empty()
                                   ? std::string()
                                   : fmt::format(", OTel: {}", verdict.otel_error_types.front());
      const std::string proposed = proposed_revision(verdict, format_date(context.clock.today));
      Candidate update;
      update.key = verdict.memory_id;
      update.label = fmt::format(
          "{}: UPDATE -- contradicted by {} events in {} sessions at `{}` ({}) [rule {}]",
          verdict.memory_id, verdict.evidence_ids.size(), verdict.sessions, verdict.checkpoint,
          verdict.event_type, verdict.rule);
      update.details = fmt::format("Evidence: {}{}\nProposed new body:\n\n{}",
                                   evidence_lines(verdict.evidence_ids, verdict.evidence_messages),
                                   otel, proposed);
      update.json = Json{{"key", update.key},
                         {"id", verdict.memory_id},
                         {"action", "update"},
                         {"classification", "contradicted"},
                         {"rule", verdict.rule},
                         {"checkpoint", verdict.checkpoint},
                         {"event_type", verdict.event_type},
                         {"sessions", verdict.sessions},
                         {"evidence_event_ids", verdict.evidence_ids},
                         {"proposed_body", proposed}};
      set.candidates.push_back(std::move(update));
      Candidate tombstone;
      tombstone.key = verdict.memory_id + std::string(k_tombstone_suffix);
      tombstone.label = fmt::format("{}: TOMBSTONE (revise_superseded) -- same evidence [rule {}]",
                                    verdict.memory_id, verdict.rule);
      tombstone.details =
          fmt::format("Mark superseded by revise evidence: {}",
                      evidence_lines(verdict.evidence_ids, verdict.evidence_messages));
      tombstone.json = Json{{"key", tombstone.key},  {"id", verdict.memory_id},
                            {"action", "tombstone"}, {"classification", "contradicted"},
                            {"rule", verdict.rule},  {"evidence_event_ids", verdict.evidence_ids}};
      set.candidates.push_back(std::move(tombstone));
    }
    std::size_t knowledge_gaps = 0;
    for (const ReviseGap& gap : result.gaps) {
      if (rows.next()) {
        details += fmt::format("  - {} [gap] rule {}: {} events in {} sessions; evidence: {}{}\n",
                               gap.key, gap.rule, gap.evidence_ids.size(), gap.sessions,
                               evidence_lines(gap.evidence_ids, gap.evidence_messages),
                               gap.system_change()
                                   ? " -- a system change: escalate with `git vault distill --meta`"
                                   : "");
      }
      if (gap.system_change()) {
        continue;
      }
      ++knowledge_gaps;
      Candidate create;
      create.key = gap.key;
      create.label =
          fmt::format("{}: CREATE \"{}\" -- {} uncovered events in {} sessions [rule {}]", gap.key,
                      gap_title(gap), gap.evidence_ids.size(), gap.sessions, gap.rule);
      create.details =
          fmt::format("Evidence: {}\nProposed body:\n\n{}",
                      evidence_lines(gap.evidence_ids, gap.evidence_messages), gap_guidance(gap));
      create.json = Json{{"key", gap.key},
                         {"action", "create"},
                         {"classification", "gap"},
                         {"rule", gap.rule},
                         {"title", gap_title(gap)},
                         {"checkpoint", gap.checkpoint},
                         {"event_type", gap.event_type},
                         {"sessions", gap.sessions},
                         {"evidence_event_ids", gap.evidence_ids}};
      set.candidates.push_back(std::move(create));
    }
    details += rows.rest_line();

    set.dry_run_text = fmt::format(
        "{}\n\n[DRY RUN] Revise classification ({} events since {}):\n"
        "  Corroborated: {} memories (no action)\n"
        "  Contradicted: {} memories -- would prompt UPDATE/tombstone/skip\n"
        "  Gap: {} candidate memories -- would prompt CREATE ({} escalated to --meta)\n\n{}"
        "\nExpect misses: these rules catch only recurring, recorded signals.\n\n"
        "No changes made.\n",
        otel_notice(inputs.otel_enabled), result.events, run.since.value_or("the start"),
        result.count(ReviseBucket::corroborated), result.count(ReviseBucket::contradicted),
        knowledge_gaps, result.gaps.size() - knowledge_gaps, details);
    set.dry_run_json = Json{{"since", run.since ? Json(*run.since) : Json(nullptr)},
                            {"events_ingested",
                             {{"total_events", result.events},
                              {"deviation", result.deviations},
                              {"blocker", result.blockers},
                              {"reflection", result.reflections}}},
                            {"classification",
                             {{"corroborated", result.count(ReviseBucket::corroborated)},
                              {"contradicted", result.count(ReviseBucket::contradicted)},
                              {"gap", result.gaps.size()}}},
                            {"memories", Json::array()},
                            {"gaps", Json::array()}};
    for (const MemoryVerdict& verdict : result.memories) {
      set.dry_run_json["memories"].push_back(verdict_json(verdict, "none"));
    }
    for (const ReviseGap& gap : result.gaps) {
      set.dry_run_json["gaps"].push_back(Json{{"key", gap.key},
                                              {"rule", gap.rule},
                                              {"system_change", gap.system_change()},
                                              {"evidence_event_ids", gap.evidence_ids}});
    }
    if (set.candidates.empty()) {
      // Nothing to choose, but the run is recorded (doc/telemetry.md, "revise": corroborated is
      // "no action; logged"): its log entry and cursor land without a selection.
      set.automatic_text = fmt::format(
          "Revise: {} corroborated, 0 contradicted, 0 gaps to create -- no memory changes; the "
          "run is logged in {} and the cursor moves past these events.\n{}",
          result.count(ReviseBucket::corroborated), k_revise_log_path, details);
    }
    return set;
  }

  [[nodiscard]] Execution execute(const SubModeContext& context,
                                  const std::vector<Candidate>& selected) const override {
    const TelemetryInputs& inputs = telemetry_of(context, "revise");
    const ReviseRun run = read_revise_run(context);
    const ReviseResult& result = run.result;
    std::set<std::string> keys;
    for (const Candidate& candidate : selected) {
      keys.insert(candidate.key);
    }

    Execution execution;
    ActionDraft& draft = execution.draft;
    draft.type = "revise";
    draft.health_cursor = "revise";
    const OverlaySnapshot after(context.snapshot, draft.plan.changes);
    const std::string today = format_date(context.clock.today);
    std::size_t updated = 0;
    std::size_t tombstoned = 0;
    std::size_t created = 0;
    Json affected = Json::array();
    for (const MemoryVerdict& verdict : result.memories) {
      std::string action = "none";
      if (verdict.bucket == ReviseBucket::contradicted) {
        action = "skipped";
        const Memory* memory = find_memory(context.state.vault, verdict.memory_id);
        if (memory == nullptr) {
          throw Error("{}: no such memory", verdict.memory_id);
        }
        if (keys.contains(verdict.memory_id)) {
          // UPDATE wins when both were selected (as `--all` does): it keeps the old guidance.
          MemoryWrite write;
          write.op = HarvestOp::update;
          write.target_id = memory->id;
          write.title = memory->title;
          write.content = proposed_revision(verdict, today);
          write.keywords = memory->keywords;
          write.source =
              fmt::format("distill --revise ({})", util::join(verdict.evidence_ids, ", "));
          const WrittenMemory written = inputs.write_memory(after, write, context.clock.today);
          draft.plan.write(written.path, written.bytes);
          draft.plan.memories.push_back(memory->id);
          action = "updated";
          ++updated;
        } else if (keys.contains(verdict.memory_id + std::string(k_tombstone_suffix))) {
          const std::optional<std::string> bytes = after.read(memory->path);
          if (!bytes) {
            throw Error("{}: cannot read", memory->path);
          }
          FrontmatterEditor editor(memory->path, *bytes);
          editor.insert_fields({{"status", "tombstoned"},
                                {"tombstoned_at", today},
                                {"tombstone_reason", yaml_double_quoted("revise_superseded")}},
                               "summary", "token_count");
          draft.plan.write(memory->path, editor.bytes());
          draft.plan.memories.push_back(memory->id);
          action = "tombstoned";
          ++tombstoned;
        }
      }
      affected.push_back(verdict_json(verdict, action));
    }
    for (const ReviseGap& gap : result.gaps) {
      if (!keys.contains(gap.key) || gap.system_change()) {
        continue;
      }
      MemoryWrite write;
      write.op = HarvestOp::create;
      write.title = gap_title(gap);
      write.content = gap_guidance(gap);
      write.keywords = gap.key_terms;
      write.source = fmt::format("distill --revise gap ({})", util::join(gap.evidence_ids, ", "));
      const WrittenMemory written = inputs.write_memory(after, write, context.clock.today);
      draft.plan.write(written.path, written.bytes);
      draft.plan.memories.push_back(written.id);
      affected.push_back(Json{{"id", written.id},
                              {"classification", "gap"},
                              {"action", "created"},
                              {"rule", gap.rule},
                              {"evidence_event_ids", gap.evidence_ids}});
      ++created;
    }
    draft.changed_memories = updated + tombstoned + created > 0;
    draft.affected_memories = affected;
    draft.notes =
        fmt::format("revise: {} updated, {} tombstoned, {} created", updated, tombstoned, created);
    draft.plan.subject = draft.changed_memories
                             ? fmt::format("vault(revise): update {}, tombstone {}, create {}",
                                           updated, tombstoned, created)
                             : fmt::format("vault(revise): {} corroborated, no memory changed",
                                           result.count(ReviseBucket::corroborated));

    const std::optional<std::string> log_text = context.snapshot.read(k_revise_log_path);
    TelemetryLog log = TelemetryLog::parse(
        k_revise_log_path, log_text ? std::optional<std::string_view>(*log_text) : std::nullopt,
        {"total_revised", "total_corroborated", "total_contradicted", "total_gaps_created"});
    log.append("revise", "revise", context.clock.now,
               Json{{"session_id", nullptr},
                    {"since", run.since ? Json(*run.since) : Json(nullptr)},
                    {"events_ingested",
                     {{"total_events", result.events},
                      {"deviation", result.deviations},
                      {"blocker", result.blockers},
                      {"reflection", result.reflections}}},
                    {"otel_joins",
                     {{"sessions_with_cc_session_id", result.with_cc_session},
                      {"otel_enabled", inputs.otel_enabled},
                      {"outcome_records_matched", 0}}},
                    {"classification",
                     {{"corroborated", result.count(ReviseBucket::corroborated)},
                      {"contradicted", result.count(ReviseBucket::contradicted)},
                      {"gap", result.gaps.size()}}},
                    {"affected_memories", affected},
                    {"notes", draft.notes}});
    log.add("total_revised", static_cast<std::int64_t>(updated + tombstoned));
    log.add("total_corroborated",
            static_cast<std::int64_t>(result.count(ReviseBucket::corroborated)));
    log.add("total_contradicted",
            static_cast<std::int64_t>(result.count(ReviseBucket::contradicted)));
    log.add("total_gaps_created", static_cast<std::int64_t>(created));
    draft.plan.write(std::string(k_revise_log_path), log.serialize());
    execution.summary = fmt::format("{}\nRevise: {} updated, {} tombstoned, {} created.\n",
                                    otel_notice(inputs.otel_enabled), updated, tombstoned, created);
    return execution;
  }
};

}  // namespace

std::unique_ptr<SubMode> make_revise() { return std::make_unique<Revise>(); }

}  // namespace gv::distill
