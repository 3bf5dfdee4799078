#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace gv {

// What lstat says about a file, as far as telling a changed file from an unchanged one goes.
struct FileStamp {
  std::uint64_t device = 0;
  std::uint64_t inode = 0;
  std::uint64_t size = 0;
  std::int64_t mtime_ns = 0;
  std::int64_t ctime_ns = 0;
  std::uint32_t mode = 0;

  friend bool operator==(const FileStamp&, const FileStamp&) = default;
};

// Blob ids of work-tree files remembered by their stamps, so a run that finds a file as it was
// last time takes its id without reading or hashing it (git's index does the same for
// `git status`). Kept per work tree in `<git dir>/git-vault/stat-cache`.
//
// A stamp only proves "unchanged" when the file was not written again within the clock tick
// that stamped it: a file changed less than two seconds before it was hashed is never trusted
// (the "racy git" problem), so an edit made right after a run is always seen. ctime, which no
// tool can set back, is part of the stamp.
//
// The file is an optimisation only: a missing, truncated or foreign file is ignored, and a
// failed save is silent. find() moves a cursor, so one thread uses a cache at a time.
class StatCache {
 public:
  // An empty cache that is never saved.
  StatCache() = default;
  // Reads `file` (an unreadable or invalid file gives an empty cache); save() writes it back.
  explicit StatCache(std::filesystem::path file);

  // The remembered id (40 hex) of `path` when its stamp is unchanged and trusted.
  [[nodiscard]] std::optional<std::string> find(std::string_view path,
                                                const FileStamp& stamp) const;
  // Remembers `oid` for `path` as hashed at `hashed_at_ns` (a CLOCK_REALTIME time taken before
  // the file was read). Entries too young to be trusted are not kept.
  void store(std::string_view path, const FileStamp& stamp, std::string_view oid,
             std::int64_t hashed_at_ns);

  // Writes the file atomically when something was stored since it was read. Returns false when
  // it could not (the caller carries on).
  bool save() const;

  // The cache file of the work tree at `root`: `<git dir>/git-vault/stat-cache` when `root/.git`
  // is a git dir or a `gitdir:` file; nullopt otherwise (not a repository root).
  [[nodiscard]] static std::optional<std::filesystem::path> file_for(
      const std::filesystem::path& root);

  [[nodiscard]] std::size_t size() const { return m_records.size() + m_added; }

 private:
  struct Entry {
    FileStamp stamp;
    std::uint8_t oid[20] = {};
  };

  // By path; transparent, so a lookup by string_view makes no copy.
  struct PathHash {
    using is_transparent = void;
    std::size_t operator()(std::string_view path) const noexcept {
      return std::hash<std::string_view>{}(path);
    }
  };
  using Entries = std::unordered_map<std::string, Entry, PathHash, std::equal_to<>>;

  // The file's entries stay in the bytes read, in path order (doc/performance.md, "The stat
  // cache"): a walk that asks in path order reads them front to back, and nothing is allocated
  // per entry. A lookup out of order goes through a hash of the paths, built on first need.
  [[nodiscard]] std::string_view record_path(std::size_t record) const;
  [[nodiscard]] Entry record_entry(std::size_t record) const;
  // The index of the file's record for `path`, or npos.
  [[nodiscard]] std::size_t locate(std::string_view path) const;

  std::filesystem::path m_file;
  std::string m_bytes;
  std::vector<std::uint32_t> m_records;        // where each record starts in m_bytes, in path order
  mutable std::vector<std::uint64_t> m_slots;  // path hash << 32 | record + 1, open addressing
  mutable std::size_t m_next = 0;              // the record after the last one found
  Entries m_stored;         // stored by this run: newer than the file's record of the same path
  std::size_t m_added = 0;  // paths in m_stored that the file does not have
  bool m_dirty = false;
};

// The stamp of `path` without following a final symlink; nullopt when lstat fails.
[[nodiscard]] std::optional<FileStamp> stamp_of(const std::filesystem::path& path);
// The same for `name` in the directory open as `dir_fd` (no path walk from the root).
[[nodiscard]] std::optional<FileStamp> stamp_at(int dir_fd, const char* name);

// The current CLOCK_REALTIME time in nanoseconds (what file times are measured in).
[[nodiscard]] std::int64_t realtime_ns();

}  // namespace gv
