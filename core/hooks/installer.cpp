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

InstallReport install_hooks(git::Repo& repo, const InstallOptions& options) {
  InstallReport report;
  report.location = git::hooks_location(repo);
  if (report.location.source == git::HooksPathSource::outside && !options.allow_global_hooks_path) {
    report.refusal = global_refusal(report.location, "install");
    return report;
  }
  for (const std::string_view name : k_hook_names) {
    report.hooks.push_back(install_shim(report.location.dir, name));
  }

  if (!drivers_configured(repo)) {
    for (const MergeDriver& driver : k_merge_drivers) {
      repo.set_config_string(config_key(driver, "name"), driver.description);
      repo.set_config_string(config_key(driver, "driver"), driver_command(driver));
    }
    report.notes.emplace_back(
        "merge drivers vault-generated, vault-log and vault-recall-metadata "
        "defined in .git/config");
  }
  if (configure_diff_driver(repo)) {
    report.notes.emplace_back("diff driver vault-memory defined in .git/config");
  }

  if (options.gitattributes && !repo.is_bare()) {
    const fs::path path = repo.workdir() / ".gitattributes";
    const std::string existing = read_file(path).value_or("");
    const std::string wanted = ensure_gitattributes(existing);
    if (wanted != existing) {
      write_file(path, wanted);
      report.notes.emplace_back(
          ".gitattributes: merge-driver lines added; commit it so every clone merges the vault's "
          "files the same way");
    }
  }
  return report;
}

InstallReport uninstall_hooks(git::Repo& repo, const InstallOptions& options) {
  InstallReport report;
  report.location = git::hooks_location(repo);
  if (report.location.source == git::HooksPathSource::outside && !options.allow_global_hooks_path) {
    report.refusal = global_refusal(report.location, "remove");
    return report;
  }
  for (const std::string_view name : k_hook_names) {
    report.hooks.push_back(uninstall_shim(report.location.dir, name));
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
    report.notes.emplace_back("diff driver vault-memory removed from .git/config");
  }
  if (removed_any) {
    report.notes.emplace_back("merge drivers removed from .git/config (.gitattributes left as is)");
  }
  return report;
}

HooksStatus hooks_status(const git::Repo& repo) {
  HooksStatus status;
  status.location = git::hooks_location(repo);
  for (const std::string_view name : k_hook_names) {
    status.hooks.push_back({std::string(name), hook_state(status.location.dir, name)});
  }
  status.merge_drivers_configured = drivers_configured(repo);
  if (!repo.is_bare()) {
    const std::string existing = read_file(repo.workdir() / ".gitattributes").value_or("");
    status.gitattributes_complete = ensure_gitattributes(existing) == existing;
  }
  return status;
}

}  // namespace gv::hooks
