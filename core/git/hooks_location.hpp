#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

namespace gv::git {

class Repo;

// Where the value of `core.hooksPath` came from. Only a value in the repository's own config may
// be written into without asking: a global or system value names a directory that every
// repository of the user (or machine) runs its hooks from.
enum class HooksPathSource {
  default_dir,  // not set: `<common dir>/hooks`
  repository,   // the repository's own .git/config
  outside,      // global, XDG, system or program-data config
};

struct HooksLocation {
  std::filesystem::path dir;  // absolute
  HooksPathSource source = HooksPathSource::default_dir;
  std::optional<std::string> configured;  // the raw `core.hooksPath` value, when set
};

// The directory git runs this repository's hooks from, as git finds it: `core.hooksPath` when
// set, else `<common dir>/hooks`, so linked worktrees share one hooks directory and a submodule
// (whose `.git` is a `gitdir:` file) uses its own git dir.
[[nodiscard]] HooksLocation hooks_location(const Repo& repo);

// Pure part of hooks_location: a relative `core.hooksPath` resolves against the work tree root
// (the git dir for a bare repository), as git does; a leading `~/` (or a lone `~`) is `home`.
[[nodiscard]] std::filesystem::path resolve_hooks_path(std::string_view value,
                                                       const std::filesystem::path& base,
                                                       const std::filesystem::path& home);

// The value of `key` in the repository's own config file only (not global or system).
[[nodiscard]] std::optional<std::string> local_config_string(const Repo& repo,
                                                             std::string_view key);

// Removes `key` from the repository's own config file; does nothing when it is absent there.
void unset_local_config(Repo& repo, std::string_view key);

}  // namespace gv::git
