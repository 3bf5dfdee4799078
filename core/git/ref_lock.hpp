#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>

// Forward declarations keep <git2.h> out of the files that only ask about a lock.
struct git_repository;
struct git_transaction;
struct git_oid;

// A ref moves under git's lock protocol: `<ref>.lock` is created exclusively, the reflog lines
// are appended (the ref's, and HEAD's when HEAD points at the ref), the new id is written into
// the lock and the lock is renamed over the ref. A process killed in between leaves the lock,
// and git then refuses every update of that ref ("cannot lock ref"). The landing moves HEAD's
// ref this way (doc/architecture.md, "Interruptions"); its recovery knows the journal, so it
// removes a lock the landing left and the reflog lines of a commit the ref never reached.
namespace gv::git {

class Repo;
struct Journal;

// `<ref>.lock` for `ref` (`HEAD`, or a full ref name such as `refs/heads/main`): HEAD's lock is
// in this work tree's git dir, every other ref's in the common dir.
[[nodiscard]] std::filesystem::path ref_lock_path(const Repo& repo, const std::string& ref);

// The lock on the ref a commit moves (HEAD's branch, or HEAD itself when detached) when that
// file exists, e.g. `<git dir>/refs/heads/main.lock`; nullopt otherwise.
[[nodiscard]] std::optional<std::filesystem::path> head_ref_lock(const Repo& repo);

// The refusal when `lock` (of `ref`) is held by something other than this run: what holds it and
// what to do.
[[nodiscard]] std::string ref_lock_message(const std::filesystem::path& lock,
                                           const std::string& ref);

// One ref moved with compare-and-swap: the constructor takes `<ref>.lock` (throwing the message
// above when it exists), move() checks under the lock that the ref still points at `expected`
// (nullopt: absent) and then writes the reflog lines and renames the lock over the ref. The
// destructor removes a lock that was never committed.
class RefMove {
 public:
  RefMove(git_repository* repo, std::string ref, const std::filesystem::path& lock_path);
  ~RefMove();
  RefMove(const RefMove&) = delete;
  RefMove& operator=(const RefMove&) = delete;

  // Throws gv::Error "<ref> moved while git-vault was running; …" when the ref is not at
  // `expected`, or libgit2's error; the ref is then where it was.
  void move(const std::optional<std::string>& expected, const git_oid& target,
            const std::string& reflog_message);

 private:
  git_repository* m_repo;
  std::string m_ref;
  git_transaction* m_transaction = nullptr;
};

// Settles the lock an interrupted landing of `journal` may have left on its ref. The lock is the
// landing's own when it holds the landing's new commit id, or when it is empty and no older than
// the journal (libgit2 writes the id into the lock only just before the rename). Then, when the
// ref did not move (`forward` false), the reflog lines libgit2 appended for the commit that never
// landed are taken out again, and the lock is removed. A lock that is not the landing's is left
// alone: `git vault check` reports it. Returns true when it removed a lock.
bool settle_ref_lock(const Repo& repo, const Journal& journal, bool forward,
                     std::int64_t journal_mtime_ns);

}  // namespace gv::git
