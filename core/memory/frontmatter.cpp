#include "core/memory/frontmatter.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <new>
#include <optional>
#include <utility>

#include "core/memory/lines.hpp"

namespace gv {
namespace {

constexpr std::string_view k_bom = "\xEF\xBB\xBF";

bool is_fence(std::string_view line) {
  if (line.substr(0, 3) != "---") {
    return false;
  }
  return line.find_first_not_of(" \t", 3) == std::string_view::npos;
}

// The key of a top-level `key: value` line, or nullopt when the line does not start one.
std::optional<std::string> top_level_key(std::string_view line) {
  if (line.empty() || line[0] == ' ' || line[0] == '\t' || line[0] == '#' || line[0] == '-') {
    return std::nullopt;
  }
  std::size_t colon = 0;
  std::string_view key;
  if (line[0] == '"' || line[0] == '\'') {
    const auto close = line.find(line[0], 1);
    if (close == std::string_view::npos) {
      return std::nullopt;
    }
    key = line.substr(1, close - 1);
    colon = close + 1;
    if (colon >= line.size() || line[colon] != ':') {
      return std::nullopt;
    }
  } else {
    colon = 0;
    while (true) {
      colon = line.find(':', colon);
      if (colon == std::string_view::npos) {
        return std::nullopt;
      }
      if (colon + 1 == line.size() || line[colon + 1] == ' ' || line[colon + 1] == '\t') {
        break;
      }
      ++colon;
    }
    key = line.substr(0, colon);
    while (!key.empty() && (key.back() == ' ' || key.back() == '\t')) {
      key.remove_suffix(1);
    }
  }
  return std::string(key);
}

bool is_blank_or_comment(std::string_view line) {
  const auto first = line.find_first_not_of(" \t");
  return first == std::string_view::npos || line[first] == '#';
}

}  // namespace

const FrontmatterKey* FrontmatterSplit::find(std::string_view key) const {
  const auto it =
      std::find_if(keys.begin(), keys.end(), [&](const FrontmatterKey& k) { return k.key == key; });
  return it == keys.end() ? nullptr : &*it;
}

FrontmatterSplit split_frontmatter(std::string_view bytes) {
  FrontmatterSplit split;
  const std::size_t start = bytes.substr(0, 3) == k_bom ? 3 : 0;
  split.bom = start == 3;
  split.body_begin = 0;
  const std::string_view text = bytes.substr(start);

  // Lines are cut one at a time up to the closing fence: the body, most of the file, is never
  // split into lines here.
  const auto next_line = [&text](std::size_t pos) {
    TextLine line;
    line.begin = pos;
    const std::size_t newline = text.find('\n', pos);
    if (newline == std::string_view::npos) {
      line.end = text.size();
      line.next = text.size();
    } else {
      line.end = newline > pos && text[newline - 1] == '\r' ? newline - 1 : newline;
      line.next = newline + 1;
    }
    return line;
  };
  if (text.empty()) {
    split.status = FrontmatterStatus::missing;
    return split;
  }
  const TextLine first = next_line(0);
  if (!is_fence(line_text(text, first))) {
    split.status = FrontmatterStatus::missing;
    return split;
  }
  split.line_ending = first.next - first.end == 2 ? "\r\n" : "\n";
  split.block_begin = start + first.next;

  int number = 1;
  for (std::size_t pos = first.next; pos < text.size();) {
    const TextLine line = next_line(pos);
    ++number;
    if (is_fence(line_text(text, line))) {
      split.status = FrontmatterStatus::ok;
      split.block_end = start + line.begin;
      split.body_begin = start + line.next;
      split.closing_line = number;
      split.keys = index_frontmatter_keys(split.block(bytes), split.first_block_line);
      return split;
    }
    pos = line.next;
  }
  split.status = FrontmatterStatus::unterminated;
  split.block_end = split.block_begin;
  split.body_begin = 0;
  return split;
}

std::vector<FrontmatterKey> index_frontmatter_keys(std::string_view block, int first_line) {
  std::vector<FrontmatterKey> keys;
  bool has_current = false;
  int number = first_line;
  for (const TextLine& line : split_lines(block)) {
    const std::string_view content = line_text(block, line);
    if (auto key = top_level_key(content)) {
      keys.push_back(FrontmatterKey{std::move(*key), number, number});
      has_current = true;
    } else if (has_current && !is_blank_or_comment(content)) {
      // Indented lines and column-0 `- item` lines continue the value above.
      keys.back().last_line = number;
    }
    ++number;
  }
  return keys;
}

namespace {

// A quoted value of a top-level `key: value` line: the line it opens on (0-based in the block),
// its quote, and the line its closing quote is on, if any. Multi-line quoted values are legal
// YAML, so these are asked about only when something went wrong.
struct QuotedValue {
  int line = 0;
  char quote = '"';
  std::optional<int> closes_on;
  bool key_inside = false;  // a later line it spans looks like a `key: value` line of its own
};

// The offset of the quote that closes the value whose opening quote is at `open`, or nullopt
// when the block ends first: a double-quoted value ends at an unescaped `"`, a single-quoted one
// at a `'` that is not doubled.
std::optional<std::size_t> closing_quote(std::string_view block, std::size_t open) {
  const char quote = block[open];
  for (std::size_t i = open + 1; i < block.size(); ++i) {
    if (quote == '"' && block[i] == '\\') {
      ++i;
    } else if (block[i] == quote) {
      if (quote == '\'' && i + 1 < block.size() && block[i + 1] == '\'') {
        ++i;
        continue;
      }
      return i;
    }
  }
  return std::nullopt;
}

// The lines from offset `from` through the one holding offset `to` (or to the block's end): how
// many, where the last one ends, and whether any looks like a `key: value` line of its own.
struct Spanned {
  int lines = 0;
  std::size_t after = 0;  // the offset just past the last line's newline
  bool key_inside = false;
};
Spanned lines_spanned(std::string_view block, std::size_t from, std::size_t to) {
  Spanned spanned{0, from, false};
  while (spanned.after < block.size() && spanned.after <= to) {
    std::size_t line_end = block.find('\n', spanned.after);
    if (line_end == std::string_view::npos) {
      line_end = block.size();
    }
    spanned.key_inside =
        spanned.key_inside || top_level_key(block.substr(spanned.after, line_end - spanned.after));
    ++spanned.lines;
    spanned.after = line_end + 1;
  }
  return spanned;
}

// Every top-level quoted value that does not close on the line it opens, in order; the scan
// goes on after each one's closing quote.
std::vector<QuotedValue> multi_line_quotes(std::string_view block) {
  std::vector<QuotedValue> found;
  int number = 0;
  std::size_t start = 0;
  while (start < block.size()) {
    std::size_t end = block.find('\n', start);
    if (end == std::string_view::npos) {
      end = block.size();
    }
    const std::string_view line = block.substr(start, end - start);
    start = end + 1;
    const int line_number = number++;
    const std::size_t colon = line.find(": ");
    if (line.empty() || line[0] == ' ' || line[0] == '#' || colon == std::string_view::npos) {
      continue;
    }
    const std::size_t open = line.find_first_not_of(' ', colon + 2);
    if (open == std::string_view::npos || (line[open] != '"' && line[open] != '\'')) {
      continue;
    }
    const std::optional<std::size_t> close =
        closing_quote(block, static_cast<std::size_t>(line.data() - block.data()) + open);
    if (close && *close < end) {
      continue;  // closed on its own line
    }
    const Spanned spanned = lines_spanned(block, end + 1, close.value_or(block.size()));
    found.push_back(
        QuotedValue{line_number, line[open],
                    close ? std::optional<int>(line_number + spanned.lines) : std::nullopt,
                    spanned.key_inside});
    if (!close) {
      break;  // the rest of the block is inside it
    }
    start = spanned.after;
    number = line_number + spanned.lines + 1;
  }
  return found;
}

FrontmatterError quote_error(const QuotedValue& quoted, int first_block_line) {
  const int line = first_block_line + quoted.line;
  const char* const name = quoted.quote == '"' ? "double" : "single";
  std::string message =
      quoted.closes_on
          ? fmt::format(
                "frontmatter is not valid yaml: the {} quote opened on this line closes "
                "only on line {}, so the fields between are read as part of this value",
                name, first_block_line + *quoted.closes_on)
          : fmt::format(
                "frontmatter is not valid yaml: the {} quote opened on this line is never closed",
                name);
  return FrontmatterError{line, std::move(message),
                          fmt::format("end the value on line {} with {}", line, quoted.quote)};
}

}  // namespace

std::optional<FrontmatterError> unclosed_quote_error(std::string_view block, int first_block_line) {
  for (const QuotedValue& quoted : multi_line_quotes(block)) {
    if (!quoted.closes_on) {
      return quote_error(quoted, first_block_line);
    }
  }
  return std::nullopt;
}

std::variant<YAML::Node, FrontmatterError> load_frontmatter(std::string_view bytes,
                                                            const FrontmatterSplit& split) {
  try {
    YAML::Node root = YAML::Load(std::string(split.block(bytes)));
    if (root.IsNull()) {
      return YAML::Node(YAML::NodeType::Map);
    }
    if (!root.IsMap()) {
      return FrontmatterError{split.first_block_line, "frontmatter is not a mapping of fields",
                              "write the frontmatter as key: value lines, one field per line"};
    }
    return root;
  } catch (const YAML::Exception& e) {
    // yaml-cpp reads an unclosed quote to the end of the block and blames the end; the user
    // needs the line where the quote opened.
    // A quote that closes lines later, past what look like fields of their own, is the usual
    // cause of an error yaml-cpp finds further down: that value swallowed them.
    for (const QuotedValue& quoted : multi_line_quotes(split.block(bytes))) {
      if (!quoted.closes_on || quoted.key_inside) {
        return quote_error(quoted, split.first_block_line);
      }
    }
    // Mark lines are 0-based within the block; a null mark (-1) blames the block's start.
    const int line =
        e.mark.is_null() ? split.first_block_line : split.first_block_line + e.mark.line;
    const int at = std::min(line, std::max(split.closing_line, split.first_block_line));
    return FrontmatterError{
        at, "frontmatter is not valid yaml: " + e.msg,
        fmt::format("correct the YAML on line {} or the one above it: close "
                    "every bracket and quote, indent list items under their key",
                    at)};
  } catch (const std::bad_alloc&) {
    // The process's condition, not the file's: reported as the frontmatter's fault it would
    // read as invalid data and the command would go on without the memory.
    throw;
  } catch (const std::exception& e) {
    return FrontmatterError{split.first_block_line,
                            std::string("frontmatter could not be read: ") + e.what(),
                            "rewrite the frontmatter as plain key: value lines"};
  }
}

std::optional<std::size_t> find_invalid_utf8(std::string_view text) {
  std::size_t i = 0;
  while (i < text.size()) {
    const auto c = static_cast<unsigned char>(text[i]);
    if (c < 0x80) {
      ++i;
      continue;
    }
    std::size_t length = 0;
    std::uint32_t code = 0;
    std::uint32_t minimum = 0;
    if ((c & 0xE0) == 0xC0) {
      length = 2;
      code = c & 0x1F;
      minimum = 0x80;
    } else if ((c & 0xF0) == 0xE0) {
      length = 3;
      code = c & 0x0F;
      minimum = 0x800;
    } else if ((c & 0xF8) == 0xF0) {
      length = 4;
      code = c & 0x07;
      minimum = 0x10000;
    } else {
      return i;
    }
    if (i + length > text.size()) {
      return i;
    }
    for (std::size_t k = 1; k < length; ++k) {
      const auto cc = static_cast<unsigned char>(text[i + k]);
      if ((cc & 0xC0) != 0x80) {
        return i;
      }
      code = (code << 6) | (cc & 0x3F);
    }
    if (code < minimum || code > 0x10FFFF || (code >= 0xD800 && code <= 0xDFFF)) {
      return i;
    }
    i += length;
  }
  return std::nullopt;
}

}  // namespace gv
