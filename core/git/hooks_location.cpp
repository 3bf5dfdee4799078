#include "core/git/hooks_location.hpp"

#include <git2.h>

#include <cstdlib>

#include "core/git/handle.hpp"
#include "core/git/repo.hpp"

namespace gv::git {
namespace fs = std::filesystem;

namespace {

ConfigPtr repository_config(const Repo& repo) {
  git_config* raw = nullptr;
  check(git_repository_config(&raw, repo.raw()), "open git config");
  return ConfigPtr{raw};
}

ConfigPtr local_level(git_config& config) {
  git_config* raw = nullptr;
  check(git_config_open_level(&raw, &config, GIT_CONFIG_LEVEL_LOCAL),
        "open the repository's git config");
  return ConfigPtr{raw};
}

fs::path home_dir() {
  const char* home = std::getenv("HOME");
  return home != nullptr ? fs::path(home) : fs::path{};
}

}  // namespace

fs::path resolve_hooks_path(std::string_view value, const fs::path& base, const fs::path& home) {
  std::string text(value);
  if (text == "~") {
    return home;
  }
  if (text.starts_with("~/")) {
    return home / text.substr(2);
  }
  const fs::path path(text);
  if (path.is_absolute()) {
    return path.lexically_normal();
  }
  return (base / path).lexically_normal();
}

HooksLocation hooks_location(const Repo& repo) {
  HooksLocation location;
  const ConfigPtr config = repository_config(repo);
  git_config_entry* raw_entry = nullptr;
  const int rc = git_config_get_entry(&raw_entry, config.get(), "core.hooksPath");
  if (rc == GIT_ENOTFOUND) {
    location.dir = repo.common_dir() / "hooks";
    return location;
  }
  check(rc, "read git config core.hooksPath");
  // The entry is ours to free; take it over before anything below can throw.
  const std::unique_ptr<git_config_entry, Free<&git_config_entry_free>> entry{raw_entry};
  location.configured = entry->value != nullptr ? entry->value : "";
  location.source = entry->level >= GIT_CONFIG_LEVEL_LOCAL ? HooksPathSource::repository
                                                           : HooksPathSource::outside;
  const fs::path base = repo.is_bare() ? repo.git_dir() : repo.workdir();
  location.dir = resolve_hooks_path(*location.configured, base, home_dir());
  return location;
}

std::optional<std::string> local_config_string(const Repo& repo, std::string_view key) {
  const ConfigPtr config = repository_config(repo);
  const ConfigPtr local = local_level(*config);
  const std::string name(key);
  BufScope value;
  const int rc = git_config_get_string_buf(&value.buf, local.get(), name.c_str());
  if (rc == GIT_ENOTFOUND) {
    return std::nullopt;
  }
  check(rc, "read git config " + name);
  return value.str();
}

void unset_local_config(Repo& repo, std::string_view key) {
  const ConfigPtr config = repository_config(repo);
  const ConfigPtr local = local_level(*config);
  const std::string name(key);
  const int rc = git_config_delete_entry(local.get(), name.c_str());
  if (rc == GIT_ENOTFOUND) {
    return;
  }
  check(rc, "remove git config " + name);
}

}  // namespace gv::git
