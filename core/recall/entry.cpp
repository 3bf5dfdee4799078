#include "core/recall/entry.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <optional>
#include <utility>

#include "core/util/text.hpp"

namespace gv::recall {
namespace {

constexpr std::string_view k_bom = "\xEF\xBB\xBF";
constexpr std::size_t k_id_hex_length = 10;
constexpr std::size_t k_token_length = 3 + k_id_hex_length;  // `^tr` + hex

// Keys that start a claim block: those of the register templates (the plugin's current ones
// and the older ones real vaults still use). Compared lower-cased, with blanks and dashes read
// as `_`; the lines after the first may use any key.
constexpr std::array<std::string_view, 31> k_claim_field_keys{"claim",
                                                              "confidence",
                                                              "evidence",
                                                              "last_verified",
                                                              "superseded_by",
                                                              "original_date",
                                                              "role",
                                                              "contact",
                                                              "preferences",
                                                              "context",
                                                              "last_interaction",
                                                              "choice",
                                                              "alternatives",
                                                              "rationale",
                                                              "status",
                                                              "outcome",
                                                              "goal",
                                                              "key_decisions",
                                                              "blockers",
                                                              "timeline",
                                                              "constraints",
                                                              "decision",
                                                              "alternatives_considered",
                                                              "type",
                                                              "due",
                                                              "added",
                                                              "current_state",
                                                              "next_steps",
                                                              "version",
                                                              "last_updated",
                                                              "revisit_when"};

struct LineSpan {
  std::size_t begin = 0;
  std::size_t content_end = 0;
  std::size_t end = 0;
};

std::vector<LineSpan> split_lines(std::string_view bytes) {
  std::vector<LineSpan> lines;
  std::size_t begin = bytes.starts_with(k_bom) ? k_bom.size() : 0;
  while (begin < bytes.size()) {
    const std::size_t newline = bytes.find('\n', begin);
    LineSpan span;
    span.begin = begin;
    if (newline == std::string_view::npos) {
      span.content_end = bytes.size();
      span.end = bytes.size();
    } else {
      span.content_end = newline;
      span.end = newline + 1;
    }
    if (span.content_end > span.begin && bytes[span.content_end - 1] == '\r') {
      --span.content_end;
    }
    lines.push_back(span);
    begin = span.end;
  }
  return lines;
}

bool is_lower_hex(char c) { return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'); }

bool is_blank(char c) { return c == ' ' || c == '\t'; }

using util::trim_right_blanks;

bool is_only_blanks(std::string_view text) {
  for (const char c : text) {
    if (!is_blank(c)) {
      return false;
    }
  }
  return true;
}

// True when a valid `^tr…` token starts at `pos`.
bool token_at(std::string_view text, std::size_t pos) {
  if (pos + k_token_length > text.size() || text.substr(pos, 3) != "^tr") {
    return false;
  }
  for (std::size_t i = pos + 3; i < pos + k_token_length; ++i) {
    if (!is_lower_hex(text[i])) {
      return false;
    }
  }
  return true;
}

struct Fence {
  char marker = '`';
  std::size_t length = 0;
};

// A run of at least 3 backticks or tildes after 0-3 spaces.
std::optional<Fence> fence_opener(std::string_view line) {
  std::size_t indent = 0;
  while (indent < line.size() && line[indent] == ' ') {
    ++indent;
  }
  if (indent > 3 || indent >= line.size() || (line[indent] != '`' && line[indent] != '~')) {
    return std::nullopt;
  }
  const char marker = line[indent];
  std::size_t run = 0;
  while (indent + run < line.size() && line[indent + run] == marker) {
    ++run;
  }
  if (run < 3) {
    return std::nullopt;
  }
  return Fence{marker, run};
}

bool closes_fence(std::string_view line, const Fence& fence) {
  const std::optional<Fence> run = fence_opener(line);
  if (!run || run->marker != fence.marker || run->length < fence.length) {
    return false;
  }
  const std::size_t after = line.find_first_not_of(' ');
  return is_only_blanks(line.substr(after + run->length));
}

// Walks `<!--` / `-->` pairs through one line. Returns whether the line ends inside a comment.
bool ends_in_comment(std::string_view line, bool in_comment) {
  std::size_t pos = 0;
  while (pos < line.size()) {
    if (in_comment) {
      const std::size_t close = line.find("-->", pos);
      if (close == std::string_view::npos) {
        return true;
      }
      in_comment = false;
      pos = close + 3;
    } else {
      const std::size_t open = line.find("<!--", pos);
      if (open == std::string_view::npos) {
        return false;
      }
      in_comment = true;
      pos = open + 4;
    }
  }
  return in_comment;
}

bool is_front_matter_fence(std::string_view line, bool closing) {
  line = trim_right_blanks(line);
  return line == "---" || (closing && line == "...");
}

// `- - -` and the like: only dashes and blanks, at least three dashes.
bool is_thematic_break(std::string_view line) {
  int dashes = 0;
  for (const char c : line) {
    if (c == '-') {
      ++dashes;
    } else if (!is_blank(c)) {
      return false;
    }
  }
  return dashes >= 3;
}

std::string_view last_token(std::string_view rest) {
  const std::size_t blank = rest.find_last_of(" \t");
  return blank == std::string_view::npos ? rest : rest.substr(blank + 1);
}

bool is_placeholder(std::string_view rest) {
  if (rest.empty()) {
    return true;
  }
  // A placeholder keeps being one even with an id after it (the id then becomes an orphan).
  if (last_token(rest).starts_with('^')) {
    rest = trim_right_blanks(rest.substr(0, rest.size() - last_token(rest).size()));
  }
  return rest.size() >= 2 && rest.front() == '[' && rest.back() == ']' &&
         rest.substr(1, rest.size() - 2).find(']') == std::string_view::npos;
}

bool is_key_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == ' ' ||
         c == '_' || c == '-' || c == '/' || c == '\'';
}

// The key of a field line's text (`**Key**: …` or `**Key** (note): …`), lower-cased with blanks
// and dashes as `_`; nullopt when the text is not a field.
std::optional<std::string> field_key(std::string_view rest) {
  if (!rest.starts_with("**") || rest.size() < 3 ||
      !std::isalpha(static_cast<unsigned char>(rest[2]))) {
    return std::nullopt;
  }
  std::size_t pos = 2;
  while (pos < rest.size() && is_key_char(rest[pos])) {
    ++pos;
  }
  if (rest.substr(pos, 2) != "**") {
    return std::nullopt;
  }
  std::string key;
  for (const char c : rest.substr(2, pos - 2)) {
    key += (c == ' ' || c == '-') ? '_'
                                  : static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  }
  pos += 2;
  if (rest.substr(pos, 2) == " (") {
    const std::size_t close = rest.find(')', pos);
    if (close == std::string_view::npos) {
      return std::nullopt;
    }
    pos = close + 1;
  }
  if (pos >= rest.size() || rest[pos] != ':') {
    return std::nullopt;
  }
  return key;
}

bool starts_claim_block(std::string_view rest) {
  const std::optional<std::string> key = field_key(rest);
  return key && std::find(k_claim_field_keys.begin(), k_claim_field_keys.end(), *key) !=
                    k_claim_field_keys.end();
}

// A claim block whose first field states what it is about (`- **Decision**: use uv`) is shown
// by that line; any other first field (`- **Type**: follow-up`) describes the block, and its
// section's heading names it better.
bool names_its_subject(std::string_view rest) {
  const std::optional<std::string> key = field_key(rest);
  return key && (*key == "claim" || *key == "choice" || *key == "decision" || *key == "goal");
}

// The text of a heading line: after the `#`s, without a trailing id, trimmed.
std::string heading_text(std::string_view line) {
  std::size_t start = line.find_first_not_of('#');
  std::string_view text = start == std::string_view::npos ? "" : line.substr(start);
  text = trim_right_blanks(text);
  if (const std::size_t caret = text.rfind(" ^tr"); caret != std::string_view::npos) {
    text = text.substr(0, caret);
  }
  while (!text.empty() && (text.front() == ' ' || text.front() == '\t')) {
    text.remove_prefix(1);
  }
  return std::string(trim_right_blanks(text));
}

// A list line that continues an open claim block: another field, or an italic note.
bool continues_claim_block(std::string_view rest) {
  return field_key(rest).has_value() ||
         (rest.size() >= 2 && (rest.front() == '*' || rest.front() == '_') && rest[1] != ' ');
}

struct Token {
  std::string id;         // without the caret or dash
  std::size_t begin = 0;  // in the line: first blank before the token
  std::size_t end = 0;    // in the line: after the token
};

// The id-shaped token ending `line` (before trailing blanks): ` ^tr` + 10 lowercase hex, or the
// older ` ^tr-` + 10 lowercase hex. Needs a blank before it.
std::optional<Token> trailing_token(std::string_view line) {
  const std::string_view kept = trim_right_blanks(line);
  const std::size_t blank = kept.find_last_of(" \t");
  if (blank == std::string_view::npos) {
    return std::nullopt;
  }
  std::string_view token = kept.substr(blank + 1);
  std::string id;
  if (token.size() == k_token_length && token_at(token, 0)) {
    id = std::string{token.substr(1)};
  } else if (token.size() == k_token_length + 1 && token.starts_with("^tr-") &&
             token_at(std::string("^tr") + std::string{token.substr(4)}, 0)) {
    id = "tr" + std::string{token.substr(4)};
  } else {
    return std::nullopt;
  }
  std::size_t begin = blank;
  while (begin > 0 && is_blank(kept[begin - 1])) {
    --begin;
  }
  return Token{std::move(id), begin, kept.size()};
}

// Something that looks like an attempt at an id: `^tr` then a hex digit or a dash.
bool mentions_id(std::string_view line) {
  for (std::size_t pos = line.find("^tr"); pos != std::string_view::npos;
       pos = line.find("^tr", pos + 1)) {
    if (pos + 3 < line.size()) {
      const char c = line[pos + 3];
      if (is_lower_hex(c) || (c >= 'A' && c <= 'F') || c == '-') {
        return true;
      }
    }
  }
  return false;
}

// Classifies the text after `- ` (trailing blanks already removed).
void classify(std::string_view rest, Entry& entry) {
  const bool tail_token =
      rest.size() >= k_token_length && token_at(rest, rest.size() - k_token_length);
  const bool tagged_shape = tail_token && (rest.size() == k_token_length ||
                                           rest[rest.size() - k_token_length - 1] == ' ');
  const std::size_t tail = tagged_shape ? rest.size() - k_token_length : std::string_view::npos;

  // Rule (b): a valid-looking id anywhere but the matched tail means a mid-line or doubled id.
  for (std::size_t pos = rest.find("^tr"); pos != std::string_view::npos;
       pos = rest.find("^tr", pos + 1)) {
    if (pos != tail && token_at(rest, pos)) {
      entry.state = EntryState::malformed;
      entry.bad_token = std::string{rest.substr(pos)};
      entry.text = std::string{rest};
      return;
    }
  }
  if (tagged_shape) {
    entry.state = EntryState::tagged;
    entry.id = std::string{rest.substr(tail + 1)};
    entry.text = tail == 0 ? std::string{} : std::string{rest.substr(0, tail - 1)};
    return;
  }
  entry.text = std::string{rest};
  // Rule (a): the last token tries to be an id but is not one (`^tr12`, `^TR…`, `^tr-…`), or a
  // tab stands where the space must be.
  const std::string_view token = last_token(rest);
  if (token.starts_with('^')) {
    entry.state = EntryState::malformed;
    entry.bad_token = std::string{token};
    return;
  }
  entry.state = EntryState::untagged;
}

Finding ignored_id_warning(const ManagedFile& file, int line, std::string_view what) {
  Finding finding;
  finding.check = "ignored-id";
  finding.severity = Severity::warning;
  finding.path = file.path;
  finding.line = line;
  finding.message =
      fmt::format("id on {} is ignored: only a list entry's first line carries its id", what);
  return finding;
}

}  // namespace

bool is_valid_id(std::string_view id) {
  if (id.size() != 2 + k_id_hex_length || !id.starts_with("tr")) {
    return false;
  }
  for (const char c : id.substr(2)) {
    if (!is_lower_hex(c)) {
      return false;
    }
  }
  return true;
}

std::optional<std::string> older_spelling_id(std::string_view token) {
  if (!token.starts_with("^tr-")) {
    return std::nullopt;
  }
  std::string id = "tr" + std::string(token.substr(4));
  if (!is_valid_id(id)) {
    return std::nullopt;
  }
  return id;
}

std::vector<std::string> find_id_tokens(std::string_view bytes) {
  std::vector<std::string> ids;
  for (std::size_t pos = bytes.find("^tr"); pos != std::string_view::npos;
       pos = bytes.find("^tr", pos + 1)) {
    if (token_at(bytes, pos)) {
      ids.emplace_back(bytes.substr(pos + 1, k_token_length - 1));
    }
  }
  return ids;
}

ParsedFile parse_file(ManagedFile file, std::string bytes) {
  ParsedFile parsed{std::move(file), std::move(bytes), {}, {}, {}};
  const std::string_view all{parsed.bytes};
  const std::vector<LineSpan> lines = split_lines(all);

  std::size_t first = 0;
  // Front matter only counts when it closes; a lone `---` on line 1 is a thematic break.
  if (!lines.empty() &&
      is_front_matter_fence(all.substr(lines[0].begin, lines[0].content_end - lines[0].begin),
                            false)) {
    for (std::size_t i = 1; i < lines.size(); ++i) {
      const LineSpan& span = lines[i];
      if (is_front_matter_fence(all.substr(span.begin, span.content_end - span.begin), true)) {
        first = i + 1;
        break;
      }
    }
  }

  std::optional<Fence> fence;
  bool in_comment = false;
  // The claim block being read, the list item whose indented lines follow, and the heading
  // whose section is being read (its strays, and how many entries the section had before it).
  std::optional<std::size_t> block;
  bool fence_in_block = false;
  std::optional<std::size_t> item;
  std::vector<std::size_t> heading_strays;
  std::size_t section_start = 0;
  std::string section_heading;  // the text of the heading whose section is being read

  const auto extend_block = [&](const LineSpan& span) {
    Entry& entry = parsed.entries[*block];
    if (entry.lines.empty()) {
      entry.lines = entry.raw;
    }
    entry.lines += '\n';
    entry.lines += all.substr(span.begin, span.content_end - span.begin);
    entry.end = span.end;
  };
  const auto add_stray = [&](int number, const LineSpan& span, StrayPlace place,
                             std::optional<std::size_t> owner, std::string_view what) {
    const std::string_view line = all.substr(span.begin, span.content_end - span.begin);
    Finding warning = ignored_id_warning(parsed.file, number, what);
    const std::optional<Token> token = trailing_token(line);
    if (token) {
      warning.fix = "git vault recall doctor";
      parsed.strays.push_back(StrayId{number, place, token->id, span.begin + token->begin,
                                      span.begin + token->end, owner});
      if (place == StrayPlace::heading) {
        heading_strays.push_back(parsed.strays.size() - 1);
      }
    }
    if (token || mentions_id(line)) {
      parsed.findings.push_back(std::move(warning));
    }
  };
  // A heading's id belongs to its section's entry when the section has exactly one.
  const auto close_section = [&] {
    const std::size_t count = parsed.entries.size() - section_start;
    for (const std::size_t index : heading_strays) {
      if (count == 1) {
        parsed.strays[index].owner = section_start;
      }
    }
    heading_strays.clear();
    section_start = parsed.entries.size();
  };

  for (std::size_t i = first; i < lines.size(); ++i) {
    const LineSpan& span = lines[i];
    const std::string_view line = all.substr(span.begin, span.content_end - span.begin);
    const int number = static_cast<int>(i) + 1;
    const bool indented = !line.empty() && is_blank(line.front());

    if (fence) {
      if (block && fence_in_block) {
        extend_block(span);
      }
      if (closes_fence(line, *fence)) {
        fence.reset();
      }
      continue;
    }
    if (!in_comment) {
      fence = fence_opener(line);
      if (fence) {
        // An indented fence is part of the list item above it (a code sample in a claim block).
        fence_in_block = block && indented;
        if (fence_in_block) {
          extend_block(span);
        } else {
          block.reset();
          if (!indented) {
            item.reset();
          }
        }
        continue;
      }
    }
    const bool starts_in_comment = in_comment;
    in_comment = ends_in_comment(line, in_comment);
    if (starts_in_comment || in_comment) {
      block.reset();
      continue;
    }

    const bool blank = is_only_blanks(line);
    if (block) {
      if (!blank && (indented || (line.starts_with("- ") &&
                                  continues_claim_block(trim_right_blanks(line.substr(2)))))) {
        extend_block(span);
        add_stray(number, span, StrayPlace::block_line, block,
                  "a later line of a claim block (a block's id goes on its first line)");
        continue;
      }
      block.reset();
    }
    if (blank) {
      continue;
    }
    if (indented) {
      add_stray(number, span, StrayPlace::continuation, item, "an indented line");
      continue;
    }
    if (!line.starts_with("- ")) {
      item.reset();
      if (line.starts_with('#')) {
        close_section();
        section_heading = heading_text(line);
        add_stray(number, span, StrayPlace::heading, std::nullopt, "a heading");
      } else {
        add_stray(number, span, StrayPlace::other, std::nullopt, "a line that is not a list entry");
      }
      continue;
    }
    const std::string_view rest = trim_right_blanks(line.substr(2));
    if (is_thematic_break(line)) {
      item.reset();
      continue;
    }
    if (is_placeholder(rest)) {
      item.reset();
      add_stray(number, span, StrayPlace::placeholder, std::nullopt, "a placeholder");
      continue;
    }

    Entry entry;
    entry.line = number;
    entry.begin = span.begin;
    entry.content_end = span.content_end;
    entry.end = span.end;
    entry.raw = std::string{line};
    classify(rest, entry);
    parsed.entries.push_back(std::move(entry));
    item = parsed.entries.size() - 1;
    if (starts_claim_block(rest)) {
      block = item;
      if (!names_its_subject(rest)) {
        parsed.entries.back().heading = section_heading;
      }
    }
  }
  close_section();
  return parsed;
}

}  // namespace gv::recall
