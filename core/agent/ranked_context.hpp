#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "core/search/search.hpp"

namespace gv {
class Snapshot;
}

// `git vault context "<task>"` and MCP build_context: the memories the search engine ranks
// first for a task, within the original block's budgets, and the working-memory entries that
// match it in a section of their own (doc/agent.md, "git vault context"; doc/decisions.md, D19).
namespace gv::agent {

struct ContextLimits {
  std::size_t max_memories = 5;       // the original's budgets
  std::int64_t memory_tokens = 2000;  // D3 token counts of the memories taken
  std::size_t max_entries = 5;        // working-memory entries, a budget of their own
  std::int64_t entry_tokens = 300;    // D3's 1.3 tokens per word of the entries' text
  std::string task_type;              // `--type`: a topic (or its parent) or a category
};

struct ContextMemory {
  std::string id;
  std::string path;
  std::string title;
  double relevance = 0.0;  // the search score, after the `--type` boost
  std::int64_t tokens = 0;
  std::string text;  // the file without its `## History` section, final newlines dropped
};

struct ContextEntry {
  std::string id;  // `tr…`, or empty for an entry without one
  std::string path;
  int line = 0;
  std::string tier;  // `working`, `register` or `archive`
  std::string file;  // as recall shows it: `registers/decisions.md`
  std::string text;
  double relevance = 0.0;
  std::int64_t tokens = 0;
};

struct RankedContext {
  std::vector<std::string> terms;  // the task's query terms, as the search engine reads them
  std::vector<ContextMemory> memories;
  std::vector<ContextEntry> entries;
  std::int64_t tokens = 0;  // memories' and entries' together
  [[nodiscard]] bool empty() const { return memories.empty() && entries.empty(); }
};

// Ranks memories and entries for `task` with `index` (refreshed by the caller), keeps those
// above the relevance floor (search::SearchIndex, doc/search.md, "Relevance floor"), and takes
// them in rank order while within `limits` (a memory too large for what is left is skipped, not
// the end). Tombstoned memories are never taken. Memory files are read from `snapshot`.
// `email/preferences/` topics are left out unless the task type is `email`, as the original
// does. Throws gv::Error only on I/O failure.
[[nodiscard]] RankedContext select_ranked_context(
    const search::SearchIndex& index, const Snapshot& snapshot, std::string_view task,
    const ContextLimits& limits,
    const std::unordered_map<std::string, std::int64_t>& extra_retrievals = {});

// The `<memory-context>` block: the original's header and `### {title} (relevance: {score})`
// sections, then `### Working memory` with one line per entry (`- text (file:line, tier)`).
// Empty when nothing was selected.
[[nodiscard]] std::string render_ranked_context(const RankedContext& context);

}  // namespace gv::agent
