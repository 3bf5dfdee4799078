#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "core/finding.hpp"
#include "core/recall/files.hpp"

namespace gv::recall {

enum class EntryState {
  tagged,     // ends with ` ^tr` + 10 lowercase hex
  untagged,   // no id at all: init-ids gives it one
  malformed,  // an id-like token that is wrong; reported, never rewritten
};

// One single-line list item of a managed file. Offsets index the file's bytes, so an edit can
// move or remove exactly this line and leave every other byte alone.
struct Entry {
  int line = 0;                 // 1-based
  std::size_t begin = 0;        // first byte of the line (after a BOM on line 1)
  std::size_t content_end = 0;  // end of the content, before `\r\n` or `\n`
  std::size_t end = 0;  // after the terminator; equals content_end on a last line without one
  std::string raw;      // the line without its terminator, trailing whitespace kept
  std::string text;     // after `- `, before ` ^tr…`, verbatim (no trailing whitespace)
  std::string id;       // `tr` + 10 hex without the caret; empty unless tagged
  EntryState state = EntryState::untagged;
  std::string bad_token;  // malformed only: the offending token, for messages
};

// A managed file with its bytes and the entries found in them, in line order.
struct ParsedFile {
  ManagedFile file;
  std::string bytes;
  std::vector<Entry> entries;
  // Warnings about ids the grammar ignores: on headings, indented or claim-block lines, and on
  // placeholders. They never block anything; they explain why an id "disappeared".
  std::vector<Finding> findings;
};

// The entry grammar: a line starting with `- ` at column 0, outside fenced code blocks, HTML
// comments and leading YAML front matter, that is not a placeholder (`- [None yet]`, bare `- `),
// a claim-block field (`- **claim**: …`) or a thematic break (`- - -`). Lines split on `\n`
// with one trailing `\r` dropped; a UTF-8 BOM before line 1 is ignored.
[[nodiscard]] ParsedFile parse_file(ManagedFile file, std::string bytes);

// True when `id` is `tr` followed by exactly 10 lowercase hex digits.
[[nodiscard]] bool is_valid_id(std::string_view id);

// Every `tr…` id written as `^tr` + 10 lowercase hex anywhere in `bytes`, entry or not, in
// order of appearance. New ids must avoid all of them.
[[nodiscard]] std::vector<std::string> find_id_tokens(std::string_view bytes);

}  // namespace gv::recall
