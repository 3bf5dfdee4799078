#pragma once

#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

namespace gv::git {
class Repo;
}

namespace gv::hooks {

// The rendered diff of memory files, one frontmatter field and one list item per line: opt-in,
// for one clone (doc/decisions.md, D23). Plain `git diff`, `git apply`, `git add -p`, `git stash`
// and `git format-patch` see the files byte for byte unless a person asks for it, with
// `git vault init --diff-driver` (for every `git diff` and `git log -p` of this clone) or
// `git vault diff` (once).
inline constexpr std::string_view k_diff_driver_name = "vault-memory";
inline constexpr std::string_view k_diff_textconv = "git vault diff-text";
// The attribute that routes memory files to the driver. With the opt-in it lives in the clone's
// own `info/attributes`, never in the versioned `.gitattributes`.
inline constexpr std::string_view k_diff_attribute_line =
    ".memory/10-Memories/*.md diff=vault-memory";
// Set with the textconv by the opt-in: a textconv without it is one an earlier git-vault's init
// set for every clone unasked.
inline constexpr std::string_view k_diff_opt_in_key = "vault.diffDriver";

enum class DiffDriverState {
  plain,     // no textconv: git shows memory files as they are
  rendered,  // opted in: textconv, marker and attribute in place
  legacy,    // a textconv an earlier git-vault set unasked (no marker)
};

[[nodiscard]] DiffDriverState diff_driver_state(const git::Repo& repo);

// `<common git dir>/info/attributes`, the attributes of this clone alone.
[[nodiscard]] std::filesystem::path info_attributes_path(const git::Repo& repo);

// The opt-in: `diff.vault-memory.textconv` and `vault.diffDriver` in the repository's own
// config, and the attribute line in info/attributes. Returns true when it changed anything.
bool configure_diff_driver(git::Repo& repo);

// Removes all three; returns true when any was there.
bool remove_diff_driver(git::Repo& repo);

// Removes a textconv an earlier git-vault set unasked, leaving an opted-in one; returns true
// when it removed one.
bool remove_legacy_diff_driver(git::Repo& repo);

// `git vault diff [<git diff arguments>]`: runs `git diff` with the rendered view of memory
// files for this one command, whether or not the clone opted in: the driver defined with `-c`,
// and the attribute from `<common git dir>/git-vault/diff-attributes` as `core.attributesFile`
// (so a global attributes file is not read for it); `no_pager` adds git's --no-pager. Replaces
// this process with git's; returns only by throwing gv::Error.
[[noreturn]] void run_rendered_diff(const git::Repo& repo, const std::vector<std::string>& args,
                                    bool no_pager);

}  // namespace gv::hooks
