#pragma once

#include <string>

namespace gv::hooks {

// The files git hands a merge driver (`%O %A %B %P`); the result replaces `ours`.
struct MergeDriverFiles {
  std::string ancestor;
  std::string ours;
  std::string theirs;
  std::string path;  // the path being merged; only the paths `init` routes to a kind are merged
};

// Runs the merge driver of `kind` (`generated`, `log`, `recall-metadata`) over the files and
// returns git's answer: 0 merged (ours holds the result), 1 a conflict git should show. A side
// that is not valid JSON, or a path `init` does not route to this kind, is merged line by line
// as git would (conflict markers in ours, and 1, where the sides disagree), with a note on
// stderr. Throws gv::UsageError for an unknown
// kind and gv::Error when a file cannot be read or written.
[[nodiscard]] int run_merge_driver(const std::string& kind, const MergeDriverFiles& files);

}  // namespace gv::hooks
