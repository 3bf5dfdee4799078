#include "core/hooks/installer.hpp"

#include <fmt/format.h>

#include <optional>
#include <system_error>

#include "core/error.hpp"
#include "core/git/repo.hpp"
#include "core/hooks/diff_driver.hpp"
#include "core/hooks/gitattributes.hpp"
#include "core/hooks/merge_drivers.hpp"
#include "core/hooks/shim.hpp"
#include "core/util/file.hpp"

namespace gv::hooks {
namespace fs = std::filesystem;

namespace {

std::optional<std::string> read_file(const fs::path& path) {
  return util::read_file_if_exists(path);
}

void write_file(const fs::path& path, std::string_view bytes) {
  util::write_file_atomic(path, bytes);
}

std::string config_key(const MergeDriver& driver, std::string_view field) {
  return fmt::format("merge.{}.{}", driver.name, field);
}

std::string global_refusal(const git::HooksLocation& location, std::string_view verb) {
  return fmt::format(
      "core.hooksPath is set to `{}` in your global or system git config, so that directory "
      "holds the hooks of every repository you use, not just this one; refusing to {} hooks "
      "there. Set a hooks path for this repository only (`git config core.hooksPath "
      ".git/hooks`), or pass --allow-global-hooks-path if you want git-vault to run in every "
      "repository",
      location.configured.value_or(""), verb);
}

bool drivers_configured(const git::Repo& repo) {
  for (const MergeDriver& driver : k_merge_drivers) {
    if (git::local_config_string(repo, config_key(driver, "driver")) != driver_command(driver)) {
      return false;
    }
  }
  return true;
}

}  // namespace

bool InstallReport::ok() const {
  if (!refusal.empty()) {
    return false;
  }
  for (const HookChange& change : hooks) {
    if (change.outcome == HookOutcome::refused) {
      return false;
    }
  }
  return true;
}

bool is_shared_hooks_dir(const git::Repo& repo, const git::HooksLocation& location) {
  if (repo.is_bare()) {
    return false;
  }
  // `path` relative to `folder` when it is inside it.
  const auto inside = [](const fs::path& path, const fs::path& folder) -> std::optional<fs::path> {
    std::error_code ec;
    const fs::path relative =
        fs::weakly_canonical(path, ec).lexically_relative(fs::weakly_canonical(folder, ec));
    if (relative.empty() || *relative.begin() == "..") {
      return std::nullopt;
    }
    return relative;
  };
  const std::optional<fs::path> relative = inside(location.dir, repo.workdir());
  if (!relative || inside(location.dir, repo.git_dir()) ||
      inside(location.dir, repo.common_dir())) {
    return false;
  }
  // A folder git ignores and tracks nothing in (a home directory that holds a dotfiles work
  // tree, say) is not shared through the repository.
  const std::string folder =
      relative->generic_string() == "." ? "" : relative->generic_string() + "/";
  return folder.empty() || !repo.index_entries(folder).empty() || !repo.is_ignored(folder);
}

namespace {

// The hooks part of install_hooks for a folder the repository tracks: nothing is written.
std::vector<HookChange> describe_tracked_hooks(const git::Repo& repo,
                                               const git::HooksLocation& location) {
  std::vector<HookChange> changes;
  const auto relative = [&](const fs::path& dir) {
    return fs::weakly_canonical(dir)
        .lexically_relative(fs::weakly_canonical(repo.workdir()))
        .string();
  };
  const fs::path edited = editable_hooks_dir(location.dir);
  const std::string hooks_path = relative(location.dir);
  const std::string folder = relative(edited);
  for (const std::string_view name : k_hook_names) {
    HookChange change{std::string(name), HookOutcome::manual, {}};
    if (tracked_hook_state(edited, name) == HookState::line) {
      change.outcome = HookOutcome::already_installed;
      change.message = fmt::format("{}: {}/{} already runs git-vault", name, folder, name);
    } else {
      change.message = fmt::format(
          "{0}: core.hooksPath is {1}, a folder of this repository, so git-vault writes "
          "nothing there; add this line to {2}/{0}: {3}",
          name, hooks_path, folder, tracked_hook_line(name));
    }
    changes.push_back(std::move(change));
  }
  return changes;
}

void install_drivers(git::Repo& repo, const InstallOptions& options, InstallReport& report) {
  if (!drivers_configured(repo)) {
    for (const MergeDriver& driver : k_merge_drivers) {
      repo.set_config_string(config_key(driver, "name"), driver.description);
      repo.set_config_string(config_key(driver, "driver"), driver_command(driver));
    }
    report.notes.emplace_back(
        "merge drivers vault-generated, vault-log, vault-recall-metadata and vault-state "
        "defined in .git/config");
  }
  if (options.diff_driver) {
    if (configure_diff_driver(repo)) {
      report.notes.emplace_back(
          "diff driver vault-memory set up for this clone (.git/config, .git/info/attributes): "
          "git diff and git log -p show memory files one field per line; `git vault hooks "
          "uninstall` removes it");
    }
  } else if (remove_legacy_diff_driver(repo)) {
    // An earlier init set it for every clone unasked; git diff output could not be applied.
    const std::string versioned =
        repo.is_bare() ? std::string() : read_file(repo.workdir() / ".gitattributes").value_or("");
    const bool attribute = without_attribute_line(versioned, k_diff_attribute_line) != versioned;
    report.notes.emplace_back(fmt::format(
        "diff driver vault-memory removed from .git/config: git diff shows memory files as they "
        "are again, so a patch applies; `git vault diff` shows the rendered view, and `git vault "
        "init --diff-driver` keeps it for every diff{}",
        attribute ? " (the diff=vault-memory line in .gitattributes does nothing without it; "
                    "delete it when you like)"
                  : ""));
  }

  if (options.gitattributes && !repo.is_bare()) {
    const fs::path path = repo.workdir() / ".gitattributes";
    const std::optional<std::string> existing = read_file(path);
    const std::string wanted = ensure_gitattributes(existing.value_or(""));
    if (wanted != existing.value_or("")) {
      write_file(path, wanted);
      report.gitattributes_written = true;
      report.notes.emplace_back(fmt::format(
          ".gitattributes: {}; commit it so every clone merges the vault's files the same way",
          existing ? "merge-driver lines added" : "created with the merge-driver lines"));
    }
  }
}

}  // namespace

InstallReport install_hooks(git::Repo& repo, const InstallOptions& options) {
  InstallReport report;
  report.location = git::hooks_location(repo);
  if (options.hooks) {
    if (report.location.source == git::HooksPathSource::outside &&
        !options.allow_global_hooks_path) {
      report.refusal = global_refusal(report.location, "install");
      return report;
    }
    if (is_shared_hooks_dir(repo, report.location)) {
      report.hooks = describe_tracked_hooks(repo, report.location);
    } else {
      for (const std::string_view name : k_hook_names) {
        report.hooks.push_back(install_shim(report.location.dir, name));
      }
    }
  }
  install_drivers(repo, options, report);
  return report;
}

InstallReport uninstall_hooks(git::Repo& repo, const InstallOptions& options) {
  InstallReport report;
  report.location = git::hooks_location(repo);
  if (report.location.source == git::HooksPathSource::outside && !options.allow_global_hooks_path) {
    report.refusal = global_refusal(report.location, "remove");
    return report;
  }
  // git-vault never writes into a folder of the work tree; a line the user added stays theirs.
  const bool shared = is_shared_hooks_dir(repo, report.location);
  for (const std::string_view name : k_hook_names) {
    if (!shared) {
      report.hooks.push_back(uninstall_shim(report.location.dir, name));
    } else if (tracked_hook_state(editable_hooks_dir(report.location.dir), name) ==
               HookState::line) {
      report.hooks.push_back(
          {std::string(name), HookOutcome::left_foreign,
           fmt::format("{}: {} runs git-vault through a line you added; remove it by hand", name,
                       (editable_hooks_dir(report.location.dir) / name).string())});
    }
  }
  bool removed_any = false;
  for (const MergeDriver& driver : k_merge_drivers) {
    for (const std::string_view field : {"name", "driver"}) {
      const std::string key = config_key(driver, field);
      if (git::local_config_string(repo, key)) {
        git::unset_local_config(repo, key);
        removed_any = true;
      }
    }
  }
  if (remove_diff_driver(repo)) {
    report.notes.emplace_back(
        "diff driver vault-memory removed from .git/config and .git/info/attributes");
  }
  if (removed_any) {
    report.notes.emplace_back("merge drivers removed from .git/config (.gitattributes left as is)");
  }
  return report;
}

HooksStatus hooks_status(const git::Repo& repo) {
  HooksStatus status;
  status.location = git::hooks_location(repo);
  const bool shared = is_shared_hooks_dir(repo, status.location);
  // Read, never run: whether the framework's configuration lists git-vault's hook.
  const std::string framework_config =
      repo.is_bare() ? std::string()
                     : read_file(repo.workdir() / ".pre-commit-config.yaml").value_or("");
  status.shared = shared;
  status.edited_dir = editable_hooks_dir(status.location.dir);
  for (const std::string_view name : k_hook_names) {
    status.hooks.push_back(
        {std::string(name), shared ? tracked_hook_state(status.edited_dir, name)
                                   : hook_state(status.location.dir, name, framework_config)});
  }
  status.merge_drivers_configured = drivers_configured(repo);
  status.diff_driver = diff_driver_state(repo);
  if (!repo.is_bare()) {
    const std::string existing = read_file(repo.workdir() / ".gitattributes").value_or("");
    status.gitattributes_complete = ensure_gitattributes(existing) == existing;
  }
  return status;
}

}  // namespace gv::hooks
