#pragma once

#include <string>
#include <string_view>

#include "core/finding.hpp"

namespace gv {

// Findings as GitHub Actions workflow commands, which GitHub shows on the pull request's lines:
//
//   ::error file=.memory/memory-index.json,line=12,title=git-vault [stale-index]::MEM-x is ...
//
// `::error` for an error, `::warning` for a warning, `::notice` for a note. `file` and `line`
// are left out when the finding names no file or line. The message carries the fix on a line of
// its own and then `detail` (what commit introduced it, say), when not empty.
[[nodiscard]] std::string format_github_annotation(const Finding& finding,
                                                   std::string_view detail = {});

// GitHub's escaping of a workflow command's message: `%`, CR and LF as `%25`, `%0D`, `%0A`, so
// a message of several lines stays one command.
[[nodiscard]] std::string github_escape_data(std::string_view text);

// The same for a property's value (`file=`, `title=`), which also escapes `:` and `,` (`%3A`,
// `%2C`), the characters that end a property.
[[nodiscard]] std::string github_escape_property(std::string_view text);

}  // namespace gv
