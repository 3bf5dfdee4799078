#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

// libgit2's index types, declared here so that this header does not bring in git2.h.
struct git_index;
struct git_index_entry;

namespace gv::git {

class Repo;

// Records the stat data of `file` (lstat) in `entry` as git does, so that `git status` need not
// hash the file again; leaves `entry` as it is when the file cannot be read.
void record_stat(git_index_entry& entry, const std::filesystem::path& file);

// Git trusts an entry's stat data only when the entry is older than the index file, in whole
// seconds: an entry recorded in the same second as the index was written is "racily clean",
// and git compares its content instead, because the file may have changed within that second
// (staged, then edited to the same size). Rewriting the index gives it a later time and would
// make git trust such entries, hiding that edit. So, as git does when it writes an index, the
// recorded size of every such stage-0 entry not in `ours` is zeroed: git then compares content.
// `index_mtime_seconds` is the modification time of the index file as it was read.
void smudge_racily_clean(git_index* index, const std::set<std::string>& ours,
                         std::int64_t index_mtime_seconds);

// Writes `bytes` into the repository's object database as a blob and returns its id (40 hex).
[[nodiscard]] std::string write_blob(const Repo& repo, std::string_view bytes);

// One stage-0 entry to set in an index file, as `git update-index --cacheinfo` sets it.
struct StagedBlob {
  std::string path;  // repo-relative
  std::string oid;   // 40 hex, a blob already in the object database
  // The id the entry must have now (nullopt: the path must be absent): an entry that changed
  // since it was read is left as it is.
  std::optional<std::string> expected;
  // A work tree file holding exactly the blob's bytes, whose stat data the entry records so
  // that `git status` need not hash it again; nullopt: git compares content next time.
  std::optional<std::filesystem::path> stat_from;
};

// Sets each entry (mode 100644) in the index file at `index_path` under git's own lock
// (`<index_path>.lock`; held by another git, the call throws and changes nothing), the way a
// hook's `git add` changes the index `git commit` is about to record: that file is
// GIT_INDEX_FILE, `.git/index.lock` itself during `git commit -a`. Entries whose current id is
// not `expected` are skipped. Other entries keep their stat data, except that any git would
// call racily clean is smudged, as git does when it rewrites an index, so a later edit made in
// the same second stays visible. Returns the paths it set, in the order given; writes nothing
// when none is set. Throws gv::Error naming the file when libgit2 cannot read or write it (a
// split or sparse index).
std::vector<std::string> stage_blobs(const std::filesystem::path& index_path,
                                     const std::vector<StagedBlob>& blobs);

}  // namespace gv::git
