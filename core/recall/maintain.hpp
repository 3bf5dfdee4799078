#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/dates.hpp"
#include "core/finding.hpp"
#include "core/recall/entry.hpp"
#include "core/recall/files.hpp"
#include "core/recall/metadata.hpp"
#include "core/recall/secondary.hpp"
#include "core/snapshot/snapshot.hpp"

namespace gv::recall {

// Working memory's word budget when neither `--budget` nor `vault.recallBudget` says otherwise.
inline constexpr int k_default_budget = 1500;
inline constexpr std::int64_t k_default_snooze_days = 30;

// Where demoted and archived lines go, and the header each file starts with when a move creates
// it (two lines and an empty line, then the appended entries).
inline constexpr std::string_view k_inbox_path = "memory/registers/_inbox.md";
inline constexpr std::string_view k_archive_path = "memory/archive/ARCHIVE.md";
inline constexpr std::string_view k_inbox_header =
    "# Inbox\n"
    "> Entries demoted from working memory. Review and file into appropriate registers.\n"
    "\n";
inline constexpr std::string_view k_archive_header =
    "# Archive\n"
    "> Archived memory entries. Searchable but never auto-loaded.\n"
    "\n";

// Whitespace-separated tokens, whitespace being ASCII space, tab, LF, VT, FF and CR only: a
// non-breaking space joins words, and Markdown (`**Note**:`, a spaced `—`) counts as written.
[[nodiscard]] int count_words(std::string_view text);

enum class Action { keep, pin, snooze, demote, archive, mark_superseded };

// `keep`, `pin`, `snooze`, `demote`, `archive`, `mark-superseded`.
[[nodiscard]] std::string_view action_name(Action action);

struct Decision {
  Action action = Action::keep;
  std::int64_t snooze_days = k_default_snooze_days;  // snooze only

  friend bool operator==(const Decision&, const Decision&) = default;
};

// Keyed by entry id (no caret). A candidate without a decision is left exactly as it was.
using Decisions = std::map<std::string, Decision>;

enum class CandidateKind { pressure, superseded };

struct Candidate {
  CandidateKind kind = CandidateKind::pressure;
  std::string id;
  std::string path;  // repo-relative
  std::string display_path;
  int line = 0;
  Tier tier = Tier::working;
  std::string text;  // the entry text, without `- ` and the id
  int words = 0;
  double score = 0.0;  // pressure only: words + 0.1 * days since review
  // Days since `last_reviewed_at` (never negative); nullopt when never reviewed or unreadable,
  // which scores as 365 days.
  std::optional<double> days_since_review;
};

struct MaintainInput {
  std::vector<ParsedFile> files;  // every managed file, scan order
  // As read; empty when the file is absent. Only the one-argument analyze() reads it: a command
  // that reads the file once hands it to analyze(input, metadata) instead and leaves this empty,
  // so that it need not hold two copies.
  Metadata metadata;
  // metadata.json's bytes as read, nullopt when absent: a rewrite happens only when the new
  // bytes differ, so an unchanged run leaves the file (and its mtime) alone.
  std::optional<std::string> metadata_bytes;
  Instant now;
  Date today;
  int budget = k_default_budget;
  std::vector<std::string> daily_logs;  // repo-relative `memory/daily/*.md` paths
};

// Everything `maintain` shows before it asks: reconciled metadata, the word count and the two
// candidate lists. Assumes the id gate passed; an entry without an id is ignored here.
struct Analysis {
  Metadata metadata;  // reconciled: missing records added, tiers taken from the files
  int records_added = 0;
  int tiers_fixed = 0;
  std::vector<std::string> orphans;  // metadata ids with no entry line, byte order
  int working_words = 0;
  int budget = k_default_budget;
  std::vector<Candidate> pressure;    // selection order: score descending, ties in scan order
  int pool_size = 0;                  // working entries neither pinned nor snoozed
  int pool_words = 0;                 // their words: less than needed() means a shortfall
  std::vector<Candidate> superseded;  // scan order, minus entries already under pressure
  std::vector<Finding> warnings;      // unreadable timestamps, moved-by-hand archived entries

  [[nodiscard]] bool over_budget() const { return working_words > budget; }
  [[nodiscard]] int needed() const { return over_budget() ? working_words - budget : 0; }
  [[nodiscard]] std::size_t candidate_count() const { return pressure.size() + superseded.size(); }
  // Both lists in presentation order: the numbering every message uses.
  [[nodiscard]] std::vector<const Candidate*> numbered() const;
};

// Reconciles a copy of input.metadata.
[[nodiscard]] Analysis analyze(const MaintainInput& input);
// Reconciles `metadata` (as read) in place of input.metadata, which is not looked at: at 50,000
// entries the copy was a fifth of what a dry run held.
[[nodiscard]] Analysis analyze(const MaintainInput& input, Metadata metadata);

// The default for "apply all": demote under pressure (the command's purpose), archive when
// superseded (the recommended action).
[[nodiscard]] Decision recommended_decision(CandidateKind kind);
// Superseded candidates offer only archive and keep; pressure candidates offer every action.
[[nodiscard]] bool action_allowed(CandidateKind kind, Action action);

struct ActionCounts {
  int kept = 0;
  int pinned = 0;
  int snoozed = 0;
  int demoted = 0;
  int archived = 0;
  int superseded = 0;
};

// One applied run, as values: the new bytes of every file that changes, and what to report.
struct MaintainResult {
  // Repo-relative path -> new bytes, only for files whose bytes change; metadata.json is here
  // when it changes (or did not exist).
  std::map<std::string, std::string> writes;
  Metadata metadata;
  std::vector<std::string> affected_ids;  // ids a decision touched, byte order
  std::map<std::string, Action> applied;  // id -> action taken
  ActionCounts counts;
  std::optional<Instant> latest_snooze;  // the latest `snoozed_until` set by this run
  int words_before = 0;
  int words_after = 0;
  std::vector<ParsedFile> files_after;  // the managed files as they will be, scan order
  SecondaryReport secondary;            // checks over the state after the actions
  std::string summary;                  // the "complete" block

  [[nodiscard]] bool empty() const { return writes.empty(); }
};

// Applies `decisions` (validated: ids are candidates, actions allowed) to the scanned state.
// Lines move whole, located by id: removed from their file by byte range, appended to
// `_inbox.md` or `ARCHIVE.md` (created with its header) in candidate order; no other byte of
// any file changes. Every action sets `last_reviewed_at` to now. Pure: no I/O.
[[nodiscard]] MaintainResult plan_maintain(const MaintainInput& input, const Analysis& analysis,
                                           const Decisions& decisions);

// `bytes` with `line` (no terminator) appended: a terminator is added first when the file does
// not end in one, and the line gets the file's own terminator (CRLF when its first line ends in
// CRLF, else LF).
[[nodiscard]] std::string append_line(std::string bytes, std::string_view line);

// The first file `result` writes whose bytes in `snapshot` are no longer the ones scanned (edited,
// created or deleted since), as its display path; nullopt when all still match. Checked right
// before writing, so an edit made while the user was deciding aborts the run.
[[nodiscard]] std::optional<std::string> changed_since_scan(const MaintainInput& input,
                                                            const MaintainResult& result,
                                                            const Snapshot& snapshot);

// The subject's `<what>` for a run: `demote 2, archive 1`, or `reconcile metadata`.
[[nodiscard]] std::string describe_run(const MaintainResult& result);

}  // namespace gv::recall
