#include "core/setup/gitignore.hpp"

#include <string>

#include "core/git/repo.hpp"
#include "core/util/file.hpp"

namespace gv {

IgnoreOutcome ignore_unless_tracked(const git::Repo& repo, std::string_view path) {
  if (repo.index_blob_id(path)) {
    return IgnoreOutcome::tracked;
  }
  if (repo.is_ignored(path)) {
    return IgnoreOutcome::already_ignored;
  }
  const std::filesystem::path file = repo.workdir() / ".gitignore";
  std::string bytes = util::read_file_if_exists(file).value_or("");
  if (!bytes.empty() && bytes.back() != '\n') {
    bytes += '\n';
  }
  bytes += std::string(path) + "\n";
  util::write_file_atomic(file, bytes);
  return IgnoreOutcome::added;
}

}  // namespace gv
