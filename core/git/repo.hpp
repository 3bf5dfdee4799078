#pragma once

#include <cstdint>
#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/git/blob_hasher.hpp"  // hash_blob
#include "core/plan.hpp"
#include "core/snapshot_entry.hpp"

// Forward declaration keeps <git2.h> out of every file that includes this header.
struct git_repository;

namespace gv::git {

// A commit as `log`, `revert` and `check --range` need it.
struct CommitInfo {
  std::string id;                    // 40 hex
  std::string tree;                  // 40 hex
  std::vector<std::string> parents;  // 40 hex each, in order
  std::string message;               // full raw message
  std::string summary;               // first line
  std::int64_t time = 0;             // committer time, seconds since the epoch
  std::string author_name;
  std::string author_email;
  std::int64_t author_time = 0;   // seconds since the epoch
  std::vector<Trailer> trailers;  // parse_trailers(message)
};

// A regular file that differs between two trees. An absent id means no regular file at that
// path on that side.
struct TreeChange {
  std::string path;  // repo-relative
  std::optional<std::string> old_oid;
  std::optional<std::string> new_oid;
};

// One open repository. Keep one per thread; never share it across threads (libgit2 objects are
// not thread-safe). Every failure of libgit2 becomes gv::Error; "absent" is an empty optional.
class Repo {
 public:
  // The repository containing `start` (searching upwards), as `git` itself finds it.
  [[nodiscard]] static Repo discover(const std::filesystem::path& start);
  // The repository a git hook runs in, from GIT_DIR / GIT_WORK_TREE / GIT_INDEX_FILE, so that
  // during `git commit -a` the index being committed (`.git/index.lock`) is the one read.
  [[nodiscard]] static Repo open_from_env();

  Repo(Repo&&) noexcept;
  Repo& operator=(Repo&&) noexcept;
  ~Repo();

  // The work tree root (empty path for a bare repository), the git dir of this work tree, and the
  // common dir shared by linked worktrees. Directories end without a trailing separator.
  [[nodiscard]] std::filesystem::path workdir() const;
  [[nodiscard]] std::filesystem::path git_dir() const;
  [[nodiscard]] std::filesystem::path common_dir() const;
  [[nodiscard]] bool is_bare() const;

  // HEAD's commit and tree ids (40 hex), or nullopt while the branch is unborn.
  [[nodiscard]] std::optional<std::string> head_commit() const;
  [[nodiscard]] std::optional<std::string> head_tree() const;
  // The branch HEAD is on (`main`), or `detached HEAD`, as git's commit summary names it.
  [[nodiscard]] std::string head_branch() const;

  // The commit id `rev` names (any git revision syntax), or nullopt when it names nothing.
  [[nodiscard]] std::optional<std::string> resolve_commit(std::string_view rev) const;

  // The bytes of a blob, or nullopt when there is no such blob.
  [[nodiscard]] std::optional<std::string> read_blob(std::string_view oid) const;
  // The first `max_bytes` bytes of a blob: inflated from the loose object alone when it is one,
  // else read whole and cut.
  [[nodiscard]] std::optional<std::string> read_blob_head(std::string_view oid,
                                                          std::size_t max_bytes) const;

  // Commits in `A..B` (reachable from B, not from A), oldest first. `A..` means `A..HEAD`; a
  // single revision gives just that commit. Throws gv::UsageError for `A...B`.
  [[nodiscard]] std::vector<std::string> resolve_range(std::string_view range) const;

  // The commit `rev` names; throws gv::Error when it names no commit.
  [[nodiscard]] CommitInfo commit_info(std::string_view rev) const;

  // Commits reachable from HEAD whose trailer `key` has exactly `value`, newest first.
  [[nodiscard]] std::vector<CommitInfo> commits_with_trailer(std::string_view key,
                                                             std::string_view value) const;
  // One walk from HEAD: every value of trailer `key` -> the commit ids carrying it, newest
  // first. `git vault log` resolves all its entries with this instead of one walk per entry.
  [[nodiscard]] std::map<std::string, std::vector<std::string>> trailer_index(
      std::string_view key) const;

  // For each of `paths`, the author time of the oldest commit reachable from HEAD whose tree
  // holds it: when the file came into the repository, as far as the history says (`migrate`
  // dates a memory that names no date with it). Walks at most `max_commits` commits, newest
  // first; a path no walked commit holds is absent from the result.
  [[nodiscard]] std::map<std::string, std::int64_t> first_seen_times(
      const std::vector<std::string>& paths, std::size_t max_commits) const;

  // Repository configuration (all levels), e.g. `vault.summarizer`.
  [[nodiscard]] std::optional<std::string> config_string(std::string_view key) const;
  // Writes `key` into the repository's own config file (.git/config).
  void set_config_string(std::string_view key, std::string_view value);

  // Paths matching `pathspecs` (a directory like `.memory/` or `memory` covers everything under
  // it) whose work tree or index differs from HEAD, including untracked, not ignored, files.
  // Sorted; empty when all are clean.
  [[nodiscard]] std::vector<std::string> dirty_paths(
      const std::vector<std::string>& pathspecs) const;

  // True when git ignores `path` (repo-relative) through .gitignore, info/exclude or
  // core.excludesFile. The path need not exist.
  [[nodiscard]] bool is_ignored(std::string_view path) const;

  // The index (GIT_INDEX_FILE when opened from the environment), stage 0 regular files only.
  // Read from the file directly (core/git/index_file.hpp) and kept while its stat data holds;
  // layouts that reader leaves alone go through libgit2.
  [[nodiscard]] std::vector<SnapshotEntry> index_entries(std::string_view prefix) const;
  [[nodiscard]] std::optional<std::string> index_blob_id(std::string_view path) const;
  // The index file git uses for this repository: GIT_INDEX_FILE when opened from the
  // environment, else `index` in the git dir.
  [[nodiscard]] std::filesystem::path index_path() const;
  // The index file parsed (core/git/index_file.hpp), re-read when its stat data changed; null
  // when its layout is one only libgit2 reads.
  [[nodiscard]] std::shared_ptr<const class IndexFile> index_file() const;

  // A tree's regular files under `prefix`, descending only into the prefix's own subtree.
  [[nodiscard]] std::vector<SnapshotEntry> tree_entries(std::string_view tree_id,
                                                        std::string_view prefix) const;
  [[nodiscard]] std::optional<std::string> tree_blob_id(std::string_view tree_id,
                                                        std::string_view path) const;
  // The id of the folder `path` (no trailing slash) in a tree, or nullopt when there is none.
  [[nodiscard]] std::optional<std::string> subtree_id(std::string_view tree_id,
                                                      std::string_view path) const;
  // The regular files under `prefix` (a directory ending in `/`) that differ between two trees,
  // sorted by path. Only subtrees whose ids differ are read, so the cost follows the change.
  [[nodiscard]] std::vector<TreeChange> diff_trees(std::string_view old_tree_id,
                                                   std::string_view new_tree_id,
                                                   std::string_view prefix) const;

  // For code inside core/git only: the libgit2 handle, valid while this Repo lives.
  [[nodiscard]] git_repository* raw() const noexcept { return m_repo.get(); }
  // The same handle, for libgit2 calls that read the repository's index (status, the index
  // itself): it first points libgit2 at GIT_INDEX_FILE, which is applied only when needed so
  // that opening a repository never parses the whole index.
  [[nodiscard]] git_repository* raw_with_index() const;

 private:
  struct Deleter {
    void operator()(git_repository* repo) const noexcept;
  };
  struct IndexCache;
  explicit Repo(std::unique_ptr<git_repository, Deleter> repo);

  std::unique_ptr<git_repository, Deleter> m_repo;
  std::optional<std::filesystem::path> m_index_override;  // GIT_INDEX_FILE, absolute
  mutable bool m_index_override_applied = false;
  std::unique_ptr<IndexCache> m_index_cache;
};

}  // namespace gv::git
