#pragma once

#include <cstddef>
#include <filesystem>
#include <optional>
#include <string>
#include <unordered_map>

#include "core/snapshot/snapshot.hpp"
#include "core/snapshot/stat_cache.hpp"

namespace gv {

// The repository's work tree on disk as a Snapshot.
//
// list() walks only the directory named by the prefix (`.memory/10-Memories/` never touches the
// rest of the repo), skips `.git` and every symlink, and gives each listed file its git blob id
// (git::hash_blob, no repository needed), so a parse cache keyed by oid can skip the parse. A
// file whose lstat stamp is the one it had when last hashed takes its id from the work tree's
// StatCache without being read; the cache is saved when the snapshot is destroyed. read() reads
// the file; a file list() had to read to hash it is kept (up to a bound) and handed to the first
// read() whose lstat stamp still matches, so a cold run reads each file once. List narrow
// prefixes: `` hashes the whole tree.
//
// Paths are confined to the root: `..`, absolute paths and any symlinked component are
// refused, so a link pointing outside the work tree is never followed.
class WorktreeSnapshot final : public Snapshot {
 public:
  // Uses the stat cache of the repository whose work tree `root` is, when it is one.
  explicit WorktreeSnapshot(std::filesystem::path root);
  // Saves the stat cache when list() learnt something; failures are silent.
  ~WorktreeSnapshot() override;
  WorktreeSnapshot(const WorktreeSnapshot&) = delete;
  WorktreeSnapshot& operator=(const WorktreeSnapshot&) = delete;

  // Throws gv::Error when a listed file cannot be read.
  [[nodiscard]] std::vector<SnapshotEntry> list(std::string_view prefix) const override;
  // nullopt when absent, not a regular file, or reached through a symlink. Throws gv::Error on
  // other I/O failures.
  [[nodiscard]] std::optional<std::string> read(std::string_view path) const override;
  [[nodiscard]] std::string describe() const override { return "work tree"; }

  [[nodiscard]] const std::filesystem::path& root() const { return m_root; }

 private:
  [[nodiscard]] StatCache& stat_cache() const;

  std::filesystem::path m_root;
  mutable std::optional<StatCache> m_stat_cache;
  // Bytes list() read to hash, by path, with the stamp they were read under.
  struct ReadAhead {
    FileStamp stamp;
    std::string bytes;
  };
  mutable std::unordered_map<std::string, ReadAhead> m_read_ahead;
  mutable std::size_t m_read_ahead_bytes = 0;
};

// The git blob id (40 hex chars) of `bytes`, as `git hash-object` computes it.
[[nodiscard]] std::string blob_oid(std::string_view bytes);

}  // namespace gv
