#include "core/gate/print.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <string_view>
#include <utility>

#include "core/gate/gate.hpp"
#include "core/recall/doctor.hpp"
#include "core/recall/gate.hpp"

namespace gv {
namespace {

std::string_view severity_name(Severity severity) {
  switch (severity) {
    case Severity::error:
      return "error";
    case Severity::warning:
      return "warning";
    case Severity::note:
      return "note";
  }
  return "error";
}

// Red for an error, yellow for a warning, cyan for a note.
std::string_view severity_color(Severity severity) {
  switch (severity) {
    case Severity::error:
      return "\x1b[1;31m";
    case Severity::warning:
      return "\x1b[33m";
    case Severity::note:
      return "\x1b[36m";
  }
  return "";
}

std::string plural(std::size_t count, std::string_view word) {
  return fmt::format("{} {}{}", count, word, count == 1 ? "" : "s");
}

}  // namespace

std::string format_finding_line(const Finding& finding, bool color) {
  const std::string where =
      finding.line ? fmt::format("{}:{}", finding.path, *finding.line) : finding.path;
  const std::string_view severity = severity_name(finding.severity);
  const std::string shown =
      color ? fmt::format("{}{}\x1b[m", severity_color(finding.severity), severity)
            : std::string(severity);
  // The check's name lets a reader skip it: GIT_VAULT_SKIP=<check>.
  return fmt::format("{}: {}: {} [{}]", where, shown, finding.message, finding.check);
}

namespace {

// `MEM-x is missing from the index` -> the part after the id, when the message starts with the
// finding's id: findings that differ only in their id say the same thing.
std::optional<std::string_view> shared_part(const Finding& finding) {
  const std::string_view message = finding.message;
  if (finding.id.empty() || message.size() <= finding.id.size() + 1 ||
      !message.starts_with(finding.id) || message[finding.id.size()] != ' ') {
    return std::nullopt;
  }
  return message.substr(finding.id.size() + 1);
}

// `is missing from the index` said of many: `are missing from the index`.
std::string plural_predicate(std::string_view predicate) {
  const std::size_t space = predicate.find(' ');
  const std::string_view verb = predicate.substr(0, space);
  const std::string_view rest = space == std::string_view::npos ? "" : predicate.substr(space);
  static const std::map<std::string_view, std::string_view> k_irregular = {
      {"is", "are"}, {"has", "have"}, {"was", "were"}, {"does", "do"}};
  if (const auto found = k_irregular.find(verb); found != k_irregular.end()) {
    return std::string(found->second) + std::string(rest);
  }
  if (verb.size() > 2 && verb.back() == 's' && verb[verb.size() - 2] != 's') {
    return std::string(verb.substr(0, verb.size() - 1)) + std::string(rest);
  }
  return std::string(predicate);
}

// One line for many findings that say the same thing of different ids in one file:
// `.memory/memory-index.json: error: 9990 memories are missing from the index (MEM-a, MEM-b,
// MEM-c, ...) [stale-index]`.
std::string format_run(const std::vector<const Finding*>& run, bool color) {
  const Finding& first = *run.front();
  const bool memories = std::all_of(run.begin(), run.end(), [](const Finding* f) {
    return std::string_view(f->id).starts_with("MEM-");
  });
  std::string examples;
  for (std::size_t i = 0; i < std::min<std::size_t>(3, run.size()); ++i) {
    examples += (i == 0 ? "" : ", ") + run[i]->id;
  }
  Finding summary = first;
  summary.line.reset();
  summary.message = fmt::format("{} {} {} ({}, ...)", run.size(), memories ? "memories" : "ids",
                                plural_predicate(*shared_part(first)), examples);
  return format_finding_line(summary, color);
}

}  // namespace

std::string format_finding_lines(const std::vector<Finding>& findings, FindingStyle style) {
  const std::size_t limit = style.limit;
  // Findings of one check form a group, in order of first appearance: its lines, cut after
  // `limit`, then the fix once when the group shares one. Inside a group, more than `limit`
  // findings that say the same thing of different ids in one file become one line, so ten
  // thousand memories missing from the index are one line and one fix, not twenty thousand.
  std::vector<std::vector<const Finding*>> groups;
  std::map<std::pair<std::string, Severity>, std::size_t> group_of;
  for (const Finding& finding : findings) {
    const auto [it, added] =
        group_of.emplace(std::make_pair(finding.check, finding.severity), groups.size());
    if (added) {
      groups.emplace_back();
    }
    groups[it->second].push_back(&finding);
  }
  std::string out;
  for (const std::vector<const Finding*>& group : groups) {
    const Finding& first = *group.front();
    const bool one_fix = std::all_of(group.begin(), group.end(),
                                     [&](const Finding* f) { return f->fix == first.fix; });
    // Runs of the same message in the same file, by first appearance.
    std::vector<std::vector<const Finding*>> runs;
    std::map<std::pair<std::string_view, std::string_view>, std::size_t> run_of;
    for (const Finding* finding : group) {
      const std::optional<std::string_view> shared = shared_part(*finding);
      if (!shared) {
        runs.push_back({finding});
        continue;
      }
      const auto [it, added] =
          run_of.emplace(std::make_pair(std::string_view(finding->path), *shared), runs.size());
      if (added) {
        runs.emplace_back();
      }
      runs[it->second].push_back(finding);
    }
    std::size_t shown = 0;
    std::size_t hidden = 0;
    for (const std::vector<const Finding*>& run : runs) {
      const bool summarise = limit != 0 && run.size() > limit && run.size() >= 3;
      const std::size_t lines = summarise ? 1 : run.size();
      for (std::size_t i = 0; i < lines; ++i) {
        if (limit != 0 && shown >= limit) {
          hidden += summarise ? run.size() : lines - i;
          break;
        }
        ++shown;
        out += summarise ? format_run(run, style.color) : format_finding_line(*run[i], style.color);
        out += '\n';
        if (!one_fix && !run[i]->fix.empty()) {
          out += fmt::format("  fix: {}\n", run[i]->fix);
        }
      }
    }
    if (hidden > 0) {
      out += fmt::format("  ... and {} more {}{} [{}] (--limit 0 lists them all)\n", hidden,
                         severity_name(first.severity), hidden == 1 ? "" : "s", first.check);
    }
    if (one_fix && !first.fix.empty()) {
      out += fmt::format("  fix: {}\n", first.fix);
    }
  }
  return out;
}

std::string format_summary(const std::vector<Finding>& findings) {
  std::size_t errors = 0;
  std::size_t notes = 0;
  std::size_t missing = 0;
  std::size_t by_hand = 0;     // malformed ids that neither init-ids nor doctor rewrites
  bool respell_first = false;  // some of them are ids in the older spelling
  std::set<std::string> duplicate_ids;
  for (const Finding& finding : findings) {
    notes += finding.severity == Severity::note ? 1 : 0;
    if (finding.severity == Severity::error) {
      ++errors;
      if (finding.check == "missing-id" || finding.check == "malformed-id") {
        ++missing;
        respell_first = respell_first || finding.fix == recall::k_doctor_fix_command;
        by_hand +=
            finding.check == "malformed-id" && finding.fix != recall::k_doctor_fix_command ? 1 : 0;
      } else if (finding.check == "duplicate-id") {
        duplicate_ids.insert(finding.id);
      }
    }
  }
  std::string out;
  // The working-memory refusals in the words of the original commands; the offenders are
  // listed above them by file and line.
  if (missing > 0) {
    out += fmt::format("{} missing IDs.\n", missing == 1 ? std::string("1 entry is")
                                                         : fmt::format("{} entries are", missing));
    out += fmt::format("Run {} first to tag all entries.\n", recall::k_init_ids_command);
    if (respell_first) {
      // init-ids skips an older spelling and gives a new id where one sits on another line,
      // orphaning its record.
      out += fmt::format(
          "Before that, run {}: some of them already have an id, in the older spelling or on "
          "another line, that init-ids would not keep.\n",
          recall::k_doctor_fix_command);
    }
    if (by_hand > 0) {
      // The original's words count malformed ids as missing; init-ids leaves them as they are.
      out += fmt::format(
          "{} malformed, which init-ids leaves alone: rewrite or delete {} as its fix says.\n",
          by_hand == missing ? (missing == 1 ? std::string("It is") : std::string("They are"))
                             : fmt::format("{} of them {}", by_hand, by_hand == 1 ? "is" : "are"),
          by_hand == 1 ? "it" : "each");
    }
  }
  if (!duplicate_ids.empty()) {
    out += fmt::format("Duplicate ID found: ^{}. Resolve manually.\n",
                       fmt::join(duplicate_ids, ", ^"));
  }
  if (!findings.empty()) {
    out += fmt::format("{}, {}{}\n", plural(errors, "error"),
                       plural(findings.size() - errors - notes, "warning"),
                       notes == 0 ? std::string() : ", " + plural(notes, "note"));
  }
  return out;
}

std::string format_findings(const std::vector<Finding>& findings, FindingStyle style) {
  return format_finding_lines(findings, style) + format_summary(findings);
}

nlohmann::ordered_json finding_json(const Finding& finding) {
  nlohmann::ordered_json item;
  item["check"] = finding.check;
  item["severity"] = severity_name(finding.severity);
  item["path"] = finding.path;
  item["line"] = finding.line ? nlohmann::ordered_json(*finding.line) : nlohmann::ordered_json();
  item["id"] = finding.id.empty() ? nlohmann::ordered_json() : nlohmann::ordered_json(finding.id);
  item["message"] = finding.message;
  item["fix"] =
      finding.fix.empty() ? nlohmann::ordered_json() : nlohmann::ordered_json(finding.fix);
  return item;
}

nlohmann::ordered_json findings_json(const std::vector<Finding>& findings) {
  nlohmann::ordered_json list = nlohmann::ordered_json::array();
  for (const Finding& finding : findings) {
    list.push_back(finding_json(finding));
  }
  nlohmann::ordered_json document;
  document["schema"] = 1;
  document["ok"] = !blocks(findings);
  document["findings"] = std::move(list);
  return document;
}

}  // namespace gv
