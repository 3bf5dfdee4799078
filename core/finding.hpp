#pragma once

#include <optional>
#include <string>

namespace gv {

// An error blocks; a warning never does. A note is what `check --range` says of a finding a commit
// of the range introduced and a later one removed (doc/decisions.md, D22): reported, never
// blocking, and no check ever gives one itself.
enum class Severity { error, warning, note };

// One thing wrong with the vault, found by a parser or a gate. Findings are data, not
// exceptions: commands decide whether they mean exit code 1.
struct Finding {
  std::string check;  // `schema`, `missing-id`, `duplicate-id`, `stale-index`, ...
  Severity severity = Severity::error;
  std::string path;         // repo-relative
  std::optional<int> line;  // 1-based, when a line is at fault
  std::string id;           // memory or entry id, when known
  std::string message;      // lowercase, no trailing period
  std::string fix;          // the one command or step that fixes it, when there is one
};

}  // namespace gv
