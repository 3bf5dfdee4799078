#pragma once

#include <string>

#include "core/snapshot/snapshot.hpp"

namespace gv::git {
class Repo;
}

namespace gv {

// The files of one commit's tree (`check --range`, `review`, `log --verify`). Listing descends
// only into the prefix's own subtree, so asking for `.memory/10-Memories/` never walks the rest
// of the repository. Valid while `repo` lives.
class TreeSnapshot final : public Snapshot {
 public:
  // `rev` is any revision naming a commit (an id, `HEAD`, `main~2`); throws gv::Error otherwise.
  TreeSnapshot(const git::Repo& repo, std::string_view rev);

  [[nodiscard]] std::vector<SnapshotEntry> list(std::string_view prefix) const override;
  [[nodiscard]] std::optional<std::string> read(std::string_view path) const override;
  [[nodiscard]] std::optional<std::string> read_head(std::string_view path,
                                                     std::size_t max_bytes) const override;
  // The commit id, abbreviated to 12 hex digits.
  [[nodiscard]] std::string describe() const override { return m_commit.substr(0, 12); }

  [[nodiscard]] const std::string& commit() const { return m_commit; }
  [[nodiscard]] const std::string& tree() const { return m_tree; }

 private:
  const git::Repo& m_repo;
  std::string m_commit;
  std::string m_tree;
};

}  // namespace gv
