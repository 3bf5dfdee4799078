#include "core/util/exhaustion.hpp"

#include <fmt/format.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace gv::util {
namespace {

bool names(std::string_view message, int code) {
  // The C library's text, untranslated: git-vault never sets a locale.
  return message.find(std::strerror(code)) != std::string_view::npos;
}

}  // namespace

Exhausted exhausted_in(std::string_view message) {
  if (names(message, ENOSPC) || names(message, EDQUOT)) {
    return Exhausted::disk;
  }
  if (names(message, ENOMEM)) {
    return Exhausted::memory;
  }
  return Exhausted::nothing;
}

bool file_system_full(const char* path) {
  struct ::statvfs info {};
  if (::statvfs(path, &info) != 0) {
    return false;
  }
  const bool root = ::geteuid() == 0;
  // A file system that reports no sizes at all (some network and virtual ones) says nothing.
  const bool no_blocks = info.f_blocks > 0 && (root ? info.f_bfree : info.f_bavail) == 0;
  const bool no_inodes = info.f_files > 0 && (root ? info.f_ffree : info.f_favail) == 0;
  return no_blocks || no_inodes;
}

std::string fatal_message(std::string_view message, std::string_view command, Exhausted exhausted) {
  const std::string_view running = command.empty() ? std::string_view("(starting)") : command;
  switch (exhausted) {
    case Exhausted::nothing:
      break;
    case Exhausted::memory:
      // As main says it for std::bad_alloc.
      return fmt::format(
          "out of memory while running git vault {}: {} (a larger memory limit, `ulimit -v`, "
          "lets it finish)",
          running, message);
    case Exhausted::disk:
      return fmt::format("no space left on device while running git vault {}: {}", running,
                         message);
  }
  return std::string(message);
}

}  // namespace gv::util
