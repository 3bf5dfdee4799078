#include "core/memory/frontmatter_scan.hpp"

#include <cstddef>

namespace gv {
namespace {

// Every rule below errs towards "not flat": a block the scanner declines costs a yaml-cpp parse,
// a block it misreads would change a score. tests/unit/frontmatter_scan_test.cpp runs both
// paths over generated and hand-written blocks; Debug builds compare them on every parse.

bool is_key_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
         c == '-';
}

// Characters that start something other than a plain scalar (YAML's c-indicators), plus the
// ones that start one only in forms the scanner leaves to yaml-cpp (`-x`, `?x`, `:x`).
bool is_indicator(char c) {
  switch (c) {
    case '-':
    case '?':
    case ':':
    case ',':
    case '[':
    case ']':
    case '{':
    case '}':
    case '#':
    case '&':
    case '*':
    case '!':
    case '|':
    case '>':
    case '\'':
    case '"':
    case '%':
    case '@':
    case '`':
      return true;
    default:
      return false;
  }
}

// Bytes that YAML treats as line breaks or byte order marks, or that yaml-cpp may reject: tabs,
// other control characters, DEL, NEL (U+0085), LS/PS (U+2028/9) and a BOM (U+FEFF).
bool has_awkward_bytes(std::string_view block) {
  for (std::size_t i = 0; i < block.size(); ++i) {
    const auto c = static_cast<unsigned char>(block[i]);
    if (c >= 0x20 && c < 0x7F) {
      continue;
    }
    if (c == '\n') {
      continue;
    }
    if (c == '\r' && i + 1 < block.size() && block[i + 1] == '\n') {
      continue;
    }
    if (c == 0xC2 && i + 1 < block.size() && static_cast<unsigned char>(block[i + 1]) == 0x85) {
      return true;
    }
    if (c == 0xE2 && i + 2 < block.size() && static_cast<unsigned char>(block[i + 1]) == 0x80 &&
        (static_cast<unsigned char>(block[i + 2]) == 0xA8 ||
         static_cast<unsigned char>(block[i + 2]) == 0xA9)) {
      return true;
    }
    if (c == 0xEF && i + 2 < block.size() && static_cast<unsigned char>(block[i + 1]) == 0xBB &&
        static_cast<unsigned char>(block[i + 2]) == 0xBF) {
      return true;
    }
    if (c < 0x80) {
      return true;  // control characters and DEL
    }
  }
  return false;
}

std::string_view trim_spaces_right(std::string_view text) {
  while (!text.empty() && text.back() == ' ') {
    text.remove_suffix(1);
  }
  return text;
}

std::string_view skip_spaces(std::string_view text) {
  std::size_t i = 0;
  while (i < text.size() && text[i] == ' ') {
    ++i;
  }
  return text.substr(i);
}

// True when what follows a value is nothing, or spaces and a comment.
bool only_comment_left(std::string_view rest) {
  if (rest.empty()) {
    return true;
  }
  if (rest.front() != ' ') {
    return false;
  }
  rest = skip_spaces(rest);
  return rest.empty() || rest.front() == '#';
}

bool is_null_word(std::string_view text) {
  return text.empty() || text == "~" || text == "null" || text == "Null" || text == "NULL";
}

// A quoted scalar at the start of `text`. On success sets `out` to its value and `text` to
// what follows the closing quote.
bool read_quoted(std::string_view& text, std::string& out) {
  const char quote = text.front();
  out.clear();
  std::size_t i = 1;
  while (i < text.size()) {
    const char c = text[i];
    if (c == quote) {
      if (quote == '\'' && i + 1 < text.size() && text[i + 1] == '\'') {
        out += '\'';
        i += 2;
        continue;
      }
      text.remove_prefix(i + 1);
      return true;
    }
    if (c == '\\' && quote == '"') {
      if (i + 1 < text.size() && (text[i + 1] == '"' || text[i + 1] == '\\')) {
        out += text[i + 1];
        i += 2;
        continue;
      }
      return false;  // other escapes (\n, \x41, \u00e9...) are left to yaml-cpp
    }
    out += c;
    ++i;
  }
  return false;  // not closed on this line: a multi-line scalar
}

// A plain scalar: `text` up to a comment, trailing spaces dropped. `flow` is true inside
// `[...]`, where `,` and `]` end it. Sets `text` to what follows.
bool read_plain(std::string_view& text, bool flow, std::string_view& out) {
  if (text.empty() || is_indicator(text.front()) || text.front() == ' ') {
    return false;
  }
  std::size_t i = 0;
  for (; i < text.size(); ++i) {
    const char c = text[i];
    if (c == ':' && (i + 1 == text.size() || text[i + 1] == ' ' ||
                     (flow && (text[i + 1] == ',' || text[i + 1] == ']')))) {
      return false;  // a mapping inside a value
    }
    if (c == '#' && text[i - 1] == ' ') {
      break;  // a comment
    }
    if (flow && (c == ',' || c == ']')) {
      break;
    }
    if (flow && (c == '[' || c == '{' || c == '}')) {
      return false;
    }
  }
  out = trim_spaces_right(text.substr(0, i));
  text.remove_prefix(i);
  return true;
}

// A scalar value or list item that runs to the end of its line (after `key: ` or `- `).
bool read_line_scalar(std::string_view text, FlatItem& item) {
  if (text.front() == '"' || text.front() == '\'') {
    item.kind = FlatItem::Kind::scalar;
    return read_quoted(text, item.text) && only_comment_left(text);
  }
  std::string_view plain;
  if (!read_plain(text, false, plain)) {
    return false;
  }
  if (!text.empty() && text.front() != '#') {
    return false;
  }
  if (is_null_word(plain)) {
    item.kind = FlatItem::Kind::null;
    item.text.clear();
  } else {
    item.kind = FlatItem::Kind::scalar;
    item.text.assign(plain);
  }
  return true;
}

// `[a, "b", c]` on one line, `text` starting at `[`.
bool read_flow_list(std::string_view text, std::vector<FlatItem>& items) {
  text.remove_prefix(1);
  text = skip_spaces(text);
  if (!text.empty() && text.front() == ']') {
    text.remove_prefix(1);
    return only_comment_left(text);
  }
  while (true) {
    text = skip_spaces(text);
    if (text.empty()) {
      return false;
    }
    FlatItem item;
    if (text.front() == '"' || text.front() == '\'') {
      item.kind = FlatItem::Kind::scalar;
      if (!read_quoted(text, item.text)) {
        return false;
      }
      text = skip_spaces(text);
    } else {
      std::string_view plain;
      if (!read_plain(text, true, plain) || plain.empty()) {
        return false;
      }
      if (!is_null_word(plain)) {
        item.kind = FlatItem::Kind::scalar;
        item.text.assign(plain);
      }
    }
    items.push_back(std::move(item));
    if (text.empty()) {
      return false;
    }
    if (text.front() == ']') {
      text.remove_prefix(1);
      return only_comment_left(text);
    }
    if (text.front() != ',') {
      return false;
    }
    text.remove_prefix(1);
    if (skip_spaces(text).empty() || skip_spaces(text).front() == ']') {
      return false;  // a trailing comma: left to yaml-cpp
    }
  }
}

std::size_t leading_spaces(std::string_view line) {
  std::size_t n = 0;
  while (n < line.size() && line[n] == ' ') {
    ++n;
  }
  return n;
}

}  // namespace

const FlatValue* find_flat_field(const FlatFrontmatter& fields, std::string_view key) {
  for (const FlatField& field : fields) {
    if (field.key == key) {
      return &field.value;
    }
  }
  return nullptr;
}

std::optional<FlatFrontmatter> scan_flat_frontmatter(std::string_view block) {
  if (has_awkward_bytes(block)) {
    return std::nullopt;
  }
  FlatFrontmatter fields;
  // After `key:` with nothing on its line: the value is null unless `- item` lines follow.
  bool open_list = false;
  std::size_t item_indent = std::string_view::npos;  // of the open list's first item
  std::size_t at = 0;
  while (at < block.size()) {
    std::size_t end = block.find('\n', at);
    if (end == std::string_view::npos) {
      end = block.size();
    }
    std::string_view line = block.substr(at, end - at);
    at = end + 1;
    if (!line.empty() && line.back() == '\r') {
      line.remove_suffix(1);
    }
    const std::size_t indent = leading_spaces(line);
    if (indent == line.size() || line[indent] == '#') {
      continue;  // blank or a comment
    }
    if (line[indent] == '-' && (indent + 1 == line.size() || line[indent + 1] == ' ')) {
      if (!open_list || (item_indent != std::string_view::npos && indent != item_indent)) {
        return std::nullopt;
      }
      item_indent = indent;
      FlatValue& value = fields.back().value;
      value.kind = FlatValue::Kind::sequence;
      FlatItem item;
      const std::string_view rest = skip_spaces(line.substr(indent + 1));
      if (!rest.empty() && rest.front() != '#' && !read_line_scalar(rest, item)) {
        return std::nullopt;
      }
      value.items.push_back(std::move(item));
      continue;
    }
    if (indent > 0) {
      return std::nullopt;  // a nested mapping or a continued scalar
    }
    open_list = false;
    std::size_t colon = 0;
    while (colon < line.size() && is_key_char(line[colon])) {
      ++colon;
    }
    if (colon == 0 || colon == line.size() || line[colon] != ':' ||
        (colon + 1 < line.size() && line[colon + 1] != ' ')) {
      return std::nullopt;
    }
    const std::string_view key = line.substr(0, colon);
    if (find_flat_field(fields, key) != nullptr) {
      return std::nullopt;  // a repeated key: yaml-cpp decides what it means
    }
    FlatField& field = fields.emplace_back();
    field.key.assign(key);
    const std::string_view rest = skip_spaces(line.substr(colon + 1));
    if (rest.empty() || rest.front() == '#') {
      open_list = true;
      item_indent = std::string_view::npos;
      continue;
    }
    if (rest.front() == '[') {
      field.value.kind = FlatValue::Kind::sequence;
      if (!read_flow_list(rest, field.value.items)) {
        return std::nullopt;
      }
      continue;
    }
    FlatItem scalar;
    if (!read_line_scalar(rest, scalar)) {
      return std::nullopt;
    }
    if (scalar.kind == FlatItem::Kind::scalar) {
      field.value.kind = FlatValue::Kind::scalar;
      field.value.text = std::move(scalar.text);
      field.value.quoted = rest.front() == '"' || rest.front() == '\'';
    }
  }
  return fields;
}

FlatFrontmatter flatten_frontmatter(const YAML::Node& mapping, std::string_view block) {
  FlatFrontmatter fields;
  for (const auto& pair : mapping) {
    if (!pair.first.IsScalar()) {
      continue;
    }
    FlatField field;
    field.key = pair.first.Scalar();
    const YAML::Node& node = pair.second;
    if (node.IsScalar()) {
      field.value.kind = FlatValue::Kind::scalar;
      field.value.text = node.Scalar();
      // The node's mark points at the opening quote of a quoted scalar.
      const int pos = node.Mark().pos;
      field.value.quoted = pos >= 0 && static_cast<std::size_t>(pos) < block.size() &&
                           (block[static_cast<std::size_t>(pos)] == '"' ||
                            block[static_cast<std::size_t>(pos)] == '\'');
    } else if (node.IsSequence()) {
      field.value.kind = FlatValue::Kind::sequence;
      for (const YAML::Node& element : node) {
        FlatItem item;
        if (element.IsScalar()) {
          item.kind = FlatItem::Kind::scalar;
          item.text = element.Scalar();
        } else if (!element.IsNull()) {
          item.kind = FlatItem::Kind::other;
        }
        field.value.items.push_back(std::move(item));
      }
    } else if (node.IsMap()) {
      field.value.kind = FlatValue::Kind::other;
    }
    fields.push_back(std::move(field));
  }
  return fields;
}

}  // namespace gv
