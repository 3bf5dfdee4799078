#pragma once

#include <filesystem>
#include <span>

// System calls that not every POSIX system has, each behind a feature check (CMakeLists.txt,
// "Feature checks") with a fallback that keeps the same guarantee (doc/architecture.md,
// "Portability").
namespace gv::util {

// pipe(2) with both ends closed on exec. pipe2 where the system has it; elsewhere pipe and
// fcntl, which leaves a moment in which a fork from another thread could inherit the ends
// (git-vault forks from its main thread only). Returns 0, or -1 with errno set.
int cloexec_pipe(int fds[2]);

// Makes durable everything written so far under `dir` and the entries of `folders` (files
// created, renamed or removed in them). With syncfs(2) one call flushes the whole file system
// holding `dir`, as git's batch fsync mode does. Elsewhere each of `folders` and `dir` itself is
// fsynced (the files written into them must have been fsynced by their writer, see
// `k_has_syncfs`), and on macOS the last with F_FULLFSYNC, which also empties the drive's cache.
// Throws gv::Error naming `dir` when the system refuses.
void sync_file_system(const std::filesystem::path& dir,
                      std::span<const std::filesystem::path> folders);

// False where sync_file_system cannot flush file contents by itself: a writer must then fsync
// each file it creates before it counts on sync_file_system.
extern const bool k_has_syncfs;

}  // namespace gv::util
