#pragma once

#include <yaml-cpp/yaml.h>

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace gv {

// A top-level frontmatter key and the file lines its value spans (1-based, inclusive), so
// messages can say `path:line` and the editor can replace exactly those lines. Blank lines and
// unindented comments after the value belong to no key.
struct FrontmatterKey {
  std::string key;
  int first_line = 0;
  int last_line = 0;
};

enum class FrontmatterStatus {
  ok,
  missing,       // the first line (after an optional BOM) is not `---`
  unterminated,  // `---` opens a block that no later `---` line closes
};

// Where the frontmatter block and the body are in a file's bytes. Offsets index the bytes given
// to split_frontmatter; nothing is copied, so the body stays bytes.
struct FrontmatterSplit {
  FrontmatterStatus status = FrontmatterStatus::missing;
  bool bom = false;                  // the file starts with a UTF-8 byte order mark
  std::string line_ending = "\n";    // of the opening `---` line: what new lines should use
  std::size_t block_begin = 0;       // first byte after the opening `---` line
  std::size_t block_end = 0;         // first byte of the closing `---` line
  std::size_t body_begin = 0;        // first byte after the closing `---` line (0 when missing)
  int first_block_line = 2;          // file line of the block's first line
  int closing_line = 0;              // file line of the closing `---`
  std::vector<FrontmatterKey> keys;  // in file order; a repeated key appears twice

  [[nodiscard]] std::string_view block(std::string_view bytes) const {
    return bytes.substr(block_begin, block_end - block_begin);
  }
  [[nodiscard]] std::string_view body(std::string_view bytes) const {
    return bytes.substr(body_begin);
  }
  // The first occurrence of `key`, or nullptr.
  [[nodiscard]] const FrontmatterKey* find(std::string_view key) const;
};

// Finds the block between a first line `---` and the next `---` line (CRLF and a UTF-8 BOM
// tolerated) and indexes its top-level keys by scanning lines, not YAML. With status
// `missing` the whole file is body.
[[nodiscard]] FrontmatterSplit split_frontmatter(std::string_view bytes);

// Indexes the top-level keys of a frontmatter block whose first line is file line
// `first_line`. split_frontmatter uses it; the editor re-runs it after each change.
[[nodiscard]] std::vector<FrontmatterKey> index_frontmatter_keys(std::string_view block,
                                                                 int first_line);

// A YAML problem at a file line.
struct FrontmatterError {
  int line = 1;
  std::string message;  // lowercase, no trailing period
  std::string fix;      // the edit that repairs it, when one is known
};

// A quoted value whose quote never closes in `block` (the frontmatter block, its first line at
// file line `first_block_line`): yaml-cpp reads the rest of the block as that value, so the
// fields after it silently vanish, or fails and blames the block's end. The error names the
// line where the quote opens and the edit that closes it.
[[nodiscard]] std::optional<FrontmatterError> unclosed_quote_error(std::string_view block,
                                                                   int first_block_line);

// Runs only the block through yaml-cpp. A null document (empty block) becomes an empty map.
// Syntax errors come back with the file line yaml-cpp pointed at; a document that is not a
// mapping is an error too. Never throws.
[[nodiscard]] std::variant<YAML::Node, FrontmatterError> load_frontmatter(
    std::string_view bytes, const FrontmatterSplit& split);

// Offset of the first byte that is not well-formed UTF-8 (overlongs, surrogates and code
// points above U+10FFFF included), or nullopt when the text is valid.
[[nodiscard]] std::optional<std::size_t> find_invalid_utf8(std::string_view text);

}  // namespace gv
