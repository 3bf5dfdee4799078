#pragma once

#include <cstddef>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "core/dates.hpp"
#include "core/scoring/score.hpp"
#include "core/util/shared_log.hpp"

// The retrieval journal (doc/decisions.md, D16; doc/agent.md, "Retrieval records (D16)"): reading a
// memory appends one line to a per-clone file inside the git directory, never to a tracked file, so
// recording never dirties the work tree, never blocks a maintenance action and never causes a merge
// conflict. Scoring adds the journal's counts to frontmatter; a fold moves them into frontmatter as
// one commit.
namespace gv::agent {

// One retrieval of one memory.
struct RetrievalRecord {
  std::string id;
  Date date;
  std::string via;  // what read it: `search`, `show`, `context`, `mcp`, `hook`
  // The agent's own session id, when an agent hook recorded it (doc/agent.md, "Agent hooks");
  // empty otherwise, and then not written.
  std::string session = {};
};

// `<common git dir>/git-vault/retrievals.jsonl`: shared by linked worktrees (one clone, one
// journal), beside the parse cache.
[[nodiscard]] std::filesystem::path journal_path(const std::filesystem::path& common_dir);

// One line per record: `{"id":…,"date":"YYYY-MM-DD","via":…}` (and `"session":…` when set) and
// a newline.
[[nodiscard]] std::string format_records(const std::vector<RetrievalRecord>& records);

struct JournalTotals {
  scoring::PendingRetrievalMap by_id;
  std::size_t records = 0;    // well-formed lines
  std::size_t bad_lines = 0;  // lines that are not a record (a torn write after a crash)
};

// Totals of a journal's bytes. A line that does not parse, names no id or has no valid date
// is counted in bad_lines and otherwise ignored. Never throws.
[[nodiscard]] JournalTotals total_records(std::string_view bytes);

// Appends `records` to the journal at `file` (created with its directory when missing) in one
// write under an exclusive flock, on a descriptor opened with O_APPEND: two processes recording
// at once both land whole, in some order. Throws gv::Error on I/O failure.
void append_records(const std::filesystem::path& file, const std::vector<RetrievalRecord>& records);

// The journal as one reader saw it.
struct JournalContents {
  JournalTotals totals;  // the records not consumed yet
  // The journal from its start to its end as read: what a fold of `totals` consumes (its
  // commit drops it, git::ApplyOptions::consumes).
  util::FilePrefix read;
};

// The journal's records right now (none when there is no journal), leaving out the prefix a
// landed commit has folded but not yet dropped (`consumed`, git::landed_consumptions): those
// count in frontmatter already. Takes the lock shared, so it never sees half of a record. Throws
// gv::Error on I/O failure other than absence.
[[nodiscard]] JournalContents read_journal_contents(
    const std::filesystem::path& file, const std::vector<util::FilePrefix>& consumed = {});
// Its totals alone.
[[nodiscard]] JournalTotals read_journal(const std::filesystem::path& file,
                                         const std::vector<util::FilePrefix>& consumed = {});

}  // namespace gv::agent
