#include "core/hooks/hook_files.hpp"

#include <fmt/format.h>

#include <optional>
#include <system_error>

#include "core/error.hpp"
#include "core/hooks/shim.hpp"
#include "core/util/file.hpp"

namespace gv::hooks {
namespace fs = std::filesystem;

namespace {

fs::path backup_path(const fs::path& dir, std::string_view name) {
  return dir / (std::string(name) + std::string(k_backup_suffix));
}

bool present(const fs::path& path) {
  std::error_code ec;
  return fs::exists(fs::symlink_status(path, ec));
}

// The file's bytes when it is a regular file (not a symlink), else nullopt.
std::optional<std::string> read_regular(const fs::path& path) {
  std::error_code ec;
  const fs::file_status status = fs::symlink_status(path, ec);
  if (ec || !fs::is_regular_file(status)) {
    return std::nullopt;
  }
  return util::read_file(path);
}

bool is_ours(const fs::path& path) {
  const std::optional<std::string> content = read_regular(path);
  return content && is_our_shim(*content);
}

// Atomic, so git never runs a half-written hook and a failed write leaves the old file.
void write_executable(const fs::path& target, std::string_view bytes) {
  util::write_file_atomic(target, bytes, /*executable=*/true);
}

void rename_or_throw(const fs::path& from, const fs::path& to) {
  std::error_code ec;
  fs::rename(from, to, ec);
  if (ec) {
    throw Error("{}: cannot rename to {}: {}", from.string(), to.filename().string(), ec.message());
  }
}

}  // namespace

std::string_view to_string(HookState state) {
  switch (state) {
    case HookState::not_installed:
      return "not installed";
    case HookState::installed:
      return "installed";
    case HookState::chained:
      return "chained";
    case HookState::foreign:
      return "foreign hook present";
  }
  return "unknown";
}

HookState hook_state(const fs::path& dir, std::string_view name) {
  const fs::path hook = dir / name;
  if (!present(hook)) {
    return HookState::not_installed;
  }
  if (!is_ours(hook)) {
    return HookState::foreign;
  }
  return present(backup_path(dir, name)) ? HookState::chained : HookState::installed;
}

HookChange install_shim(const fs::path& dir, std::string_view name) {
  HookChange change{std::string(name), HookOutcome::installed, {}};
  const fs::path hook = dir / name;
  const fs::path backup = backup_path(dir, name);
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec) {
    throw Error("{}: cannot create hooks directory: {}", dir.string(), ec.message());
  }

  if (present(hook) && is_ours(hook)) {
    const std::string wanted = render_shim(name, present(backup));
    if (read_regular(hook) == wanted) {
      change.outcome = HookOutcome::already_installed;
      change.message = fmt::format("{}: already installed", name);
      return change;
    }
    write_executable(hook, wanted);
    change.outcome = HookOutcome::updated;
    change.message = fmt::format("{}: updated", name);
    return change;
  }

  if (present(hook)) {
    if (present(backup)) {
      change.outcome = HookOutcome::refused;
      change.message = fmt::format(
          "{0}: not installed: a foreign {0} hook is in place and {1} already exists; move one "
          "of them away and run `git vault hooks install` again",
          name, backup.filename().string());
      return change;
    }
    rename_or_throw(hook, backup);
    try {
      write_executable(hook, render_shim(name, true));
    } catch (const Error&) {
      // Put the user's hook back rather than leave the directory without it.
      std::error_code ignored;
      fs::rename(backup, hook, ignored);
      throw;
    }
    change.outcome = HookOutcome::chained;
    change.message = fmt::format("{}: installed; the existing hook was kept as {} and runs first",
                                 name, backup.filename().string());
    return change;
  }

  // A stray backup without a hook: the user removed our shim by hand. Chain it again rather
  // than leave it orphaned, since uninstall would restore it anyway.
  const bool chained = present(backup);
  write_executable(hook, render_shim(name, chained));
  change.outcome = chained ? HookOutcome::chained : HookOutcome::installed;
  change.message =
      chained ? fmt::format("{}: installed; {} runs first", name, backup.filename().string())
              : fmt::format("{}: installed", name);
  return change;
}

HookChange uninstall_shim(const fs::path& dir, std::string_view name) {
  HookChange change{std::string(name), HookOutcome::absent, {}};
  const fs::path hook = dir / name;
  const fs::path backup = backup_path(dir, name);
  if (!present(hook)) {
    change.message = fmt::format("{}: not installed", name);
    return change;
  }
  if (!is_ours(hook)) {
    change.outcome = HookOutcome::left_foreign;
    change.message = fmt::format("{}: not ours, left alone", name);
    return change;
  }
  std::error_code ec;
  fs::remove(hook, ec);
  if (ec) {
    throw Error("{}: cannot remove hook: {}", hook.string(), ec.message());
  }
  if (present(backup)) {
    rename_or_throw(backup, hook);
    change.outcome = HookOutcome::restored;
    change.message = fmt::format("{}: removed; the previous hook is back in place", name);
    return change;
  }
  change.outcome = HookOutcome::removed;
  change.message = fmt::format("{}: removed", name);
  return change;
}

}  // namespace gv::hooks
