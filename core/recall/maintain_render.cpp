#include "core/recall/maintain_render.hpp"

#include <fmt/format.h>

#include <cmath>

#include "core/util/row_limit.hpp"
#include "core/util/text.hpp"

namespace gv::recall {
namespace {

constexpr std::string_view k_pressure_choices =
    "→ [k]eep / [p]in / [s]nooze / [d]emote / [a]rchive / [m]ark superseded";
constexpr std::string_view k_superseded_choices = "→ [a]rchive (recommended) / [k]eep";

std::string with_underline(const std::string& header) {
  return header + "\n" + header_underline(header) + "\n";
}

std::string review_age(const Candidate& candidate) {
  if (!candidate.days_since_review) {
    return "last reviewed: never (scored as 365 days)";
  }
  return fmt::format("last reviewed {} days ago",
                     static_cast<long long>(std::floor(*candidate.days_since_review)));
}

std::string render_candidate(std::size_t number, const Candidate& candidate) {
  const std::string prefix = fmt::format("{}. ", number);
  const std::string indent(prefix.size(), ' ');
  std::string out;
  if (candidate.kind == CandidateKind::pressure) {
    out += fmt::format("{}[{}] {}, {}\n", prefix, candidate.display_path,
                       util::plural(static_cast<std::size_t>(candidate.words), "word", "words"),
                       review_age(candidate));
  } else {
    out += fmt::format("{}[{}] status: superseded\n", prefix, candidate.display_path);
  }
  // The id, as the file writes it: what `--decide ID=ACTION` takes (or the list number).
  out += fmt::format("{}\"{}\" ^{}\n", indent, candidate.text, candidate.id);
  out += fmt::format(
      "{}{}\n", indent,
      candidate.kind == CandidateKind::pressure ? k_pressure_choices : k_superseded_choices);
  return out;
}

}  // namespace

std::string header_underline(std::string_view header) {
  std::string line;
  for (const char c : header) {
    if ((static_cast<unsigned char>(c) & 0xC0u) != 0x80u) {
      line += "━";
    }
  }
  return line;
}

std::string render_presentation(const Analysis& analysis, std::size_t limit) {
  if (!analysis.over_budget() && analysis.superseded.empty()) {
    std::string out = with_underline("recall-maintain — all clear") + "\n";
    out += fmt::format("Working memory: {} words (target: {}) - under budget\n",
                       analysis.working_words, analysis.budget);
    out += "No superseded entries pending cleanup.\n";
    out += "No action needed.\n";
    return out;
  }

  std::string out =
      with_underline(fmt::format("recall-maintain — {}", util::plural(analysis.candidate_count(),
                                                                      "candidate", "candidates"))) +
      "\n";
  if (analysis.over_budget()) {
    out += fmt::format("Working memory: {} words (target: {}, over by {})\n",
                       analysis.working_words, analysis.budget, analysis.needed());
  } else {
    out += fmt::format("Working memory: {} words (target: {}) - under budget\n",
                       analysis.working_words, analysis.budget);
  }

  std::size_t number = 0;
  if (analysis.over_budget()) {
    if (analysis.pool_size == 0) {
      out += "\nPressure candidates: none eligible (all working entries are pinned or snoozed).\n";
    } else {
      out += fmt::format("\nPressure candidates (need to free {} words):\n", analysis.needed());
      if (analysis.pool_words < analysis.needed()) {
        out += fmt::format("   (eligible entries free only {} of {} words)\n", analysis.pool_words,
                           analysis.needed());
      }
      util::RowLimit rows(limit);
      for (const Candidate& candidate : analysis.pressure) {
        ++number;
        if (rows.next()) {
          out += '\n';
          out += render_candidate(number, candidate);
        }
      }
      if (const std::string rest = rows.rest_line(); !rest.empty()) {
        out += '\n';
        out += rest;
      }
    }
  }
  if (!analysis.superseded.empty()) {
    out += "\nSuperseded cleanup:\n";
    util::RowLimit rows(limit);
    for (const Candidate& candidate : analysis.superseded) {
      ++number;
      if (rows.next()) {
        out += '\n';
        out += render_candidate(number, candidate);
      }
    }
    if (const std::string rest = rows.rest_line(); !rest.empty()) {
      out += '\n';
      out += rest;
    }
  }
  return out;
}

std::string render_summary(const MaintainResult& result, const Analysis& analysis) {
  const ActionCounts& counts = result.counts;
  std::string out = with_underline("recall-maintain — complete") + "\n";
  out += fmt::format("Working memory: {} -> {} words (target: {})\n\n", result.words_before,
                     result.words_after, analysis.budget);
  out += "Actions taken:\n";
  out += fmt::format("  Kept (reviewed): {}\n", counts.kept);
  out += fmt::format("  Pinned: {}\n", counts.pinned);
  if (counts.snoozed > 0 && result.latest_snooze) {
    out += fmt::format("  Snoozed: {} (until {})\n", counts.snoozed,
                       format_date(date_of(*result.latest_snooze)));
  } else {
    out += fmt::format("  Snoozed: {}\n", counts.snoozed);
  }
  out += fmt::format("  Demoted to _inbox.md: {}\n", counts.demoted);
  out += fmt::format("  Archived: {}\n", counts.archived);
  out += fmt::format("  Marked superseded: {}\n\n", counts.superseded);
  const SecondaryReport& secondary = result.secondary;
  out += "Secondary checks:\n";
  // The checks only report, so the stale line counts what was found, not what was verified.
  out += fmt::format("  Stale entries found: {}\n", secondary.stale.size());
  out += fmt::format("  Contradictions found: {}\n", secondary.contradictions.size());
  out += fmt::format("  Open loops reviewed: {}\n", secondary.open_loops_active);
  out += fmt::format("  Daily logs to archive: {}\n\n", secondary.old_daily_logs);
  out += fmt::format("Metadata: {} entries in {}\n", result.metadata.size(), k_metadata_path);
  if (!analysis.orphans.empty()) {
    out += fmt::format("Orphaned metadata entries: {}\n", analysis.orphans.size());
  }
  return out;
}

nlohmann::json analysis_json(const Analysis& analysis) {
  nlohmann::json pressure = nlohmann::json::array();
  for (const Candidate& candidate : analysis.pressure) {
    pressure.push_back(nlohmann::json{{"id", candidate.id},
                                      {"path", candidate.path},
                                      {"line", candidate.line},
                                      {"words", candidate.words},
                                      {"score", candidate.score}});
  }
  nlohmann::json superseded = nlohmann::json::array();
  for (const Candidate& candidate : analysis.superseded) {
    superseded.push_back(
        nlohmann::json{{"id", candidate.id}, {"path", candidate.path}, {"line", candidate.line}});
  }
  return nlohmann::json{{"schema", 1},
                        {"working_words", analysis.working_words},
                        {"budget", analysis.budget},
                        {"pressure_candidates", std::move(pressure)},
                        {"superseded", std::move(superseded)}};
}

}  // namespace gv::recall
