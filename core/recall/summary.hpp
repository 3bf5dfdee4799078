#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "core/recall/entry.hpp"

namespace gv::recall {

// A working memory in numbers, for the reports that show it beside the vault (`distill`,
// `status`): what `recall maintain` and the id gate would each look at.
struct WorkingSummary {
  std::size_t files = 0;
  std::size_t entries = 0;
  std::size_t working_entries = 0;   // CLAUDE.local.md
  std::size_t register_entries = 0;  // memory/registers/
  std::size_t archive_entries = 0;   // memory/archive/
  std::size_t untagged = 0;
  std::size_t malformed = 0;
  int working_words = 0;  // the tagged entries of the working tier, as maintain counts them
};

[[nodiscard]] WorkingSummary summarize(const std::vector<ParsedFile>& files);

// The health report's section about it (`### Working Memory`, after a `---` line): entries by
// tier, the working tier's words against `budget`, entries without an id, and the commands
// that deal with each. Empty when there are no managed files.
[[nodiscard]] std::string render_markdown(const WorkingSummary& summary, int budget);

}  // namespace gv::recall
