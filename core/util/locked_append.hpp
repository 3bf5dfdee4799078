#pragma once

#include <chrono>
#include <cstddef>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <string_view>

// Append-only record files in the git directory (the retrieval journal, the event journal): many
// processes append at once and none may lose or tear another's line (doc/decisions.md, D16 and
// D20). Each append is one write on a descriptor opened with O_APPEND, under an exclusive flock
// that also orders it against a reader or a fold.
namespace gv::util {

// When a lock is busy: wait for it (nullopt), or give up at this point in time.
using LockDeadline = std::optional<std::chrono::steady_clock::time_point>;

// Appends `bytes` (whole lines) to `file`, creating it and its folders when missing. A last line
// left without its newline (a write torn by a crash) is ended first, so the new lines stay lines
// of their own. A file renamed over by a fold while this waited for the lock (fold_prefix) is
// opened again, so no line lands in a file nobody reads. Returns false only when `deadline`
// passed before the lock was free; throws gv::Error (naming `what`, e.g. "the event journal") on
// I/O failure.
bool append_locked(const std::filesystem::path& file, std::string_view bytes, std::string_view what,
                   LockDeadline deadline = std::nullopt);

// The same, where what to append depends on what the file holds: under the exclusive lock,
// `decide` gets the file's bytes and returns the lines to append (empty: nothing). For a file
// that maps keys to values and must never give one key two values (the agent sessions map).
bool append_locked_if(const std::filesystem::path& file,
                      const std::function<std::string(std::string_view current)>& decide,
                      std::string_view what, LockDeadline deadline = std::nullopt);

// The bytes of `file` read under a shared lock, so no half-appended line is seen; nullopt when
// the file does not exist. Throws gv::Error on other I/O failure.
[[nodiscard]] std::optional<std::string> read_locked(const std::filesystem::path& file,
                                                     std::string_view what);

// Removes the first `size` bytes of `file` (lines a fold has committed elsewhere), keeping every
// line appended after they were read: under the exclusive lock, the rest is written to a new
// file renamed over the old one. Appenders waiting on the old file notice and reopen. Throws
// gv::Error on I/O failure; a crash leaves the old file or the new one.
void drop_prefix(const std::filesystem::path& file, std::size_t size, std::string_view what);

}  // namespace gv::util
