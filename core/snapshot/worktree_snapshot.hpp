#pragma once

#include <filesystem>

#include "core/snapshot/snapshot.hpp"

namespace gv {

// The repository's work tree on disk as a Snapshot.
//
// list() walks only the directory named by the prefix (`.memory/10-Memories/` never touches the
// rest of the repo), skips `.git` and every symlink, and hashes each listed file as a git blob
// (git::hash_blob, no repository needed). Hashing on list costs one read plus SHA-1 per file, far
// below parsing (load_vault on 10,000 2 KiB notes: about 0.9 s CPU, nearly all yaml-cpp); it
// keeps SnapshotEntry a plain value and lets a parse cache keyed by oid skip the parse. read()
// reads the file again (from the page cache). List narrow prefixes: `` hashes the whole tree.
//
// Paths are confined to the root: `..`, absolute paths and any symlinked component are
// refused, so a link pointing outside the work tree is never followed.
class WorktreeSnapshot final : public Snapshot {
 public:
  explicit WorktreeSnapshot(std::filesystem::path root);

  // Throws gv::Error when a listed file cannot be read.
  [[nodiscard]] std::vector<SnapshotEntry> list(std::string_view prefix) const override;
  // nullopt when absent, not a regular file, or reached through a symlink. Throws gv::Error on
  // other I/O failures.
  [[nodiscard]] std::optional<std::string> read(std::string_view path) const override;
  [[nodiscard]] std::string describe() const override { return "work tree"; }

  [[nodiscard]] const std::filesystem::path& root() const { return m_root; }

 private:
  std::filesystem::path m_root;
};

// The git blob id (40 hex chars) of `bytes`, as `git hash-object` computes it.
[[nodiscard]] std::string blob_oid(std::string_view bytes);

}  // namespace gv
