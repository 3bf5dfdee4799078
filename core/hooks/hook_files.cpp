#include "core/hooks/hook_files.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <optional>
#include <system_error>
#include <vector>

#include "core/error.hpp"
#include "core/hooks/shim.hpp"
#include "core/util/file.hpp"

namespace gv::hooks {
namespace fs = std::filesystem;

namespace {

constexpr std::string_view k_legacy_suffix = ".legacy";  // the pre-commit framework's name
constexpr std::string_view k_displaced_suffix = ".old";  // lefthook's

std::string legacy_name(std::string_view name) {
  return std::string(name) + std::string(k_legacy_suffix);
}

std::string backup_name(std::string_view file) {
  return std::string(file) + std::string(k_backup_suffix);
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

bool is_framework(const fs::path& path) {
  const std::optional<std::string> content = read_regular(path);
  return content && is_pre_commit_framework_script(*content);
}

// A hook somebody else wrote that runs git-vault's: the line `git-vault hook <name>` in it.
bool runs_git_vault(std::string_view content, std::string_view name) {
  return content.find(fmt::format("git-vault hook {}", name)) != std::string_view::npos;
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

void remove_or_throw(const fs::path& path) {
  std::error_code ec;
  fs::remove(path, ec);
  if (ec) {
    throw Error("{}: cannot remove: {}", path.string(), ec.message());
  }
}

// Installs the shim of hook `name` as the file `file` of `dir` (the hook itself, or the
// framework's `<name>.legacy`), chaining a foreign file found there.
HookChange install_into(const fs::path& dir, std::string_view name, const std::string& file) {
  HookChange change{std::string(name), HookOutcome::installed, {}};
  const fs::path hook = dir / file;
  const fs::path backup = dir / backup_name(file);
  if (present(hook) && is_ours(hook)) {
    const std::string wanted = render_shim(name, present(backup), file);
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
          "{0}: not installed: a foreign hook is in place as {1} and {2} already exists; move "
          "one of them away and run `git vault hooks install` again",
          name, file, backup.filename().string());
      return change;
    }
    rename_or_throw(hook, backup);
    try {
      write_executable(hook, render_shim(name, true, file));
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
  write_executable(hook, render_shim(name, chained, file));
  change.outcome = chained ? HookOutcome::chained : HookOutcome::installed;
  change.message =
      chained ? fmt::format("{}: installed; {} runs first", name, backup.filename().string())
              : fmt::format("{}: installed", name);
  return change;
}

// Earlier versions chained whatever hook they found, the framework's included. Two layouts
// follow from that, and both make the framework fail every commit once `pre-commit install`
// has run again; they are rearranged into the one install_shim makes. Returns true when a file
// was moved or removed.
bool settle_framework_layout(const fs::path& dir, std::string_view name) {
  const fs::path hook = dir / name;
  const fs::path backup = dir / backup_name(name);
  if (!present(backup)) {
    return false;
  }
  // Our shim chains the framework's script: put the script back; the shim goes behind it.
  if (is_ours(hook) && is_framework(backup)) {
    rename_or_throw(backup, hook);
    return true;
  }
  // `pre-commit install` moved our shim to `<name>.legacy`, and our backup is left over.
  if (is_framework(hook)) {
    if (is_framework(backup)) {
      remove_or_throw(backup);  // a copy of the framework's own script, which is in place
      return true;
    }
    const fs::path legacy_backup = dir / backup_name(legacy_name(name));
    if (!present(legacy_backup)) {
      rename_or_throw(backup, legacy_backup);  // still chained, by the shim in `.legacy`
      return true;
    }
  }
  return false;
}

// Removes our shim from `file` and puts back what it chained. nullopt when `file` is not ours.
std::optional<HookOutcome> remove_from(const fs::path& dir, const std::string& file) {
  const fs::path hook = dir / file;
  if (!present(hook) || !is_ours(hook)) {
    return std::nullopt;
  }
  remove_or_throw(hook);
  const fs::path backup = dir / backup_name(file);
  if (present(backup)) {
    rename_or_throw(backup, hook);
    return HookOutcome::restored;
  }
  return HookOutcome::removed;
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
    case HookState::behind_framework:
      return "installed (run by the pre-commit framework)";
    case HookState::line:
      return "installed (a line in the hook runs git-vault)";
    case HookState::foreign:
      return "NOT RUNNING: the hook in place is not git-vault's and does not run it";
    case HookState::displaced:
      return "NOT RUNNING: another hook manager put its hook in place and moved git-vault's "
             "aside";
  }
  return "unknown";
}

bool is_running(HookState state) {
  return state != HookState::not_installed && state != HookState::foreign &&
         state != HookState::displaced;
}

HookState hook_state(const fs::path& dir, std::string_view name,
                     std::string_view framework_config) {
  const fs::path hook = dir / name;
  if (!present(hook)) {
    return HookState::not_installed;
  }
  const std::optional<std::string> content = read_regular(hook);  // nullopt for a symlink
  const bool framework = content && is_pre_commit_framework_script(*content);
  if (framework && is_ours(dir / legacy_name(name))) {
    return HookState::behind_framework;
  }
  if (content && is_our_shim(*content)) {
    return present(dir / backup_name(name)) ? HookState::chained : HookState::installed;
  }
  if (is_ours(dir / displaced_name(name))) {
    return HookState::displaced;
  }
  if (content && runs_git_vault(*content, name)) {
    return HookState::line;
  }
  // `pre-commit install -f` replaces the hook outright: the framework then runs git-vault only
  // when its configuration names the hook id this repository's .pre-commit-hooks.yaml gives.
  if (framework && framework_config.find("id: git-vault") != std::string_view::npos) {
    return HookState::behind_framework;
  }
  return HookState::foreign;
}

std::string displaced_name(std::string_view name) {
  return std::string(name) + std::string(k_displaced_suffix);
}

fs::path editable_hooks_dir(const fs::path& dir) {
  // husky 9 keeps its runner `h` beside the generated scripts.
  const fs::path folder = dir.filename().empty() ? dir.parent_path() : dir;
  if (folder.filename() == "_" && present(folder / "h")) {
    return folder.parent_path();
  }
  return dir;
}

HookState tracked_hook_state(const fs::path& dir, std::string_view name) {
  const fs::path hook = dir / name;
  if (!present(hook)) {
    return HookState::not_installed;
  }
  const std::optional<std::string> content = read_regular(hook);
  return content && runs_git_vault(*content, name) ? HookState::line : HookState::foreign;
}

HookChange install_shim(const fs::path& dir, std::string_view name) {
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec) {
    throw Error("{}: cannot create hooks directory: {}", dir.string(), ec.message());
  }
  const bool settled = settle_framework_layout(dir, name);
  if (!is_framework(dir / name)) {
    HookChange change = install_into(dir, name, std::string(name));
    // Ours at `<name>.old` is a stale copy of the shim just written, and older lefthook versions
    // refuse to move a hook aside while that name is taken, so it goes.
    const fs::path displaced = dir / displaced_name(name);
    if (change.outcome != HookOutcome::refused && is_ours(displaced)) {
      remove_or_throw(displaced);
      change.message +=
          fmt::format(" (the copy another hook manager had moved aside as {} is removed)",
                      displaced.filename().string());
    }
    return change;
  }
  const std::string legacy = legacy_name(name);
  HookChange change = install_into(dir, name, legacy);
  if (change.outcome == HookOutcome::refused) {
    return change;
  }
  if (change.outcome == HookOutcome::already_installed && !settled) {
    return change;
  }
  change.outcome = settled ? HookOutcome::updated : HookOutcome::behind_framework;
  const fs::path legacy_backup = dir / backup_name(legacy);
  change.message = fmt::format(
      "{}: the pre-commit framework's hook stays in place; git-vault's runs first as {}{}", name,
      legacy,
      present(legacy_backup) ? fmt::format(", after the earlier {} (kept as {})", legacy,
                                           legacy_backup.filename().string())
                             : std::string{});
  return change;
}

HookChange uninstall_shim(const fs::path& dir, std::string_view name) {
  HookChange change{std::string(name), HookOutcome::absent, {}};
  const std::string legacy = legacy_name(name);
  std::vector<std::string> removed;
  std::vector<std::string> restored;
  // `<name>.old` only ever holds our shim because another manager moved it there; that manager
  // restores it on its own uninstall, which would bring back a hook nobody installed.
  for (const std::string& file : {std::string(name), legacy, displaced_name(name)}) {
    if (const std::optional<HookOutcome> outcome = remove_from(dir, file)) {
      removed.push_back(file);
      if (*outcome == HookOutcome::restored) {
        restored.push_back(file);
      }
    }
  }
  // A backup an earlier version left beside the framework's hook (settle_framework_layout).
  const fs::path hook = dir / name;
  const fs::path backup = dir / backup_name(name);
  std::string note;
  if (present(backup) && !removed.empty() && removed.back() == displaced_name(name)) {
    // Our shim had chained the manager's hook as the backup when the manager moved the shim aside
    // and put its hook back in place: the backup is then a copy of what stands at `name`.
    const std::optional<std::string> kept = read_regular(backup);
    if (kept && kept == read_regular(hook)) {
      remove_or_throw(backup);
      removed.push_back(backup.filename().string());
    } else {
      note = fmt::format("; {} is kept: it is not the hook in place, delete it if it is not needed",
                         backup.filename().string());
    }
  }
  if (present(backup) && is_framework(hook)) {
    if (is_framework(backup)) {
      remove_or_throw(backup);
      removed.push_back(backup.filename().string());
    } else if (!present(dir / legacy)) {
      rename_or_throw(backup, dir / legacy);  // the framework runs it from there
      restored.push_back(legacy);
    }
  }
  if (!removed.empty() || !restored.empty()) {
    change.outcome = restored.empty() ? HookOutcome::removed : HookOutcome::restored;
    change.message = fmt::format("{}: removed {}", name, fmt::join(removed, ", "));
    if (!restored.empty()) {
      change.message +=
          fmt::format("; the previous hook is back in place as {}", fmt::join(restored, ", "));
    }
    change.message += note;
    return change;
  }
  if (!present(hook)) {
    change.message = fmt::format("{}: not installed", name);
    return change;
  }
  change.outcome = HookOutcome::left_foreign;
  change.message = fmt::format("{}: not ours, left alone", name);
  return change;
}

}  // namespace gv::hooks
