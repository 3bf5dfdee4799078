#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/dates.hpp"
#include "core/recall/entry.hpp"
#include "core/recall/metadata.hpp"

namespace gv::recall {

// The register every open-loop check reads.
inline constexpr std::string_view k_open_loops_path = "memory/registers/open-loops.md";

// A register entry not reviewed for more than 30 days (or never).
struct StaleEntry {
  std::string id;
  std::string path;  // repo-relative
  std::string display_path;
  int line = 0;
  std::string text;
  std::optional<Date> reviewed;  // UTC date of last_reviewed_at; nullopt: never or unreadable
};

struct ContradictionSide {
  std::string id;
  std::string display_path;
  int line = 0;
  std::string text;
  bool superseded = false;
};

// Two entries in different files that look like the same claim with different values, or a
// superseded entry whose text is still active elsewhere. `first` comes first in scan order.
struct Contradiction {
  ContradictionSide first;
  ContradictionSide second;
};

struct OpenLoopFlag {
  enum class Kind { past_due, resolved };
  Kind kind = Kind::past_due;
  std::string id;
  std::string display_path;
  int line = 0;
  std::string text;         // without the `[ ] ` / `[x] ` box
  std::optional<Date> due;  // past_due only
};

// What maintain's secondary checks found. They only report: nothing here edits a file.
struct SecondaryReport {
  std::vector<StaleEntry> stale;  // oldest first (never reviewed first), then scan order
  std::vector<Contradiction> contradictions;
  int open_loops_active = 0;                  // `[ ]` items in open-loops.md
  int open_loops_closed = 0;                  // `[x]` items
  std::vector<OpenLoopFlag> open_loop_flags;  // scan order
  int old_daily_logs = 0;                     // memory/daily/YYYY-MM-DD.md older than 30 days
};

// Runs the four checks over entries as parsed (with the tiers of their files) and the
// reconciled metadata:
// - stale: register-tier entries, `_inbox.md` included, neither superseded nor archived, whose
//   `last_reviewed_at` is missing, unreadable or more than 30×86400 s before `now`;
// - contradictions: active working/register entries in different files whose content words
//   (≥ 3 letters, no digits, no stop-words) overlap with Jaccard ≥ 0.5 while their value tokens
//   (those with digits) are both present and differ; and superseded entries whose normalised text
//   equals an active entry's in another file;
// - open loops: `[ ]` items of open-loops.md whose `due YYYY-MM-DD` is before `today`, and
//   `[x]` items still under `## Active`;
// - daily logs: `memory/daily/YYYY-MM-DD.md` names more than 30 days before `today`.
[[nodiscard]] SecondaryReport run_secondary_checks(const std::vector<ParsedFile>& files,
                                                   const Metadata& metadata, Instant now,
                                                   Date today,
                                                   const std::vector<std::string>& daily_logs);

// The report's text, one block per check separated by empty lines, ending in a newline. Each
// list is cut after `limit` rows (0: all) with a line counting the rest.
[[nodiscard]] std::string render_secondary(const SecondaryReport& report, std::size_t limit = 0);

// Lowercased ASCII, Markdown marks (``*_`~[]()#>``) removed, split on ASCII characters that are
// neither letters nor digits (bytes of UTF-8 sequences stay inside words).
[[nodiscard]] std::vector<std::string> normalised_tokens(std::string_view text);

}  // namespace gv::recall
