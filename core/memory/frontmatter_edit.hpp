#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace gv {

// A field to write: its key and its value already rendered as YAML (`"quoted"`, `2026-11-30`,
// `3`, or empty for `key:`).
struct RenderedField {
  std::string key;
  std::string value;
};

// The minimal-diff frontmatter writer (D9). It edits a file's frontmatter line by line: a change
// replaces only the lines of the field it touches, so key order, comments, quoting, unknown
// fields, line endings (new lines use the file's), a BOM and the body stay byte-identical.
// The editor owns a copy of the bytes; nothing is written to disk.
class FrontmatterEditor {
 public:
  // Throws gv::Error (`path:1: ...`) when the file has no closed frontmatter block.
  FrontmatterEditor(std::string_view path, std::string_view bytes);

  [[nodiscard]] bool has(std::string_view key) const;

  // Sets `key: value`. An existing field keeps its position, the spacing after its colon and a
  // trailing `# comment` on a one-line value; a new field goes at the end of the block.
  // Throws gv::Error when `value` spans lines.
  void set_scalar(std::string_view key, std::string_view value);

  // Sets a list of plain strings. An existing flow list (`[a, b]`) stays flow and an existing
  // block list stays block with its indentation; quoting follows the first existing item
  // (double, single or plain; an item that cannot be plain is double-quoted). A field that was
  // not a list, or is new, becomes a block list (`  - item`). An empty list is written `[]`.
  void set_list(std::string_view key, const std::vector<std::string>& items);

  // Writes `fields` in order. Fields already present are set in place (set_scalar); the others
  // are inserted together right after `after_key`'s value if that key exists, else right
  // before `before_key`, else at the end. E.g. tombstoning inserts status, tombstoned_at and
  // tombstone_reason after `summary`, before `token_count`.
  void insert_fields(const std::vector<RenderedField>& fields, std::string_view after_key,
                     std::string_view before_key);

  // Removes the field and all its lines. False when it was absent.
  bool remove(std::string_view key);

  // The whole file with the edits applied.
  [[nodiscard]] std::string bytes() const;

 private:
  struct Line {
    std::string text;  // without the line ending
    std::string eol;   // `\n`, `\r\n`
  };
  struct Span {
    std::size_t first = 0;  // indexes into m_lines, inclusive
    std::size_t last = 0;
  };

  [[nodiscard]] std::optional<Span> find(std::string_view key) const;
  void replace(Span span, std::vector<std::string> texts);
  void insert_at(std::size_t index, std::vector<std::string> texts);

  std::string m_path;
  std::string m_prefix;  // BOM and the opening `---` line
  std::vector<Line> m_lines;
  std::string m_suffix;  // the closing `---` line and the body, verbatim
  std::string m_eol;
};

// `text` as a YAML double-quoted scalar: backslash, quote and control characters escaped, so
// any string (newlines included) stays on one line and reads back unchanged.
[[nodiscard]] std::string yaml_double_quoted(std::string_view text);

// `text` as a plain YAML scalar when that reads back as the same string in a flow or block
// list, else double-quoted.
[[nodiscard]] std::string yaml_plain_or_quoted(std::string_view text);

}  // namespace gv
