#include "core/git/index_stage.hpp"

#include <sys/stat.h>

#include <cstdint>
#include <set>
#include <utility>

#include "core/error.hpp"
#include "core/git/handle.hpp"
#include "core/git/repo.hpp"

namespace gv::git {
namespace fs = std::filesystem;

void record_stat(git_index_entry& entry, const fs::path& file) {
  struct stat st {};
  if (::lstat(file.c_str(), &st) != 0) {
    return;
  }
  entry.ctime.seconds = static_cast<std::int32_t>(st.st_ctim.tv_sec);
  entry.ctime.nanoseconds = static_cast<std::uint32_t>(st.st_ctim.tv_nsec);
  entry.mtime.seconds = static_cast<std::int32_t>(st.st_mtim.tv_sec);
  entry.mtime.nanoseconds = static_cast<std::uint32_t>(st.st_mtim.tv_nsec);
  entry.dev = static_cast<std::uint32_t>(st.st_dev);
  entry.ino = static_cast<std::uint32_t>(st.st_ino);
  entry.uid = st.st_uid;
  entry.gid = st.st_gid;
  entry.file_size = static_cast<std::uint32_t>(st.st_size);
}

void smudge_racily_clean(git_index* index, const std::set<std::string>& ours,
                         std::int64_t index_mtime_seconds) {
  // Copied out first (with their paths, which the index owns) so that no entry is read while
  // the index is being changed.
  std::vector<std::pair<git_index_entry, std::string>> smudged;
  const std::size_t count = git_index_entrycount(index);
  for (std::size_t i = 0; i < count; ++i) {
    const git_index_entry* entry = git_index_get_byindex(index, i);  // borrowed
    if (entry != nullptr && GIT_INDEX_ENTRY_STAGE(entry) == 0 && entry->file_size != 0 &&
        entry->mtime.seconds >= index_mtime_seconds && !ours.contains(entry->path)) {
      smudged.emplace_back(*entry, entry->path);
    }
  }
  for (auto& [entry, path] : smudged) {
    entry.path = path.c_str();
    entry.file_size = 0;
    check(git_index_add(index, &entry), "refresh " + path);
  }
}

std::string write_blob(const Repo& repo, std::string_view bytes) {
  git_oid id;
  check(git_blob_create_from_buffer(&id, repo.raw(), bytes.data(), bytes.size()), "write a blob");
  return to_hex(id);
}

std::vector<std::string> stage_blobs(const fs::path& index_path,
                                     const std::vector<StagedBlob>& blobs) {
  struct stat before {};
  const std::int64_t index_mtime = ::stat(index_path.c_str(), &before) == 0
                                       ? static_cast<std::int64_t>(before.st_mtim.tv_sec)
                                       : 0;
  git_index* raw = nullptr;
  check(git_index_open(&raw, index_path.c_str()), "read the index " + index_path.string());
  const IndexPtr index{raw};
  std::vector<std::string> staged;
  std::set<std::string> ours;
  for (const StagedBlob& blob : blobs) {
    const git_index_entry* now = git_index_get_bypath(index.get(), blob.path.c_str(), 0);
    const std::optional<std::string> current =
        now == nullptr ? std::nullopt : std::optional<std::string>(to_hex(now->id));
    if (current != blob.expected) {
      continue;
    }
    git_index_entry entry{};
    entry.mode = GIT_FILEMODE_BLOB;
    entry.id = from_hex(blob.oid, "blob id");
    entry.path = blob.path.c_str();
    if (blob.stat_from) {
      record_stat(entry, *blob.stat_from);
    }
    check(git_index_add(index.get(), &entry), "stage " + blob.path);
    staged.push_back(blob.path);
    ours.insert(blob.path);
  }
  if (staged.empty()) {
    return staged;
  }
  smudge_racily_clean(index.get(), ours, index_mtime);
  // libgit2 writes `<index_path>.lock` and renames it over the file, refusing when the lock is
  // held, as git does.
  check(git_index_write(index.get()), "write the index " + index_path.string());
  return staged;
}

}  // namespace gv::git
