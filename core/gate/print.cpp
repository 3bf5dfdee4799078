#include "core/gate/print.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <utility>

#include "core/gate/gate.hpp"
#include "core/recall/gate.hpp"

namespace gv {
namespace {

std::string_view severity_name(Severity severity) {
  return severity == Severity::error ? "error" : "warning";
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
      color ? fmt::format("{}{}\x1b[m",
                          finding.severity == Severity::error ? "\x1b[1;31m" : "\x1b[33m", severity)
            : std::string(severity);
  // The check's name lets a reader skip it: GIT_VAULT_SKIP=<check>.
  return fmt::format("{}: {}: {} [{}]", where, shown, finding.message, finding.check);
}

std::string format_finding_lines(const std::vector<Finding>& findings, FindingStyle style) {
  const std::size_t limit = style.limit;
  // Findings of one check form a group, in order of first appearance: its lines, cut after
  // `limit`, then the fix once when the group shares one. Ten thousand memories missing from
  // the index are twenty lines and one fix, not twenty thousand lines.
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
    const std::size_t shown = limit == 0 ? group.size() : std::min(limit, group.size());
    for (std::size_t i = 0; i < shown; ++i) {
      out += format_finding_line(*group[i], style.color);
      out += '\n';
      if (!one_fix && !group[i]->fix.empty()) {
        out += fmt::format("  fix: {}\n", group[i]->fix);
      }
    }
    if (shown < group.size()) {
      const std::size_t rest = group.size() - shown;
      out += fmt::format("  ... and {} more {}{} [{}] (--limit 0 lists them all)\n", rest,
                         severity_name(first.severity), rest == 1 ? "" : "s", first.check);
    }
    if (one_fix && !first.fix.empty()) {
      out += fmt::format("  fix: {}\n", first.fix);
    }
  }
  return out;
}

std::string format_summary(const std::vector<Finding>& findings) {
  std::size_t errors = 0;
  std::size_t missing = 0;
  std::set<std::string> duplicate_ids;
  for (const Finding& finding : findings) {
    if (finding.severity == Severity::error) {
      ++errors;
      if (finding.check == "missing-id" || finding.check == "malformed-id") {
        ++missing;
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
  }
  if (!duplicate_ids.empty()) {
    out += fmt::format("Duplicate ID found: ^{}. Resolve manually.\n",
                       fmt::join(duplicate_ids, ", ^"));
  }
  if (!findings.empty()) {
    out += fmt::format("{}, {}\n", plural(errors, "error"),
                       plural(findings.size() - errors, "warning"));
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
