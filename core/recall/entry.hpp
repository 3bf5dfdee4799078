#pragma once

#include <cstddef>
#include <optional>
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

// One entry of a managed file: a single-line list item, or a claim block (doc/decisions.md
// D18), whose first line stands for the block and carries its id. Offsets index the file's
// bytes, so an edit can move or remove exactly this entry and leave every other byte alone.
struct Entry {
  int line = 0;                 // 1-based, of the first line
  std::size_t begin = 0;        // first byte of the line (after a BOM on line 1)
  std::size_t content_end = 0;  // end of the first line's content, before `\r\n` or `\n`
  // After the terminator of the entry's last line (the first, unless it is a claim block);
  // equals that line's content end on a last line without a terminator.
  std::size_t end = 0;
  std::string raw;   // the first line without its terminator, trailing whitespace kept
  std::string text;  // after `- `, before ` ^tr…`, verbatim (no trailing whitespace)
  std::string id;    // `tr` + 10 hex without the caret; empty unless tagged
  EntryState state = EntryState::untagged;
  std::string bad_token;  // malformed only: the offending token, for messages
  // Every line of a claim block of more than one line, without terminators, joined by `\n`;
  // empty for an entry of one line, whose line is `raw` (no copy of it for every entry).
  std::string lines;

  // A claim block whose first field describes it rather than names it (`- **Type**: follow-up`,
  // `- **Role**: PM`): the heading of its section, without an id, which names what the block is
  // about. Empty otherwise.
  std::string heading;

  // Every line of the entry, joined as above: what a move carries.
  [[nodiscard]] std::string_view all_lines() const { return lines.empty() ? raw : lines; }
  // What lists, search results and reviews show the entry by: its heading when it has one,
  // else its text.
  [[nodiscard]] const std::string& shown_text() const { return heading.empty() ? text : heading; }
};

// Where an id the grammar does not read sits. `git vault recall doctor --fix` moves the id to
// its owner entry when there is exactly one.
enum class StrayPlace {
  heading,       // `## Title ^tr…`: owner is the one entry of the heading's section
  block_line,    // a later line of a claim block: owner is the block
  continuation,  // an indented line of a list item: owner is the item
  placeholder,   // `- [None yet] ^tr…`: no owner
  other,         // any other line: no owner
};

// An id-shaped token (`^tr` + 10 lowercase hex, or the older `^tr-` + 10 lowercase hex) at the
// end of a line that is not an entry's first line.
struct StrayId {
  int line = 0;
  StrayPlace place = StrayPlace::other;
  std::string id;                    // `tr` + 10 hex without the caret (a dash removed)
  std::size_t token_begin = 0;       // first byte of the blanks before the token
  std::size_t token_end = 0;         // after the token (the line's trailing blanks follow)
  std::optional<std::size_t> owner;  // index into ParsedFile::entries
};

// A managed file with its bytes and the entries found in them, in line order.
struct ParsedFile {
  ManagedFile file;
  std::string bytes;
  std::vector<Entry> entries;
  // Warnings about ids the grammar ignores: on headings, indented or claim-block lines, and on
  // placeholders. They never block anything; they explain why an id "disappeared".
  std::vector<Finding> findings;
  std::vector<StrayId> strays;  // those ids, where they can be read, in line order
};

// The entry grammar: a line starting with `- ` at column 0, outside fenced code blocks, HTML
// comments and leading YAML front matter, that is not a placeholder (`- [None yet]`, bare `- `)
// or a thematic break (`- - -`). Lines split on `\n` with one trailing `\r` dropped; a UTF-8 BOM
// before line 1 is ignored.
//
// A claim block is one entry (doc/decisions.md D18): it starts at a field line with a known key
// (`- **claim**: …`, `- **Decision**: …`, `- **Status** (2026-03-08): …`, compared without
// case, blanks read as `_`) and runs over the field lines (`- **Any key**: …`), italic notes
// (`- *Added: …*`) and indented lines right after it. Its first line carries its id; an id on a
// later line is a stray (a warning, which `recall doctor --fix` moves).
[[nodiscard]] ParsedFile parse_file(ManagedFile file, std::string bytes);

// True when `id` is `tr` followed by exactly 10 lowercase hex digits.
[[nodiscard]] bool is_valid_id(std::string_view id);

// The id a token in the older spelling (`^tr-` + 10 lowercase hex) stands for, without the caret
// (`^tr-0123456789` -> `tr0123456789`); nullopt for any other token. `recall doctor --fix`
// respells these; init-ids never rewrites them.
[[nodiscard]] std::optional<std::string> older_spelling_id(std::string_view token);

// Every `tr…` id written as `^tr` + 10 lowercase hex anywhere in `bytes`, entry or not, in
// order of appearance. New ids must avoid all of them.
[[nodiscard]] std::vector<std::string> find_id_tokens(std::string_view bytes);

}  // namespace gv::recall
