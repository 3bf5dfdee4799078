#include "core/snapshot/index_snapshot.hpp"

#include "core/git/repo.hpp"

namespace gv {

std::vector<SnapshotEntry> IndexSnapshot::list(std::string_view prefix) const {
  return m_repo.index_entries(prefix);
}

std::shared_ptr<const git::IndexFile> IndexSnapshot::index_file() const {
  return m_repo.index_file();
}

std::optional<std::string> IndexSnapshot::read(std::string_view path) const {
  const std::optional<std::string> oid = m_repo.index_blob_id(path);
  if (!oid) {
    return std::nullopt;
  }
  return m_repo.read_blob(*oid);
}

std::optional<std::string> IndexSnapshot::read_head(std::string_view path,
                                                    std::size_t max_bytes) const {
  const std::optional<std::string> oid = m_repo.index_blob_id(path);
  if (!oid) {
    return std::nullopt;
  }
  return m_repo.read_blob_head(*oid, max_bytes);
}

}  // namespace gv
