#pragma once

#include <string>
#include <vector>

#include "core/dates.hpp"
#include "core/memory/memory.hpp"

namespace gv {

struct ScaffoldFile {
  std::string path;  // repo-relative
  std::string bytes;
};

// The files of a vault: the folder READMEs, the memory template, the three generated index
// files and an empty distill log. The index files are the regeneration over `memories` (the
// memories a repository already holds, often none), so the gate passes at once: a vault made
// by older tools without an index gets its real index, not an empty one.
[[nodiscard]] std::vector<ScaffoldFile> vault_scaffold(const std::vector<Memory>& memories = {},
                                                       Date today = {});

// The files of an empty tiered working memory: CLAUDE.local.md, the register templates and
// an empty metadata.json. Every list line is a placeholder, so a new working memory passes
// the id gate.
[[nodiscard]] std::vector<ScaffoldFile> recall_scaffold();

}  // namespace gv
