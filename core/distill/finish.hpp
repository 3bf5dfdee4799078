#pragma once

#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "core/dates.hpp"
#include "core/distill/memory_health.hpp"
#include "core/plan.hpp"
#include "core/scoring/report.hpp"
#include "core/vault/generated_records.hpp"
#include "core/vault/index_reader.hpp"
#include "core/vault/regenerate.hpp"
#include "core/vault/vault.hpp"

namespace gv {
class Snapshot;
class ParseCache;
}  // namespace gv

namespace gv::distill {

// What a sub-mode decided to do: its own edits to memory files (in `plan.changes`), the commit
// subject and affected ids, and what its log entry says. Everything else an action commit
// holds is added by finish_action.
struct ActionDraft {
  std::string type;  // the log entry's type: report, purge, merge, compress, refine, gc
  Plan plan;
  nlohmann::ordered_json affected_memories = nlohmann::ordered_json::array();
  std::string notes;
  nlohmann::ordered_json extra = nlohmann::ordered_json::object();
  bool changed_memories = false;  // counts towards memory_health.distill_count (D8)
  // The plan's files are restored bytes (revert): written as they are, without the D3
  // token_count refresh, so every byte the undone action changed comes back.
  bool verbatim = false;
  // memory_health (D8): false leaves specs/state.json alone (meta keeps its own bookkeeping);
  // `health_cursor` names a sub-mode that keeps its own cursor there (`revise`, `dream`):
  // `last_<cursor>` is set to now and `<cursor>_count` incremented.
  bool refresh_health = true;
  std::string health_cursor;
  // A revert's: the sub-mode cursors put back as they were before the run it undoes.
  std::vector<CursorRestore> restore_cursors;
  // A revert's: the log entry of the run it undoes, whose read text is taken out
  // (DistillLog::forget_read_text).
  std::optional<std::string> forget_text_of;
};

struct FinishContext {
  Clock clock;
  std::optional<std::string> parent_commit;  // HEAD before the action
  // Commits of earlier log entries, found through their Vault-Log-Id trailers; entries whose
  // `commit` is still null get it filled in (D7).
  std::map<std::string, std::string> commits_by_log_id;
  // Parsed memories by blob id (may be null): the before and after states share most files,
  // so each file is parsed once.
  ParseCache* cache = nullptr;
  // When set, the index files are regenerated over this snapshot plus the plan instead of
  // `before`: HEAD's tree, for a commit that leaves uncommitted vault edits out.
  const Snapshot* committed = nullptr;
};

struct FinishedAction {
  Plan plan;  // ready for git::apply
  std::string log_id;
  scoring::VaultMetrics pre;
  scoring::VaultMetrics post;
  std::vector<std::string> regenerated;      // generated index files the plan rewrites
  std::vector<std::string> carried;          // memories whose retrieval counts came from the index
  std::optional<GeneratedRecord> generated;  // see Regeneration::record
};

// The regeneration moved to the vault layer (core/vault/regenerate.hpp); these names stay
// for callers that still spell them in this namespace.
using ::gv::regenerate_index_files;
using ::gv::Regeneration;

// Completes a sub-mode's draft into the one commit D7 describes, in the skeleton's order:
// batch regeneration of the three index files over the state after the edits (carrying
// retrieval counts the old index held into frontmatter first, D4, and refreshing a written
// file's `token_count`, D3), the distill log entry with pre/post metrics, and memory_health in
// specs/state.json. Pure: reads only `before`, writes nothing. Throws gv::Error when the log or
// state.json cannot be read.
[[nodiscard]] FinishedAction finish_action(ActionDraft draft, const Snapshot& before,
                                           const FinishContext& context);

}  // namespace gv::distill
