#pragma once

#include "core/snapshot/snapshot.hpp"

namespace gv::git {
class Repo;
}

namespace gv {

// The files staged in the git index: what `git commit` is about to record. Opened from the
// hook's environment, the Repo reads GIT_INDEX_FILE, so `git commit -a` is seen correctly.
// Blob ids come straight from the index entries; nothing is hashed. Valid while `repo` lives.
class IndexSnapshot final : public Snapshot {
 public:
  explicit IndexSnapshot(const git::Repo& repo) : m_repo(repo) {}

  [[nodiscard]] std::vector<SnapshotEntry> list(std::string_view prefix) const override;
  [[nodiscard]] std::optional<std::string> read(std::string_view path) const override;
  [[nodiscard]] std::optional<std::string> read_head(std::string_view path,
                                                     std::size_t max_bytes) const override;
  [[nodiscard]] std::string describe() const override { return "index"; }
  [[nodiscard]] std::shared_ptr<const git::IndexFile> index_file() const override;

 private:
  const git::Repo& m_repo;
};

}  // namespace gv
