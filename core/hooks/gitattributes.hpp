#pragma once

#include <array>
#include <string>
#include <string_view>

namespace gv::hooks {

// The `.gitattributes` lines that route the vault's generated and merge-prone files to
// git-vault's merge drivers. The attributes are versioned; the drivers they name live in each
// clone's .git/config (see merge_drivers.hpp). Nothing here changes what `git diff` shows: the
// rendered memory diff is a clone's own opt-in (diff_driver.hpp, D23).
inline constexpr std::array<std::string_view, 6> k_gitattributes_lines{
    ".memory/memory-index.json merge=vault-generated",
    ".memory/20-Indices/index.md merge=vault-generated",
    ".memory/10-Memories/README.md merge=vault-generated",
    ".memory/distill-log.json merge=vault-log",
    "memory/.recall/metadata.json merge=vault-recall-metadata",
    "specs/state.json merge=vault-state",
};

// `existing` (the current `.gitattributes`, possibly empty) with every line of
// k_gitattributes_lines that it lacks appended, in that order. A line counts as present when
// it matches after trimming and collapsing runs of blanks. Nothing else changes: the result
// equals `existing` when all lines are there, so calling it twice adds nothing. A file that
// uses CRLF gets CRLF lines; a missing final newline is added before appending.
[[nodiscard]] std::string ensure_gitattributes(std::string_view existing);

// `existing` with `line` appended when no line matches it, by the same rules.
[[nodiscard]] std::string with_attribute_line(std::string_view existing, std::string_view line);

// `existing` without the lines that match `line`, by the same rules; everything else as it was.
[[nodiscard]] std::string without_attribute_line(std::string_view existing, std::string_view line);

}  // namespace gv::hooks
