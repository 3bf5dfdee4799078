#pragma once

#include <nlohmann/json_fwd.hpp>
#include <string>
#include <vector>

#include "core/finding.hpp"

namespace gv {

// How findings are printed for people: each check's list cut after `limit` lines (0: all), and
// the severity in colour (red error, yellow warning) when a person reads it on a terminal.
struct FindingStyle {
  std::size_t limit = 0;
  bool color = false;
};

// Findings for people, as `git vault check` and the pre-commit hook print them (to stderr):
//
//   CLAUDE.local.md:7: error: entry has no id: "Prefers tabs" [missing-id]
//     fix: git vault recall init-ids
//
// one line per finding (`path:` alone when no line is at fault) naming its check, findings of one
// check and one fix grouped, each group cut after `limit` lines (0: all) with a count of the rest,
// the group's fix indented once below it, then the refusal sentences when working-memory ids block
// (doc/vault-format.md, "Working-memory ids"), then a one-line count (`2 errors, 1 warning`). Empty
// when there are no findings. `check`, `index --check` and the pre-commit hook all print this.
[[nodiscard]] std::string format_findings(const std::vector<Finding>& findings,
                                          FindingStyle style = {});

// The two halves of format_findings, for callers that group findings (`check --range` prints
// a heading per commit): the finding lines with their fixes, and everything after them.
[[nodiscard]] std::string format_finding_lines(const std::vector<Finding>& findings,
                                               FindingStyle style = {});
[[nodiscard]] std::string format_summary(const std::vector<Finding>& findings);

// One finding line without the fix: `path:line: severity: message [check]`.
[[nodiscard]] std::string format_finding_line(const Finding& finding, bool color = false);

// The JSON of one finding: {"check","severity","path","line","id","message","fix"}, with
// `line` and `id` null when absent.
[[nodiscard]] nlohmann::ordered_json finding_json(const Finding& finding);

// The `--json` document of `check` and `index --check`: {"schema": 1, "ok": bool,
// "findings": [...]}; ok is false exactly when a finding is an error.
[[nodiscard]] nlohmann::ordered_json findings_json(const std::vector<Finding>& findings);

}  // namespace gv
