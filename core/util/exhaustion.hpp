#pragma once

#include <string>
#include <string_view>

// Out of memory and a full disk, told as such in the one line a fatal error ends a command with
// (doc/architecture.md, "Output"). A system call that finds no memory fails with ENOMEM, a
// write that finds no room with ENOSPC or EDQUOT (a quota is a full disk to whoever reaches it),
// and git-vault's messages and libgit2's end in the system's text for the error. What failed
// for want of room can also surface later as something else (libgit2 looking for an object it
// could not write), so the file system is asked as well. An allocation that fails in C++ is
// std::bad_alloc, which main reports without these.
namespace gv::util {

enum class Exhausted { nothing, memory, disk };

// What `message` says ran out, from the system's text for ENOMEM, ENOSPC or EDQUOT.
[[nodiscard]] Exhausted exhausted_in(std::string_view message);

// Whether the file system holding `path` has no block or no inode left that this process may
// use (root may use the blocks reserved for it). False when it cannot tell.
[[nodiscard]] bool file_system_full(const char* path);

// The text after `git-vault: error: ` for the fatal error `message` of `git vault <command>`
// (empty: before a command was chosen): the message as it is, or, when something ran out,
// `out of memory while running git vault <command>: <message> (…)` or
// `no space left on device while running git vault <command>: <message>`.
[[nodiscard]] std::string fatal_message(std::string_view message, std::string_view command,
                                        Exhausted exhausted);

}  // namespace gv::util
