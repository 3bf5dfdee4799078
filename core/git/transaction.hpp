#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/git/journal.hpp"
#include "core/plan.hpp"

namespace gv::git {

class Repo;

// What identifies a work tree file's contents without reading it: a change to the file (in
// place or by an editor's write-and-rename) changes at least one of these.
struct FileStamp {
  std::uint64_t inode = 0;
  std::int64_t size = 0;
  std::int64_t mtime_ns = 0;
  std::int64_t ctime_ns = 0;
  std::uint32_t mode = 0;

  friend bool operator==(const FileStamp&, const FileStamp&) = default;
};

// The state a writing command read its input from: HEAD, the index entries and the work tree
// files under `paths`. git::apply compares it with the state at commit time (under the locks)
// and refuses when anything moved, so a plan computed from a state that no longer exists is
// never landed (doc/architecture.md, "The lock before the read").
struct ReadState {
  std::vector<std::string> paths;          // files, or directories ending in `/`
  std::optional<std::string> head;         // commit id; nullopt: unborn
  std::map<std::string, IndexSlot> index;  // path (with `:<stage>` for a conflict stage) -> entry
  std::map<std::string, FileStamp> files;  // work tree files (symlinks too) -> stamp
};

// Call before a writing command reads the vault. Finishes or undoes an interrupted landing first
// (see recover_interrupted_landing), then records the state under `paths`.
[[nodiscard]] ReadState capture_read_state(Repo& repo, const std::vector<std::string>& paths);

struct ApplyOptions {
  // false = `--no-commit`: write the work tree files only; the index and HEAD stay as they are.
  bool commit = true;
  // Run even when a guarded path has uncommitted changes (they may then be overwritten).
  bool allow_dirty = false;
  // Paths (files, or directories ending in `/`) that must be clean before the run starts, e.g.
  // `.memory/`, `specs/state.json`, `CLAUDE.local.md`, `memory/`. Empty: no check.
  std::vector<std::string> guarded_paths;
  // Test seam: runs after the commit object exists and just before the branch moves. Lets a
  // test simulate a concurrent commit or a late failure. Leave empty in production.
  std::function<void()> before_ref_update;
  // The state the plan was computed from (capture_read_state). When set, apply refuses if HEAD,
  // an index entry or a work tree file under its paths changed since. When unset, only the
  // plan's own paths and HEAD are compared, from the moment apply starts.
  std::optional<ReadState> read_state;
  // Replace HEAD instead of building on it, as `git commit --amend` does: the new commit keeps
  // HEAD's parents, author and message, and its tree is HEAD's tree plus the plan's paths; the
  // plan's subject names the change in the reflog only. The post-merge hook folds its index
  // regeneration into the merge commit it follows this way (doc/merges.md).
  bool amend = false;
  // The command has an `--allow-dirty` flag, so the refusal names it as the way on (a commit
  // that init's new files block is otherwise a dead end: the gate stops `git commit` too).
  bool offers_allow_dirty = true;
  // The prefix of an append-only log whose records the commit folds (the retrieval journal):
  // apply refuses when the log no longer begins with it (another run folded it first), records
  // it in the journal, and drops it from the log once the branch has moved, inside the landing,
  // so that a kill or a signal between the commit and the drop never counts the records twice.
  std::optional<util::FilePrefix> consumes{};
};

// Applies `plan` as exactly one commit (doc/decisions.md, D7) and returns its id; with
// `options.commit == false` it only writes the work tree and returns nullopt.
//
// The landing is atomic: an interruption at any point (SIGKILL, power loss, an error) leaves the
// repository as it was before or, once the branch has moved, as it is after; SIGINT, SIGTERM,
// SIGHUP and SIGQUIT wait until it is over. The order (doc/architecture.md, "Interruptions"):
// take `<git dir>/vault.lock`; finish or undo an earlier interrupted landing; refuse when
// guarded paths are dirty or a path's parent is a symbolic link; write blobs, tree and commit;
// write the new files under `<git dir>/vault-tmp/`; sync; write the journal; take
// `<index>.lock` (refusing when another git command holds it); compare the read state; move the
// files into place (hard links keep the old ones); write the new index; sync; move the branch
// with compare-and-swap (the commit point); release the index lock and drop the journal.
//
// Any failure before the branch moves throws gv::Error after putting back the work tree and the
// index (only unreachable objects remain in the object database).
std::optional<std::string> apply(Repo& repo, const Plan& plan, const ApplyOptions& options);

// The message apply refuses with when `dirty` (paths under its guarded paths) have uncommitted
// changes; a command asks it up front, before it prints what it would do.
[[nodiscard]] std::string dirty_refusal(const std::vector<std::string>& dirty,
                                        bool offers_allow_dirty);
// The same asked before the vault lock is taken: while another git-vault run is landing a
// commit (landing_in_progress), the changes are that run's, not the user's, and it says so.
[[nodiscard]] std::string dirty_refusal(const Repo& repo, const std::vector<std::string>& dirty,
                                        bool offers_allow_dirty);

// When an earlier landing was interrupted (its journal is in the git dir and no live git-vault
// holds the vault lock), finishes it if its branch had moved and undoes it otherwise, prints
// one `git-vault: note:` line saying which, and returns true. A work tree file edited since the
// interruption is kept and named in a warning. Returns false when there was nothing to do or
// another git-vault run is active. Throws gv::Error when the journal cannot be read.
bool recover_interrupted_landing(Repo& repo);

// The prefixes of logs that a landing has committed but not yet dropped (ApplyOptions::consumes):
// a landing, in this work tree or a linked one, whose journal is still there although its branch
// has moved (alive between its commit point and the drop, or killed there). A reader of such a
// log counts only what follows the prefix; the frontmatter it reads holds the rest. Never
// throws: an unreadable journal names nothing.
[[nodiscard]] std::vector<util::FilePrefix> landed_consumptions(const Repo& repo);

// What to do about a journal that cannot be read (`why`, read_journal's error naming it): the
// run it records can be neither finished nor undone from it, so the user looks at what it
// changed and moves the journal aside. The recovery throws this; the commit hook prints it.
[[nodiscard]] std::string unreadable_journal_advice(const Repo& repo, std::string_view why);

// True while another git-vault run, alive and holding the vault lock, is half-way through landing
// a commit: its journal is in the git dir, so the branch, the index and the work tree may each be
// before or after it. What a check reads then is neither state.
[[nodiscard]] bool landing_in_progress(const Repo& repo);

}  // namespace gv::git
