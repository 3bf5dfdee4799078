#pragma once

#include <sys/types.h>

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>

namespace gv::git {

// The start time of process `pid` in clock ticks since boot (/proc/<pid>/stat, field 22; on
// macOS, microseconds since the epoch from sysctl; 0 where the system tells neither), or
// nullopt when no such process runs. With the pid it names one process for good: a pid is
// reused, a (pid, start time) pair is not.
[[nodiscard]] std::optional<std::uint64_t> process_start_time(pid_t pid);

// `<git dir>/vault.lock`: one git-vault run at a time changes a work tree (doc/decisions.md, D7).
//
// The file holds `<pid> <start time>` of its owner, who also keeps an exclusive flock(2) on it.
// The flock makes taking over a stale lock atomic (the kernel drops it when the owner dies, even
// by SIGKILL); the pid and start time tell a live owner from a dead one when the flock is not
// there (another file system, or a lock file written by hand) and name the owner in messages.
// A lock whose owner is gone is cleared with a note on stderr.
class VaultLock {
 public:
  // How long a run waits for another to release the lock before it gives up, as git waits for
  // a ref's lock (core.filesRefLockTimeout): long enough for a `learn` to follow a landing
  // already under way, short enough that a stuck run is reported, not waited on.
  static constexpr std::chrono::milliseconds k_default_wait{3000};

  // Takes the lock, waiting up to `wait` (retrying with growing pauses) while a live process
  // holds it, then throws gv::Error naming that process.
  explicit VaultLock(std::filesystem::path path, std::chrono::milliseconds wait = k_default_wait);
  // Returns nullopt instead of throwing when a live process holds the lock.
  [[nodiscard]] static std::optional<VaultLock> try_take(std::filesystem::path path);
  // The same after waiting up to `wait` for a live owner to release it.
  [[nodiscard]] static std::optional<VaultLock> take_within(std::filesystem::path path,
                                                            std::chrono::milliseconds wait);
  ~VaultLock();
  VaultLock(VaultLock&& other) noexcept;
  VaultLock& operator=(VaultLock&&) = delete;
  VaultLock(const VaultLock&) = delete;
  VaultLock& operator=(const VaultLock&) = delete;

  [[nodiscard]] const std::filesystem::path& path() const { return m_path; }

 private:
  struct Taken {};
  VaultLock(std::filesystem::path path, int fd, Taken);
  // The fd of the locked file, or -1 with `holder` describing the live owner.
  static int take(const std::filesystem::path& path, std::string& holder);
  // take(), retried with growing pauses for up to `wait`.
  static int take_waiting(const std::filesystem::path& path, std::chrono::milliseconds wait,
                          std::string& holder);

  std::filesystem::path m_path;
  int m_fd = -1;
};

}  // namespace gv::git
