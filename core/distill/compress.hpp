#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/dates.hpp"

// The compress sub-mode's file rewrite (doc/merge-and-compress.md, "compress"; doc/decisions.md,
// D9, D10) as pure functions; core/distill/compress.cpp also defines the SubMode.
namespace gv::distill {

// A memory file's main content (D9: between the `# title` line and the first `## History` /
// `## Connections`), which is what a summariser gets. Throws gv::Error `path:1:` when the file
// has no frontmatter block.
[[nodiscard]] std::string main_content_of(std::string_view path, std::string_view bytes);

// Checks a summariser's output before it becomes a memory's main content: not blank, valid
// UTF-8, no `## History` or `## Connections` heading of its own (they would split the file's
// sections differently). Returns the text without leading blank lines and trailing whitespace,
// ending in one newline. Throws gv::Error naming `source` (the command, or `built-in`).
[[nodiscard]] std::string checked_summary(std::string_view source, std::string_view output);

struct CompressedFile {
  std::string bytes;
  std::int64_t tokens_before = 0;  // D3 counts: the body without its `## History`
  std::int64_t tokens_after = 0;
  // Whether the summary kept every keyword the old main content mentioned. When it did not,
  // the missing ones (keys) are listed and a `**Keywords**: ...` line carrying them ends the
  // new main content, so the body still mentions every keyword it did before.
  bool keywords_preserved = true;
  std::vector<std::string> keywords_added;
};

// Rewrites the memory at `path` with `summary` (from checked_summary) as its main content and
// the old main content as the first `### Pre-Compression ({today})` entry of a single
// `## History` section (created before `## Connections`, or at the end, when absent); headings
// in that entry move two levels down (`## Merged From` becomes `#### Merged From`) so none of
// them ends the History section. Only
// `modified` changes in the frontmatter (finish_action refreshes `token_count`, D3); the title
// line, the other History entries and Connections keep their bytes. Throws gv::Error `path:1:`
// when the file has no frontmatter block.
[[nodiscard]] CompressedFile compress_file(std::string_view path, std::string_view bytes,
                                           std::string_view summary,
                                           const std::vector<std::string>& keywords, Date today);

}  // namespace gv::distill
