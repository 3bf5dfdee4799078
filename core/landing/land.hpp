#pragma once

#include <map>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "core/dates.hpp"
#include "core/distill/finish.hpp"
#include "core/git/transaction.hpp"
#include "core/plan.hpp"

namespace gv {
class Snapshot;
class ParseCache;
}  // namespace gv

// The one path by which a run changes the repository: every command and hook hands its edits
// to land(), which completes them into the final Plan and applies that with the one
// Transaction (core/git/transaction.hpp). Locking, the dirty check, all-or-nothing writes, the
// index regeneration and the action bookkeeping are therefore decided here and nowhere else.
namespace gv::landing {

// The paths a distill action may rewrite; they must be clean before it starts (D7).
inline const std::vector<std::string> k_action_guarded_paths = {".memory/", "specs/state.json"};

// Edits that get the three index files regenerated over the state after them (D4: retrieval
// counts the old index holds carried into frontmatter first; D3: token_count refreshed).
struct IndexRegeneration {
  Plan plan;  // the caller's own edits (often none) and the commit message
  // Regenerate even while memory files cannot be read, leaving them out of the index: for
  // `migrate`, which converts what it can and names the rest. Every other writer refuses.
  bool keep_unreadable_out = false;
};

// The caller's edits, and what landing adds to them:
// - a Plan is complete as it is (recall);
// - an IndexRegeneration gets the regenerated index files (`index`, the post-merge reindex);
// - a distill::ActionDraft gets the regenerated index files, its distill log entry and
//   memory_health (D7; distill actions and `revert`).
using Draft = std::variant<Plan, IndexRegeneration, distill::ActionDraft>;

struct Context {
  Clock clock;
  ParseCache* cache = nullptr;  // may be null
  // For an ActionDraft only: HEAD before the action, and the commits of earlier log entries by
  // their Vault-Log-Id (D7). land() reads both from the repository.
  std::optional<std::string> parent_commit;
  std::map<std::string, std::string> commits_by_log_id;
  // HEAD's tree when the commit leaves uncommitted vault edits out (--allow-dirty): the index
  // files are regenerated over it plus the plan. Set by land().
  const Snapshot* committed = nullptr;
};

// The final Plan and what completing it found.
struct Built {
  Plan plan;
  std::string log_id;                    // an action's log entry; empty for other drafts
  std::vector<std::string> regenerated;  // generated index files the plan rewrites
  std::vector<std::string> carried;      // memories whose retrieval counts came from the index
  // What the regeneration produced, saved once the plan has landed (work tree or commit).
  std::optional<GeneratedRecord> generated;
};

// Completes `draft` into the final Plan over the state `before`. Pure: reads only `before`.
// Throws gv::Error when an action's log or state.json cannot be read.
[[nodiscard]] Built build(Draft draft, const Snapshot& before, const Context& context);

// Where a built plan goes.
struct Target {
  bool commit = true;  // false: the work tree only (`--no-commit`, `index`, `recall init-ids`)
  bool allow_dirty = false;
  // Paths (files, or folders ending in `/`) that must be clean before anything is written.
  std::vector<std::string> guarded_paths;
  // Paths git ignores and does not track are written to the work tree only, just before the
  // commit, and put back if the commit fails (working memory is often kept out of git).
  bool ignored_to_work_tree = false;
  // Fold the plan into HEAD instead of adding a commit (git::ApplyOptions::amend).
  bool amend = false;
  // What the caller read the repository from (git::capture_read_state, taken before the read):
  // the landing refuses when HEAD, an index entry or a work tree file under it moved since.
  std::optional<git::ReadState> read_state;
  bool offers_allow_dirty = true;  // git::ApplyOptions::offers_allow_dirty
  // The prefix of the retrieval journal the commit folds (git::ApplyOptions::consumes).
  std::optional<util::FilePrefix> consumes;
};

struct Landed : Built {
  std::optional<std::string> commit;        // the new commit, when one was made
  std::vector<std::string> work_tree_only;  // paths written without a commit
};

// Applies a built plan with git::apply. An empty plan changes nothing (no lock, no dirty
// check, no commit). Failures throw gv::Error and leave the repository as git::apply leaves it.
Landed apply(git::Repo& repo, Built built, const Target& target);

// The one landing path: build() over `before`, then apply(). For an ActionDraft the context's
// parent commit and log-id commits are read from `repo` first.
Landed land(git::Repo& repo, const Snapshot& before, Draft draft, Context context,
            const Target& target);

}  // namespace gv::landing
