#include "core/memory/frontmatter_edit.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "core/error.hpp"
#include "core/memory/frontmatter.hpp"
#include "core/memory/lines.hpp"

namespace gv {
namespace {

bool is_blank(char c) { return c == ' ' || c == '\t'; }

bool has_control(std::string_view text) {
  return std::any_of(text.begin(), text.end(), [](char c) {
    const auto u = static_cast<unsigned char>(c);
    return u < 0x20 || u == 0x7F;
  });
}

// The parts of a `key: value  # comment` line, as offsets into it.
struct KeyLine {
  std::size_t prefix_end = 0;   // just after the colon
  std::size_t value_begin = 0;  // first non-blank after the colon
  std::size_t value_end = 0;    // end of the value, trailing blanks excluded
};

// Skips a quoted scalar or a flow collection starting at `pos`; returns the offset after it.
std::size_t skip_value_token(std::string_view text, std::size_t pos) {
  const char open = text[pos];
  if (open == '"') {
    for (std::size_t i = pos + 1; i < text.size(); ++i) {
      if (text[i] == '\\') {
        ++i;
      } else if (text[i] == '"') {
        return i + 1;
      }
    }
    return text.size();
  }
  if (open == '\'') {
    for (std::size_t i = pos + 1; i < text.size(); ++i) {
      if (text[i] == '\'') {
        if (i + 1 < text.size() && text[i + 1] == '\'') {
          ++i;
        } else {
          return i + 1;
        }
      }
    }
    return text.size();
  }
  if (open == '[' || open == '{') {
    int depth = 0;
    for (std::size_t i = pos; i < text.size(); ++i) {
      const char c = text[i];
      if (c == '"' || c == '\'') {
        i = skip_value_token(text, i) - 1;
      } else if (c == '[' || c == '{') {
        ++depth;
      } else if ((c == ']' || c == '}') && --depth == 0) {
        return i + 1;
      }
    }
    return text.size();
  }
  return pos;
}

KeyLine parse_key_line(std::string_view text) {
  KeyLine parts;
  std::size_t colon = 0;
  if (!text.empty() && (text[0] == '"' || text[0] == '\'')) {
    colon = text.find(text[0], 1);
    colon = colon == std::string_view::npos ? text.size() : colon + 1;
  } else {
    while (colon < text.size()) {
      colon = text.find(':', colon);
      if (colon == std::string_view::npos || colon + 1 == text.size() ||
          is_blank(text[colon + 1])) {
        break;
      }
      ++colon;
    }
  }
  parts.prefix_end =
      std::min(colon == std::string_view::npos ? text.size() : colon + 1, text.size());
  std::size_t pos = parts.prefix_end;
  while (pos < text.size() && is_blank(text[pos])) {
    ++pos;
  }
  parts.value_begin = pos;
  if (pos < text.size() && text[pos] != '#') {
    pos = skip_value_token(text, pos);
  }
  // A comment starts at a `#` at the value's start or preceded by a blank.
  std::size_t comment = text.size();
  for (std::size_t i = pos; i < text.size(); ++i) {
    if (text[i] == '#' && (i == parts.value_begin || is_blank(text[i - 1]))) {
      comment = i;
      break;
    }
  }
  std::size_t end = std::max(comment, parts.value_begin);
  while (end > parts.value_begin && is_blank(text[end - 1])) {
    --end;
  }
  parts.value_end = end;
  return parts;
}

std::string single_quoted(std::string_view text) {
  std::string out = "'";
  for (const char c : text) {
    out += c;
    if (c == '\'') {
      out += '\'';
    }
  }
  out += '\'';
  return out;
}

std::string render_item(std::string_view item, char quote) {
  if (quote == '"') {
    return yaml_double_quoted(item);
  }
  if (quote == '\'' && !has_control(item)) {
    return single_quoted(item);
  }
  return yaml_plain_or_quoted(item);
}

// A trailing comment kept after a new value. Cut from a line whose value was empty
// (`retrieval_count: # none yet`) it starts at the `#`; without a blank before it the `#` would
// become part of the new value (`4# none yet`) and the next edit would drop it. Found by
// tests/fuzz/fuzz_frontmatter_edit.cpp.
std::string kept_comment(std::string_view rest) {
  if (rest.empty() || is_blank(rest.front())) {
    return std::string(rest);
  }
  return " " + std::string(rest);
}

void check_one_line(std::string_view path, std::string_view key, std::string_view value) {
  if (value.find_first_of("\r\n") != std::string_view::npos) {
    throw Error("{}: rendered value of {} spans lines", path, key);
  }
}

}  // namespace

std::string yaml_double_quoted(std::string_view text) {
  std::string out = "\"";
  for (const char c : text) {
    switch (c) {
      case '"':
        out += "\\\"";
        break;
      case '\\':
        out += "\\\\";
        break;
      case '\n':
        out += "\\n";
        break;
      case '\r':
        out += "\\r";
        break;
      case '\t':
        out += "\\t";
        break;
      default: {
        const auto u = static_cast<unsigned char>(c);
        if (u < 0x20 || u == 0x7F) {
          out += fmt::format("\\x{:02X}", static_cast<unsigned>(u));
        } else {
          out += c;
        }
      }
    }
  }
  out += '"';
  return out;
}

std::string yaml_plain_or_quoted(std::string_view text) {
  const auto needs_quotes = [&] {
    if (text.empty() || is_blank(text.front()) || is_blank(text.back()) || has_control(text)) {
      return true;
    }
    if (std::string_view("-?:,[]{}#&*!|>'\"%@`").find(text.front()) != std::string_view::npos) {
      return true;
    }
    if (text.find_first_of(",[]{}") != std::string_view::npos ||
        text.find(": ") != std::string_view::npos || text.find(" #") != std::string_view::npos ||
        text.back() == ':') {
      return true;
    }
    // Words YAML readers turn into null, booleans or numbers would not read back as strings.
    std::string lower(text);
    std::transform(lower.begin(), lower.end(), lower.begin(), [](unsigned char c) {
      return static_cast<char>(c >= 'A' && c <= 'Z' ? c + 32 : c);
    });
    static constexpr std::string_view k_special[] = {"~",  "null", "true", "false", "yes",
                                                     "no", "on",   "off",  ".nan",  ".inf"};
    if (std::find(std::begin(k_special), std::end(k_special), lower) != std::end(k_special)) {
      return true;
    }
    const std::size_t digits_from = text.front() == '+' || text.front() == '.' ? 1 : 0;
    return digits_from < text.size() && text[digits_from] >= '0' && text[digits_from] <= '9' &&
           text.find_first_not_of("0123456789.+-_:eExXoObBabcdefABCDEF") == std::string_view::npos;
  };
  return needs_quotes() ? yaml_double_quoted(text) : std::string(text);
}

FrontmatterEditor::FrontmatterEditor(std::string_view path, std::string_view bytes) : m_path(path) {
  const FrontmatterSplit split = split_frontmatter(bytes);
  if (split.status != FrontmatterStatus::ok) {
    throw Error("{}:1: cannot edit frontmatter: {}", path,
                split.status == FrontmatterStatus::missing ? "the file has none"
                                                           : "it is not closed by a --- line");
  }
  m_eol = split.line_ending;
  m_prefix = std::string(bytes.substr(0, split.block_begin));
  m_suffix = std::string(bytes.substr(split.block_end));
  const std::string_view block = split.block(bytes);
  for (const TextLine& line : split_lines(block)) {
    m_lines.push_back(Line{std::string(line_text(block, line)),
                           std::string(block.substr(line.end, line.next - line.end))});
  }
}

std::optional<FrontmatterEditor::Span> FrontmatterEditor::find(std::string_view key) const {
  std::string block;
  for (const Line& line : m_lines) {
    block += line.text;
    block += '\n';
  }
  for (const FrontmatterKey& found : index_frontmatter_keys(block, 0)) {
    if (found.key == key) {
      return Span{static_cast<std::size_t>(found.first_line),
                  static_cast<std::size_t>(found.last_line)};
    }
  }
  return std::nullopt;
}

bool FrontmatterEditor::has(std::string_view key) const { return find(key).has_value(); }

void FrontmatterEditor::replace(Span span, std::vector<std::string> texts) {
  // The replacement inherits the line ending of the field's first line.
  const std::string eol = m_lines[span.first].eol.empty() ? m_eol : m_lines[span.first].eol;
  const auto first = m_lines.begin() + static_cast<std::ptrdiff_t>(span.first);
  m_lines.erase(first, m_lines.begin() + static_cast<std::ptrdiff_t>(span.last) + 1);
  std::vector<Line> added;
  for (std::string& text : texts) {
    added.push_back(Line{std::move(text), eol});
  }
  m_lines.insert(m_lines.begin() + static_cast<std::ptrdiff_t>(span.first), added.begin(),
                 added.end());
}

void FrontmatterEditor::insert_at(std::size_t index, std::vector<std::string> texts) {
  std::vector<std::string> keys;
  std::vector<Line> added;
  for (std::string& text : texts) {
    // Only a top-level `key: value` line names a field; list items and continuations do not.
    const bool top_level = !text.empty() && text[0] != ' ' && text[0] != '\t' && text[0] != '-';
    if (top_level && text.find(':') != std::string::npos) {
      keys.push_back(text.substr(0, text.find(':')));
    }
    added.push_back(Line{std::move(text), m_eol});
  }
  std::vector<Line> before = m_lines;
  m_lines.insert(m_lines.begin() + static_cast<std::ptrdiff_t>(index), added.begin(), added.end());
  // A new line after a value that never ends (`reason: "purge` with no closing quote) would
  // read as part of that value: the field would not be set and the value would change. Found
  // by tests/fuzz/fuzz_frontmatter_edit.cpp.
  const std::string edited = bytes();
  const auto loaded = load_frontmatter(edited, split_frontmatter(edited));
  const YAML::Node* const node = std::get_if<YAML::Node>(&loaded);
  bool reads_back = node != nullptr;
  for (std::size_t i = 0; reads_back && i < keys.size(); ++i) {
    reads_back = static_cast<bool>((*node)[keys[i]]);
  }
  if (!reads_back) {
    std::swap(m_lines, before);
    const std::string original = bytes();
    const bool was_readable =
        std::holds_alternative<YAML::Node>(load_frontmatter(original, split_frontmatter(original)));
    if (was_readable) {
      throw Error(
          "{}: cannot add `{}` to the frontmatter: the value before it does not end (an "
          "unclosed quote?)",
          m_path, keys.empty() ? std::string("a field") : keys.front());
    }
    // Not readable YAML before the edit either (the gate reports that): keep the edit.
    std::swap(m_lines, before);
  }
}

void FrontmatterEditor::set_scalar(std::string_view key, std::string_view value) {
  check_one_line(m_path, key, value);
  const auto span = find(key);
  if (!span) {
    insert_at(m_lines.size(), {fmt::format("{}:{}{}", key, value.empty() ? "" : " ", value)});
    return;
  }
  const std::string& text = m_lines[span->first].text;
  const KeyLine parts = parse_key_line(text);
  std::string gap = text.substr(parts.prefix_end, parts.value_begin - parts.prefix_end);
  if (gap.empty()) {
    gap = " ";
  }
  // A trailing comment survives only when the old value sat on this one line.
  const std::string comment =
      span->first == span->last ? kept_comment(std::string_view(text).substr(parts.value_end)) : "";
  std::string line = text.substr(0, parts.prefix_end);
  if (!value.empty()) {
    line += gap;
    line += value;
  }
  line += comment;
  replace(*span, {std::move(line)});
}

void FrontmatterEditor::set_list(std::string_view key, const std::vector<std::string>& items) {
  const auto span = find(key);
  std::string prefix = fmt::format("{}:", key);
  std::string comment;
  bool flow = false;
  bool padded = false;
  char quote = 0;
  std::string indent = "  ";
  std::string dash_gap = " ";

  if (span) {
    const std::string& text = m_lines[span->first].text;
    const KeyLine parts = parse_key_line(text);
    prefix = text.substr(0, parts.prefix_end);
    const std::string_view value =
        std::string_view(text).substr(parts.value_begin, parts.value_end - parts.value_begin);
    if (!value.empty() && value.front() == '[') {
      flow = true;
      comment = span->first == span->last
                    ? kept_comment(std::string_view(text).substr(parts.value_end))
                    : "";
      padded = value.size() > 2 && value[1] == ' ';
      const auto first_item = value.find_first_not_of(" \t", 1);
      if (first_item != std::string_view::npos &&
          (value[first_item] == '"' || value[first_item] == '\'')) {
        quote = value[first_item];
      }
    } else {
      if (value.empty()) {
        comment = kept_comment(std::string_view(text).substr(parts.value_end));
      }
      for (std::size_t i = span->first + 1; i <= span->last; ++i) {
        const std::string& item = m_lines[i].text;
        const auto dash = item.find_first_not_of(" \t");
        if (dash == std::string::npos || item[dash] != '-') {
          continue;
        }
        indent = item.substr(0, dash);
        const auto after = item.find_first_not_of(" \t", dash + 1);
        if (after != std::string::npos) {
          dash_gap = item.substr(dash + 1, after - dash - 1);
          if (item[after] == '"' || item[after] == '\'') {
            quote = item[after];
          }
        }
        break;
      }
    }
  }

  std::vector<std::string> texts;
  if (items.empty()) {
    texts.push_back(prefix + " []" + comment);
  } else if (flow) {
    std::string line = prefix + " [" + (padded ? " " : "");
    for (std::size_t i = 0; i < items.size(); ++i) {
      line += (i == 0 ? "" : ", ") + render_item(items[i], quote);
    }
    line += std::string(padded ? " " : "") + "]" + comment;
    texts.push_back(std::move(line));
  } else {
    texts.push_back(prefix + comment);
    for (const std::string& item : items) {
      texts.push_back(indent + "-" + dash_gap + render_item(item, quote));
    }
  }
  if (span) {
    replace(*span, std::move(texts));
  } else {
    insert_at(m_lines.size(), std::move(texts));
  }
}

void FrontmatterEditor::insert_fields(const std::vector<RenderedField>& fields,
                                      std::string_view after_key, std::string_view before_key) {
  std::vector<std::string> texts;
  for (const RenderedField& field : fields) {
    check_one_line(m_path, field.key, field.value);
    if (has(field.key)) {
      set_scalar(field.key, field.value);
    } else {
      texts.push_back(
          fmt::format("{}:{}{}", field.key, field.value.empty() ? "" : " ", field.value));
    }
  }
  if (texts.empty()) {
    return;
  }
  std::size_t index = m_lines.size();
  const auto after = after_key.empty() ? std::nullopt : find(after_key);
  const auto before = before_key.empty() ? std::nullopt : find(before_key);
  if (after) {
    index = after->last + 1;
  } else if (before) {
    index = before->first;
  }
  insert_at(index, std::move(texts));
}

bool FrontmatterEditor::remove(std::string_view key) {
  const auto span = find(key);
  if (!span) {
    return false;
  }
  m_lines.erase(m_lines.begin() + static_cast<std::ptrdiff_t>(span->first),
                m_lines.begin() + static_cast<std::ptrdiff_t>(span->last) + 1);
  return true;
}

std::string FrontmatterEditor::bytes() const {
  std::string out = m_prefix;
  for (const Line& line : m_lines) {
    out += line.text;
    out += line.eol;
  }
  out += m_suffix;
  return out;
}

}  // namespace gv
