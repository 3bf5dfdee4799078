#pragma once

#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/snapshot_entry.hpp"

namespace gv {

namespace git {
class IndexFile;
}

// A read-only view of the repository's files at one state: the work tree, the git index being
// committed, or a commit's tree. Every analysis (index regeneration, scoring, gates, recall)
// reads through this interface, so the same code checks a commit, the staging area or the disk.
class Snapshot {
 public:
  virtual ~Snapshot() = default;

  // Regular files (symlinks excluded) whose path starts with `prefix` (a directory such as
  // `.memory/10-Memories/`, or `` for all), sorted by path bytes.
  [[nodiscard]] virtual std::vector<SnapshotEntry> list(std::string_view prefix) const = 0;

  // The file's bytes, or nullopt when the path is absent (or not a regular file).
  [[nodiscard]] virtual std::optional<std::string> read(std::string_view path) const = 0;

  // The first `max_bytes` bytes of the file (all of it when shorter), or nullopt when absent.
  // Snapshots backed by git override it to avoid inflating a whole multi-megabyte blob.
  [[nodiscard]] virtual std::optional<std::string> read_head(std::string_view path,
                                                             std::size_t max_bytes) const {
    std::optional<std::string> bytes = read(path);
    if (bytes && bytes->size() > max_bytes) {
      bytes->resize(max_bytes);
    }
    return bytes;
  }

  // A short name for messages: `work tree`, `index`, or a commit id.
  [[nodiscard]] virtual std::string describe() const = 0;

  // The git index file this snapshot lists, parsed, when it is one and its layout is read
  // directly (core/git/index_file.hpp): the gate then compares entries with the state it
  // checked last instead of checking every memory again.
  [[nodiscard]] virtual std::shared_ptr<const git::IndexFile> index_file() const { return nullptr; }
};

}  // namespace gv
