#pragma once

#include <array>
#include <string>
#include <string_view>

namespace gv::hooks {

// The hooks git-vault installs, in the order they are reported.
inline constexpr std::array<std::string_view, 2> k_hook_names{"pre-commit", "post-merge"};

// The line that tells our own shims apart from anybody else's hook, so install can upgrade them
// and uninstall never deletes a hook it did not write.
inline constexpr std::string_view k_shim_marker = "# git-vault hook shim v1";

// A hook that was in place before install is moved to `<hook><suffix>` and run first.
inline constexpr std::string_view k_backup_suffix = ".pre-git-vault";

// True for the hooks git-vault has a handler for.
[[nodiscard]] bool is_known_hook(std::string_view name);

// The shim for hook `name`: `#!/bin/sh`, LF line endings only, the marker line, then (when
// `chained`) a run of `<file>.pre-git-vault` from the same directory, then
// `exec git-vault hook <name> "$@"`. `file` is the shim's own file name: `name`, or
// `<name>.legacy` behind the pre-commit framework's hook (hook_files.hpp). When git-vault is not
// on PATH the pre-commit shim fails closed (exit 1) and says how to install git-vault or remove
// the hook; other shims warn and exit 0, because git ignores their status anyway and a merge
// must not look failed.
[[nodiscard]] std::string render_shim(std::string_view name, bool chained,
                                      std::string_view file = {});

// The line to add to a hook kept in a folder the repository tracks (husky's `.husky/`), where
// git-vault never writes (doc/decisions.md D17). It runs git-vault when it is installed and
// does nothing otherwise, so a teammate without git-vault is never blocked; a rejection by the
// pre-commit gate fails the hook.
[[nodiscard]] std::string tracked_hook_line(std::string_view name);

// True when `content` is the script `pre-commit install` (the pre-commit framework) writes. The
// framework runs `<hook>.legacy` before its own hooks and moves any other hook it finds there.
[[nodiscard]] bool is_pre_commit_framework_script(std::string_view content);

// True when `content` is a shim written by some version of git-vault (it carries the marker).
[[nodiscard]] bool is_our_shim(std::string_view content);

}  // namespace gv::hooks
