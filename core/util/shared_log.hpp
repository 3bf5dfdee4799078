#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

// A log that several processes append to under flock(2), and that a consumer empties by
// dropping the prefix it consumed: the rest is written to a new file that is renamed over the
// log, so the log's inode names one generation of it. A drop that finds another generation at
// the path knows its prefix is gone already (it never drops twice), and lines appended after the
// prefix survive. An appender or reader that waited for the lock opens the log again when the
// path names another file than the one it locked. (doc/agent.md, "Retrieval records (D16)")
namespace gv::util {

// The first `length` bytes of one generation of a log, as a consumer read them.
struct FilePrefix {
  std::string path;          // the log, absolute
  std::uint64_t inode = 0;   // its generation
  std::uint64_t length = 0;  // bytes
  std::string digest;        // Digest128 of those bytes, 32 hex digits

  friend bool operator==(const FilePrefix&, const FilePrefix&) = default;
};

// The log at `path`, open and locked until destruction.
class LockedLog {
 public:
  // Opens `path` and takes its lock, exclusive or shared. `create`: creates the log (and its
  // folder) when missing; otherwise an absent log gives absent(). Throws gv::Error naming the
  // file on any other failure.
  LockedLog(std::filesystem::path path, bool exclusive, bool create);
  ~LockedLog();
  LockedLog(const LockedLog&) = delete;
  LockedLog& operator=(const LockedLog&) = delete;

  [[nodiscard]] bool absent() const { return m_fd < 0; }
  [[nodiscard]] int fd() const { return m_fd; }
  [[nodiscard]] std::uint64_t inode() const { return m_inode; }
  // Every byte of the log. Throws gv::Error on a read error.
  [[nodiscard]] std::string read_all() const;

 private:
  std::filesystem::path m_path;
  int m_fd = -1;
  std::uint64_t m_inode = 0;
};

// The prefix `bytes` of the log at `path`, generation `inode`.
[[nodiscard]] FilePrefix prefix_of(const std::filesystem::path& path, std::uint64_t inode,
                                   std::string_view bytes);

// How many leading bytes of `bytes` (generation `inode` of the log at `path`) the longest of
// `prefixes` that still matches covers: consumed, not yet dropped. 0 when none does.
[[nodiscard]] std::uint64_t consumed_length(const std::filesystem::path& path, std::uint64_t inode,
                                            std::string_view bytes,
                                            const std::vector<FilePrefix>& prefixes);

// Whether the log still begins with `prefix` (the same generation, the same bytes).
[[nodiscard]] bool prefix_present(const FilePrefix& prefix);

// Drops `prefix` from its log under the exclusive lock: the rest goes to `<log>.new`, synced,
// then renamed over the log. `before_rename` runs in between (a fault point for the crash tests).
// Returns false, changing nothing, when the log no longer begins with the prefix. Throws
// gv::Error on I/O failure, the log left as it was.
bool drop_prefix(const FilePrefix& prefix, const std::function<void()>& before_rename = {});

}  // namespace gv::util
