#include "core/scoring/render.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <iterator>
#include <nlohmann/json.hpp>
#include <string_view>

#include "core/scoring/report_json.hpp"
#include "core/util/text.hpp"

// Choices for what the /distill report template leaves open (doc/decisions.md D5):
// - A candidate list item is `- {id} (score: {composite:.2f})`; under merge and compress it also
//   shows the score their heading names, labelled: `- {id} (duplicate: 0.75, score: 0.40)`, so
//   the number beside each memory is the one the heading's threshold is about. Items are in id
//   order, as in the JSON.
// - Averages of scores print with 2 decimals; "Average tokens/memory" is rounded to a whole token
//   (tokens are counts, decimals there would be false precision); the never-retrieved share is an
//   integer percent, rounded half up.
// - Category Distribution shows the upper-cased category (`(none)` when a memory has neither a
//   category nor tags); categories and clusters are listed by name.
// - An empty table (no active memories) is replaced by `None`, like the empty candidate lists;
//   a missing oldest/newest/most-retrieved value prints `None` (most retrieved is missing when no
//   memory was ever retrieved).
// - Status emoji: healthy 🟢, manageable 🟡, concerning 🟠, critical 🔴.
// - Recommended actions: one line per non-empty reason, `- `git vault distill FLAG`: N memories
//   (reason)`, in the order purge, merge, compress, refine (review candidates), gc; `None` when
//   there is nothing to do.
// - `--verbose` appends a "Memory Scores" table after Recommended Actions, so the default report
//   is unchanged by it.
// - Table cells escape `|` and flatten line breaks, so a tombstone reason cannot break a table.

namespace gv::scoring {

namespace {

using Out = std::back_insert_iterator<std::string>;

std::string cell(std::string_view text) {
  std::string escaped;
  escaped.reserve(text.size());
  for (const char c : text) {
    if (c == '|') {
      escaped += "\\|";
    } else if (c == '\n' || c == '\r') {
      escaped += ' ';
    } else {
      escaped += c;
    }
  }
  return escaped;
}

std::string two_decimals(double value) { return fmt::format("{:.2f}", value); }

std::string_view plural(std::int64_t count, std::string_view one, std::string_view many) {
  return count == 1 ? one : many;
}

std::string_view status_emoji(HealthStatus status) {
  switch (status) {
    case HealthStatus::healthy:
      return "🟢";
    case HealthStatus::manageable:
      return "🟡";
    case HealthStatus::concerning:
      return "🟠";
    case HealthStatus::critical:
      return "🔴";
  }
  return "🔴";
}

std::string_view status_title(HealthStatus status) {
  switch (status) {
    case HealthStatus::healthy:
      return "Healthy";
    case HealthStatus::manageable:
      return "Manageable";
    case HealthStatus::concerning:
      return "Concerning";
    case HealthStatus::critical:
      return "Critical";
  }
  return "Critical";
}

void separator(Out out) { fmt::format_to(out, "\n---\n\n"); }

// The rows of a list or table, cut after `limit` (0: all) with a line that says how many are
// left out and how to see them: at 10,000 memories a person reads the first rows and the counts.
template <class T, class Row>
void rows(Out out, const std::vector<T>& list, std::size_t limit, Row row) {
  const std::size_t shown = limit == 0 ? list.size() : std::min(limit, list.size());
  for (std::size_t i = 0; i < shown; ++i) {
    row(list[i]);
  }
  if (shown < list.size()) {
    fmt::format_to(out, "\n... and {} more (`--limit 0` lists them all; `--json` has every one)\n",
                   list.size() - shown);
  }
}

void overview(Out out, const Overview& overview) {
  const auto dated = [](const std::optional<MemoryAtDate>& memory) {
    return memory ? fmt::format("{} ({})", format_date(memory->created), cell(memory->id))
                  : std::string("None");
  };
  fmt::format_to(out,
                 "### Overview\n\n"
                 "| Metric | Value |\n"
                 "|--------|-------|\n"
                 "| Total memories | {} |\n"
                 "| Total tokens | {} |\n"
                 "| Average tokens/memory | {} |\n"
                 "| Oldest memory | {} |\n"
                 "| Newest memory | {} |\n",
                 overview.total_count, overview.total_tokens, overview.average_tokens,
                 dated(overview.oldest), dated(overview.newest));
}

void categories(Out out, const std::vector<CategoryRow>& list, std::size_t limit) {
  fmt::format_to(out, "### Category Distribution\n\n");
  if (list.empty()) {
    fmt::format_to(out, "None\n");
    return;
  }
  fmt::format_to(out,
                 "| Category | Count | Tokens | Avg Score |\n"
                 "|----------|-------|--------|-----------|\n");
  rows(out, list, limit, [&](const CategoryRow& row) {
    fmt::format_to(out, "| {} | {} | {} | {} |\n",
                   row.category.empty() ? std::string("(none)") : cell(row.category), row.count,
                   row.tokens, two_decimals(row.average_composite));
  });
}

void clusters(Out out, const std::vector<ClusterRow>& list, std::size_t limit) {
  fmt::format_to(out, "### Topic Clusters\n\n");
  if (list.empty()) {
    fmt::format_to(out, "None\n");
    return;
  }
  fmt::format_to(out,
                 "| Cluster | Memories | Avg Staleness | Avg Duplicate |\n"
                 "|---------|----------|---------------|---------------|\n");
  rows(out, list, limit, [&](const ClusterRow& row) {
    fmt::format_to(out, "| {} | {} | {} | {} |\n", cell(row.cluster), row.count,
                   two_decimals(row.average_staleness), two_decimals(row.average_duplicate));
  });
}

// While nothing in the repository has ever recorded a retrieval.
bool no_retrieval_evidence(const Report& report) {
  return report.recording && !report.recording->retrievals;
}

// Where the retrieval and event signals come from, as rows of the Retrieval Statistics table.
void recording_rows(Out out, const Recording& recording) {
  std::string retrievals = "yes";
  if (recording.first_retrieval && recording.last_retrieval) {
    retrievals = *recording.first_retrieval == *recording.last_retrieval
                     ? fmt::format("yes, last on {}", format_date(*recording.last_retrieval))
                     : fmt::format("yes, the memories' last retrievals from {} to {}",
                                   format_date(*recording.first_retrieval),
                                   format_date(*recording.last_retrieval));
  }
  fmt::format_to(out, "| Retrievals recorded | {} |\n",
                 recording.retrievals
                     ? retrievals
                     : std::string("never: nothing here has recorded a retrieval, so \"never "
                                   "retrieved\" is no evidence yet"));
  fmt::format_to(out, "| Events recorded | {} |\n",
                 recording.events
                     ? (recording.first_event
                            ? fmt::format("yes, the first at {}", cell(*recording.first_event))
                            : std::string("yes"))
                     : std::string("never"));
  fmt::format_to(out, "| Recorded by | {} |\n",
                 recording.recorded_by.empty()
                     ? std::string("no agent hooks: `git vault init --agent claude` wires Claude "
                                   "Code's")
                     : fmt::format("the hooks of {}", util::join(recording.recorded_by, ", ")));
}

void retrieval(Out out, const RetrievalStatistics& stats) {
  const std::string most_retrieved =
      stats.most_retrieved_id
          ? fmt::format("{} ({} {})", cell(*stats.most_retrieved_id), stats.most_retrieved_count,
                        plural(stats.most_retrieved_count, "time", "times"))
          : std::string("None");
  fmt::format_to(out,
                 "### Retrieval Statistics\n\n"
                 "| Metric | Value |\n"
                 "|--------|-------|\n"
                 "| Never retrieved | {} ({}%) |\n"
                 "| Retrieved 1-3 times | {} |\n"
                 "| Retrieved 4+ times | {} |\n"
                 "| Most retrieved | {} |\n",
                 stats.never_retrieved, stats.never_retrieved_percent, stats.retrieved_one_to_three,
                 stats.retrieved_four_or_more, most_retrieved);
}

// Purge candidates whose score holds "never retrieved" while no retrieval was ever recorded: the
// component is as the seed defines it, the reader is told it is no evidence.
void purge_evidence_note(Out out, const Report& report) {
  if (!no_retrieval_evidence(report)) {
    return;
  }
  std::size_t affected = 0;
  for (const Candidate& candidate : report.candidates.purge) {
    const auto score =
        std::lower_bound(report.scores.begin(), report.scores.end(), candidate.id,
                         [](const Score& s, const std::string& id) { return s.id < id; });
    if (score != report.scores.end() && score->id == candidate.id && score->zero_retrieval == 1.0) {
      ++affected;
    }
  }
  if (affected > 0) {
    fmt::format_to(out,
                   "\n**No evidence**: {} of these {} score \"never retrieved\", but no retrieval "
                   "has ever been recorded in this repository; review them before purging.\n",
                   affected, affected == 1 ? "candidate has its" : "candidates have their");
  }
}

void candidate_list(Out out, std::string_view heading, const std::vector<Candidate>& list,
                    std::size_t limit, std::string_view named = {}) {
  fmt::format_to(out, "#### {}\n", heading);
  if (list.empty()) {
    fmt::format_to(out, "None\n");
    return;
  }
  rows(out, list, limit, [&](const Candidate& candidate) {
    if (!named.empty() && candidate.named) {
      fmt::format_to(out, "- {} ({}: {}, score: {})\n", candidate.id, named,
                     two_decimals(*candidate.named), two_decimals(candidate.composite));
    } else {
      fmt::format_to(out, "- {} (score: {})\n", candidate.id, two_decimals(candidate.composite));
    }
  });
}

void maintenance(Out out, const Report& report, std::size_t limit) {
  const Candidates& candidates = report.candidates;
  fmt::format_to(out, "### Maintenance Candidates\n\n");
  candidate_list(out, "Purge Candidates (score >= 0.7)", candidates.purge, limit);
  purge_evidence_note(out, report);
  fmt::format_to(out, "\n");
  candidate_list(out, "Merge Candidates (duplicate > 0.6)", candidates.merge, limit, "duplicate");
  fmt::format_to(out, "\n");
  candidate_list(out, "Compress Candidates (size > 0.5)", candidates.compress, limit, "size");
  fmt::format_to(out, "\n");
  candidate_list(out, "Review Candidates (score 0.3-0.7)", candidates.review, limit);
}

void tombstoned(Out out, const Report& report, std::size_t limit) {
  fmt::format_to(out, "### Tombstoned Memories\n\n");
  if (report.tombstoned.empty()) {
    fmt::format_to(out, "None.\n");
    return;
  }
  fmt::format_to(out,
                 "| Memory | Tombstoned Date | Reason | Days Until GC |\n"
                 "|--------|----------------|--------|---------------|\n");
  rows(out, report.tombstoned, limit, [&](const TombstonedRow& row) {
    fmt::format_to(out, "| {} | {} | {} | {} |\n", cell(row.id),
                   row.tombstoned_at ? format_date(*row.tombstoned_at) : std::string("unknown"),
                   cell(row.tombstone_reason), row.days_until_gc);
  });
  fmt::format_to(out,
                 "\n**Total tombstoned**: {}\n"
                 "**Eligible for GC**: {} (past 7-day grace period)\n",
                 report.tombstoned.size(), report.gc_eligible_count);
}

void health(Out out, const Report& report) {
  // An unreadable memory file holds the status at Concerning whatever the score says: say so,
  // or the score and the threshold table below contradict the status.
  const HealthStatus by_score = health_status(report.health_score);
  const std::string held =
      report.status != by_score && !report.unreadable.empty()
          ? fmt::format(" ({} {} {} it from {}: see Unreadable Memory Files)",
                        report.unreadable.size(),
                        plural(static_cast<std::int64_t>(report.unreadable.size()),
                               "unreadable memory file", "unreadable memory files"),
                        report.unreadable.size() == 1 ? "keeps" : "keep", status_title(by_score))
          : std::string{};
  fmt::format_to(out,
                 "### Health Score\n\n"
                 "**Score**: {}/100\n"
                 "**Status**: {} {}{}\n\n"
                 "Formula: `100 - (purge_count * 3) - (merge_count * 5) - (compress_count * 2)`\n\n"
                 "| Threshold | Status |\n"
                 "|-----------|--------|\n"
                 "| 80-100 | Healthy |\n"
                 "| 60-79 | Manageable |\n"
                 "| 40-59 | Concerning |\n"
                 "| 0-39 | Critical |\n",
                 report.health_score, status_emoji(report.status), status_title(report.status),
                 held);
}

void actions(Out out, const Report& report) {
  const std::vector<RecommendedAction>& list = report.actions;
  fmt::format_to(out, "### Recommended Actions\n\n");
  if (list.empty()) {
    fmt::format_to(out, "None\n");
    return;
  }
  for (const RecommendedAction& action : list) {
    const auto count = static_cast<std::int64_t>(action.count);
    const bool unfounded = action.flag == "--purge" && no_retrieval_evidence(report);
    fmt::format_to(out, "- `git vault distill {}`: {} {} ({}){}\n", action.flag, count,
                   plural(count, "memory", "memories"), action.reason,
                   unfounded ? "; review first: \"never retrieved\" is no evidence here" : "");
  }
}

void memory_scores(Out out, const std::vector<Score>& scores, std::size_t limit) {
  fmt::format_to(out, "### Memory Scores\n\n");
  if (scores.empty()) {
    fmt::format_to(out, "None\n");
    return;
  }
  fmt::format_to(out,
                 "| Memory | Cluster | Category | Tokens | Staleness | Zero Retrieval | Size | "
                 "Duplicate | Composite | Classification |\n"
                 "|--------|---------|----------|--------|-----------|----------------|------|"
                 "-----------|-----------|----------------|\n");
  rows(out, scores, limit, [&](const Score& score) {
    fmt::format_to(out, "| {} | {} | {} | {} | {} | {} | {} | {} | {} | {} |\n", cell(score.id),
                   cell(score.cluster), score.category.empty() ? "(none)" : cell(score.category),
                   score.token_count, two_decimals(score.staleness),
                   two_decimals(score.zero_retrieval), two_decimals(score.size_penalty),
                   two_decimals(score.duplicate), two_decimals(score.composite),
                   classification_label(score.classification));
  });
}

// Files no score or index holds, named before anything is said about the rest.
void unreadable(Out out, const std::vector<UnreadableRow>& list, std::size_t limit) {
  fmt::format_to(out,
                 "### Unreadable Memory Files\n\n"
                 "{} {} could not be read; {} in no score, no index and no search:\n\n",
                 list.size(), plural(static_cast<std::int64_t>(list.size()), "file", "files"),
                 list.size() == 1 ? "it is" : "they are");
  rows(out, list, limit, [&](const UnreadableRow& row) {
    fmt::format_to(
        out, "- {}{}: {}{}\n", row.path, row.line ? fmt::format(":{}", *row.line) : std::string{},
        row.message,
        row.fix.empty() ? std::string{} : fmt::format(" (fix: {})", util::code_span(row.fix)));
  });
}

}  // namespace

std::string render_markdown(const Report& report, bool verbose, std::size_t limit) {
  std::string text;
  const Out out(text);
  fmt::format_to(out,
                 "## Memory Vault Health Report\n\n"
                 "**Generated**: {}\n"
                 "**Vault**: .memory/\n",
                 format_date(report.today));
  separator(out);
  overview(out, report.overview);
  if (!report.unreadable.empty()) {
    separator(out);
    unreadable(out, report.unreadable, limit);
  }
  separator(out);
  categories(out, report.categories, limit);
  separator(out);
  clusters(out, report.clusters, limit);
  separator(out);
  retrieval(out, report.retrieval);
  if (report.recording) {
    recording_rows(out, *report.recording);
  }
  separator(out);
  maintenance(out, report, limit);
  separator(out);
  tombstoned(out, report, limit);
  separator(out);
  health(out, report);
  separator(out);
  actions(out, report);
  if (verbose) {
    separator(out);
    memory_scores(out, report.scores, limit);
  }
  return text;
}

namespace {

// One JSON value as nlohmann prints it, so the streamed document equals
// report_json(report).dump(2) byte for byte, written in place: a value object per field cost a
// tenth of a warm report at 10,000 memories.
void put_value(std::string& out, std::string_view text) {
  if (!util::valid_utf8(text)) {
    out += nlohmann::json(std::string(text)).dump();  // nlohmann's own error on bad UTF-8
    return;
  }
  static constexpr char k_hex[] = "0123456789abcdef";
  out += '"';
  for (const char c : text) {
    switch (c) {
      case '"':
        out += "\\\"";
        break;
      case '\\':
        out += "\\\\";
        break;
      case '\b':
        out += "\\b";
        break;
      case '\f':
        out += "\\f";
        break;
      case '\n':
        out += "\\n";
        break;
      case '\r':
        out += "\\r";
        break;
      case '\t':
        out += "\\t";
        break;
      default:
        if (static_cast<unsigned char>(c) < 0x20) {
          out += "\\u00";
          out += k_hex[static_cast<unsigned char>(c) >> 4];
          out += k_hex[static_cast<unsigned char>(c) & 0x0F];
        } else {
          out += c;
        }
    }
  }
  out += '"';
}

void put_value(std::string& out, const std::string& text) {
  put_value(out, std::string_view(text));
}

void put_value(std::string& out, double value) {
  if (!std::isfinite(value)) {
    out += "null";
    return;
  }
  std::array<char, 64> buffer{};
  const char* end = nlohmann::detail::to_chars(buffer.data(), buffer.data() + buffer.size(), value);
  out.append(buffer.data(), static_cast<std::size_t>(end - buffer.data()));
}

void put_value(std::string& out, std::int64_t value) { out += fmt::format_int(value).c_str(); }
void put_value(std::string& out, int value) { put_value(out, static_cast<std::int64_t>(value)); }

void put_ids(std::string& out, const char* key, const std::vector<Candidate>& candidates,
             bool last) {
  out += fmt::format("    \"{}\": ", key);
  if (candidates.empty()) {
    out += "[]";
  } else {
    out += "[\n";
    for (std::size_t i = 0; i < candidates.size(); ++i) {
      out += "      ";
      put_value(out, candidates[i].id);
      out += i + 1 < candidates.size() ? ",\n" : "\n";
    }
    out += "    ]";
  }
  out += last ? "\n" : ",\n";
}

}  // namespace

void write_json(const Report& report, const std::function<void(std::string_view)>& sink) {
  // Written straight out in report_json's key order (sorted, as its std::map keeps them) with
  // dump(2)'s layout: building the document first cost as much memory as the scores themselves
  // and a tenth of a warm report's time. Handed to `sink` a buffer at a time, so the text of a
  // large vault's report (350 bytes a memory) is never held whole.
  constexpr std::size_t k_buffer = std::size_t{64} << 10;
  std::string out;
  out.reserve(k_buffer + 1024);
  const auto flush_if_full = [&] {
    if (out.size() >= k_buffer) {
      sink(out);
      out.clear();
    }
  };
  out += "{\n  \"candidates\": {\n";
  put_ids(out, "compress", report.candidates.compress, false);
  put_ids(out, "merge", report.candidates.merge, false);
  put_ids(out, "purge", report.candidates.purge, false);
  put_ids(out, "review", report.candidates.review, true);
  out += "  },\n  \"health_score\": ";
  put_value(out, report.health_score);
  out += ",\n  \"memories\": ";
  if (report.scores.empty()) {
    out += "[]";
  } else {
    out += "[\n";
    for (std::size_t i = 0; i < report.scores.size(); ++i) {
      const Score& score = report.scores[i];
      out += "    {\n      \"category\": ";
      put_value(out, score.category);
      out += ",\n      \"classification\": ";
      put_value(out, classification_label(score.classification));
      out += ",\n      \"cluster\": ";
      put_value(out, score.cluster);
      out += ",\n      \"composite\": ";
      put_value(out, score.composite);
      out += ",\n      \"duplicate\": ";
      put_value(out, score.duplicate);
      out += ",\n      \"id\": ";
      put_value(out, score.id);
      out += ",\n      \"size_penalty\": ";
      put_value(out, score.size_penalty);
      out += ",\n      \"staleness\": ";
      put_value(out, score.staleness);
      out += ",\n      \"token_count\": ";
      put_value(out, score.token_count);
      out += ",\n      \"zero_retrieval\": ";
      put_value(out, score.zero_retrieval);
      out += i + 1 < report.scores.size() ? "\n    },\n" : "\n    }\n";
      flush_if_full();
    }
    out += "  ]";
  }
  if (report.recording) {
    const Recording& recording = *report.recording;
    out += ",\n  \"recording\": {\n    \"events\": ";
    out += recording.events ? "true" : "false";
    out += ",\n    \"first_event\": ";
    if (recording.first_event) {
      put_value(out, *recording.first_event);
    } else {
      out += "null";
    }
    out += ",\n    \"first_retrieval\": ";
    if (recording.first_retrieval) {
      put_value(out, format_date(*recording.first_retrieval));
    } else {
      out += "null";
    }
    out += ",\n    \"last_retrieval\": ";
    if (recording.last_retrieval) {
      put_value(out, format_date(*recording.last_retrieval));
    } else {
      out += "null";
    }
    out += ",\n    \"never_retrieved_is_evidence\": ";
    out += recording.retrievals ? "true" : "false";
    out += ",\n    \"recorded_by\": ";
    if (recording.recorded_by.empty()) {
      out += "[]";
    } else {
      out += "[\n";
      for (std::size_t i = 0; i < recording.recorded_by.size(); ++i) {
        out += "      ";
        put_value(out, recording.recorded_by[i]);
        out += i + 1 < recording.recorded_by.size() ? ",\n" : "\n";
      }
      out += "    ]";
    }
    out += ",\n    \"retrievals\": ";
    out += recording.retrievals ? "true" : "false";
    out += "\n  }";
  }
  out += ",\n  \"schema\": 1,\n  \"status\": ";
  put_value(out, health_status_label(report.status));
  out += ",\n  \"today\": ";
  put_value(out, format_date(report.today));
  out += ",\n  \"tombstoned\": ";
  if (report.tombstoned.empty()) {
    out += "[]";
  } else {
    out += "[\n";
    for (std::size_t i = 0; i < report.tombstoned.size(); ++i) {
      const TombstonedRow& row = report.tombstoned[i];
      out += "    {\n      \"days_until_gc\": ";
      put_value(out, row.days_until_gc);
      out += ",\n      \"id\": ";
      put_value(out, row.id);
      out += ",\n      \"tombstone_reason\": ";
      put_value(out, row.tombstone_reason);
      out += ",\n      \"tombstoned_at\": ";
      if (row.tombstoned_at) {
        put_value(out, format_date(*row.tombstoned_at));
      } else {
        out += "null";
      }
      out += i + 1 < report.tombstoned.size() ? "\n    },\n" : "\n    }\n";
      flush_if_full();
    }
    out += "  ]";
  }
  // Keys in the order nlohmann::json sorts them, as report_json prints.
  out += ",\n  \"unreadable\": ";
  if (report.unreadable.empty()) {
    out += "[]";
  } else {
    out += "[\n";
    for (std::size_t i = 0; i < report.unreadable.size(); ++i) {
      const UnreadableRow& row = report.unreadable[i];
      out += "    {\n      \"fix\": ";
      put_value(out, row.fix);
      out += ",\n      \"id\": ";
      put_value(out, row.id);
      out += ",\n      \"line\": ";
      if (row.line) {
        put_value(out, *row.line);
      } else {
        out += "null";
      }
      out += ",\n      \"message\": ";
      put_value(out, row.message);
      out += ",\n      \"path\": ";
      put_value(out, row.path);
      out += i + 1 < report.unreadable.size() ? "\n    },\n" : "\n    }\n";
    }
    out += "  ]";
  }
  out += "\n}";
  sink(out);
}

std::string render_json(const Report& report) {
  std::string text;
  write_json(report, [&text](std::string_view piece) { text += piece; });
  return text;
}

}  // namespace gv::scoring
