#pragma once

#include <string>
#include <vector>

namespace gv {

struct ScaffoldFile {
  std::string path;  // repo-relative
  std::string bytes;
};

// The files of an empty vault: the folder READMEs, the memory template, the three generated
// index files (as a regeneration of an empty vault writes them, so the gate passes at once)
// and an empty distill log.
[[nodiscard]] std::vector<ScaffoldFile> vault_scaffold();

// The files of an empty tiered working memory: CLAUDE.local.md, the register templates and
// an empty metadata.json. Every list line is a placeholder, so a new working memory passes
// the id gate.
[[nodiscard]] std::vector<ScaffoldFile> recall_scaffold();

}  // namespace gv
