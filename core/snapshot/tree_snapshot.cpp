#include "core/snapshot/tree_snapshot.hpp"

#include "core/git/repo.hpp"

namespace gv {

TreeSnapshot::TreeSnapshot(const git::Repo& repo, std::string_view rev) : m_repo(repo) {
  const git::CommitInfo info = repo.commit_info(rev);
  m_commit = info.id;
  m_tree = info.tree;
}

std::vector<SnapshotEntry> TreeSnapshot::list(std::string_view prefix) const {
  return m_repo.tree_entries(m_tree, prefix);
}

std::optional<std::string> TreeSnapshot::read(std::string_view path) const {
  const std::optional<std::string> oid = m_repo.tree_blob_id(m_tree, path);
  if (!oid) {
    return std::nullopt;
  }
  return m_repo.read_blob(*oid);
}

std::optional<std::string> TreeSnapshot::read_head(std::string_view path,
                                                   std::size_t max_bytes) const {
  const std::optional<std::string> oid = m_repo.tree_blob_id(m_tree, path);
  if (!oid) {
    return std::nullopt;
  }
  return m_repo.read_blob_head(*oid, max_bytes);
}

}  // namespace gv
