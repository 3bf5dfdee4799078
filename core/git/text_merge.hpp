#pragma once

#include <string>
#include <string_view>

namespace gv::git {

// The result of a three-way merge of one file's text, as git's own merge makes it.
struct TextMerge {
  std::string content;  // the merged text, with conflict markers where the sides disagree
  bool conflicted = false;
};

// Merges `ours` and `theirs` from their common `ancestor` line by line, as git does for a file
// without a merge driver; the markers name `path` for each side. Throws gv::Error when libgit2
// fails.
[[nodiscard]] TextMerge merge_text(std::string_view ancestor, std::string_view ours,
                                   std::string_view theirs, const std::string& path);

}  // namespace gv::git
