#pragma once

#include <optional>
#include <string>

namespace gv::git {

class Repo;

// One line of a reflog: where the ref moved from and to, and the message git wrote.
struct ReflogEntry {
  std::string old_id;  // 40 hex; all zeros for the ref's creation
  std::string new_id;  // 40 hex
  std::string message;
};

// The newest entry of HEAD's reflog (this work tree's), or nullopt when it has none (reflogs
// off, or a fresh clone before any move).
[[nodiscard]] std::optional<ReflogEntry> newest_head_reflog_entry(const Repo& repo);

}  // namespace gv::git
