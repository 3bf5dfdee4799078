#include "core/secrets/detector.hpp"

#include <algorithm>
#include <optional>

#include "core/secrets/rules.hpp"
#include "core/secrets/shape.hpp"

namespace gv::secrets {
namespace {

// Key material a private key block needs before it counts: a header alone, as prose quotes it
// ("a PEM key starts with -----BEGIN RSA PRIVATE KEY-----"), is not a key.
constexpr std::size_t k_min_key_material = 64;
// How far a block without its END line is followed.
constexpr int k_max_key_lines = 200;

struct Line {
  std::size_t begin = 0;  // in the text
  std::string_view text;  // without the newline
};

// Lines of `text` one at a time, with their offsets.
class Lines {
 public:
  explicit Lines(std::string_view text) : m_text(text) {}
  // The line starting at `at`, or nullopt past the end.
  [[nodiscard]] std::optional<Line> at(std::size_t at) const {
    if (at > m_text.size() || (at == m_text.size() && !m_text.empty() && at != 0)) {
      return std::nullopt;
    }
    const std::size_t end = m_text.find('\n', at);
    const std::size_t stop = end == std::string_view::npos ? m_text.size() : end;
    return Line{at, m_text.substr(at, stop - at)};
  }
  [[nodiscard]] std::size_t next(const Line& line) const {
    return line.begin + line.text.size() + 1;
  }

 private:
  std::string_view m_text;
};

// A Markdown fence: three or more backticks or tildes after at most three spaces.
struct Fence {
  char mark = 0;
  std::size_t length = 0;
};

std::optional<Fence> fence_of(std::string_view line) {
  std::size_t indent = 0;
  while (indent < line.size() && indent < 4 && line[indent] == ' ') {
    ++indent;
  }
  if (indent > 3 || indent >= line.size() || (line[indent] != '`' && line[indent] != '~')) {
    return std::nullopt;
  }
  const char mark = line[indent];
  std::size_t length = 0;
  while (indent + length < line.size() && line[indent + length] == mark) {
    ++length;
  }
  if (length < 3) {
    return std::nullopt;
  }
  return Fence{mark, length};
}

bool closes(const Fence& open, std::string_view line) {
  const std::optional<Fence> fence = fence_of(line);
  if (!fence || fence->mark != open.mark || fence->length < open.length) {
    return false;
  }
  const std::size_t after = line.find_first_not_of(" `~");
  return after == std::string_view::npos ||
         line.substr(after).find_first_not_of(" \t\r") == std::string_view::npos;
}

bool allowed(std::string_view line) { return line.find(k_allow_marker) != std::string_view::npos; }

std::size_t key_material(std::string_view region) {
  return static_cast<std::size_t>(std::count_if(region.begin(), region.end(), is_base64_char));
}

bool only_key_material(std::string_view line) {
  std::size_t count = 0;
  for (const char c : line) {
    if (is_base64_char(c)) {
      ++count;
    } else if (c != '\r' && c != ' ' && c != '\t') {
      return false;
    }
  }
  return count > 0;
}

// An armor header between a key's first line and its material: `Version: GnuPG`,
// `Proc-Type: 4,ENCRYPTED`, `DEK-Info: …`.
bool armor_header(std::string_view line) {
  const std::size_t colon = line.find(": ");
  if (colon == std::string_view::npos || colon == 0 || !is_alnum(line[0])) {
    return false;
  }
  return std::all_of(line.begin(), line.begin() + static_cast<std::ptrdiff_t>(colon),
                     [](char c) { return is_alnum(c) || c == '-'; });
}

bool blank_line(std::string_view line) {
  return line.find_first_not_of(" \t\r") == std::string_view::npos;
}

// The end of a `-----END …-----` marker at or after `at` on a line ending at `line_end`.
std::size_t end_of_marker(std::string_view text, std::size_t at, std::size_t line_end) {
  const std::size_t close = text.find("-----", at + 8);
  return close == std::string_view::npos ? line_end : std::min(close + 5, line_end);
}

// A private key whose header is on `line` (at `header` in it): the match from the header to
// the end of its END line, or through its last line of key material when the END line is
// missing; nullopt when too little key material follows to be a key.
std::optional<Match> private_key(std::string_view text, const Lines& lines, const Line& line,
                                 std::size_t header, int number) {
  const std::size_t begin = line.begin + header;
  const std::size_t line_end = line.begin + line.text.size();
  const std::size_t header_end = text.find("-----", begin + 10);
  if (header_end == std::string_view::npos || header_end + 5 > line_end) {
    return std::nullopt;
  }
  const std::size_t material_at = header_end + 5;
  // A whole key on one line: a JSON string with `\n` escapes.
  const std::size_t same_line = text.find("-----END", material_at);
  if (same_line != std::string_view::npos && same_line < line_end) {
    if (key_material(text.substr(material_at, same_line - material_at)) < k_min_key_material) {
      return std::nullopt;
    }
    return Match{number, "private key", begin, end_of_marker(text, same_line, line_end)};
  }
  std::size_t material = key_material(text.substr(material_at, line_end - material_at));
  std::size_t end = line_end;
  std::optional<Line> next = lines.at(lines.next(line));
  for (int followed = 0; next && followed < k_max_key_lines;
       next = lines.at(lines.next(*next)), ++followed) {
    if (only_key_material(next->text)) {
      material += key_material(next->text);
      end = next->begin + next->text.size();
    } else if (!blank_line(next->text) && !armor_header(next->text)) {
      break;
    }
  }
  if (material < k_min_key_material) {
    return std::nullopt;
  }
  if (next) {
    const std::size_t marker = next->text.find("-----END");
    if (marker != std::string_view::npos) {
      end = end_of_marker(text, next->begin + marker, next->begin + next->text.size());
    }
  }
  return Match{number, "private key", begin, end};
}

std::optional<std::size_t> private_key_header(std::string_view line) {
  const std::size_t begin = line.find("-----BEGIN");
  if (begin == std::string_view::npos) {
    return std::nullopt;
  }
  const std::size_t key = line.find("PRIVATE KEY", begin);
  const std::size_t close = line.find("-----", begin + 10);
  if (key == std::string_view::npos || close == std::string_view::npos || key > close) {
    return std::nullopt;
  }
  return begin;
}

}  // namespace

std::vector<Match> find_secrets(std::string_view text) {
  std::vector<Match> matches;
  std::vector<LineMatch> on_line;
  const Lines lines(text);
  std::optional<Fence> allowed_block;
  std::optional<Fence> open_block;
  std::size_t covered_until = 0;  // a private key's bytes, matched already
  int number = 0;
  for (std::optional<Line> line = lines.at(0); line; line = lines.at(lines.next(*line))) {
    ++number;
    if (open_block) {
      if (closes(*open_block, line->text)) {
        open_block.reset();
        allowed_block.reset();
        continue;
      }
      if (allowed_block) {
        continue;
      }
    } else if (const std::optional<Fence> fence = fence_of(line->text)) {
      open_block = fence;
      if (allowed(line->text)) {
        allowed_block = fence;
      }
      continue;
    }
    if (allowed(line->text)) {
      continue;
    }
    const std::size_t line_end = line->begin + line->text.size();
    if (line_end <= covered_until) {
      continue;
    }
    // Only what a key already matched has not covered (the rest of its END line).
    const std::size_t skip = covered_until > line->begin ? covered_until - line->begin : 0;
    const std::string_view rest = line->text.substr(skip);
    if (const std::optional<std::size_t> header = private_key_header(rest)) {
      if (std::optional<Match> key = private_key(text, lines, *line, skip + *header, number)) {
        matches.push_back(*key);
        covered_until = key->end;
        continue;
      }
    }
    on_line.clear();
    match_line(rest, on_line);
    for (const LineMatch& match : on_line) {
      matches.push_back(
          {number, match.kind, line->begin + skip + match.begin, line->begin + skip + match.end});
    }
  }
  return matches;
}

std::vector<SecretFinding> scan_secrets(std::string_view text) {
  std::vector<SecretFinding> findings;
  for (const Match& match : find_secrets(text)) {
    if (findings.empty() || findings.back().line != match.line) {
      findings.push_back({match.line, std::string(match.kind)});
    }
  }
  return findings;
}

bool contains_secret(std::string_view text) { return !find_secrets(text).empty(); }

std::string withhold_secrets(std::string_view text) {
  std::vector<Match> matches = find_secrets(text);
  if (matches.empty()) {
    return std::string(text);
  }
  std::stable_sort(matches.begin(), matches.end(),
                   [](const Match& a, const Match& b) { return a.begin < b.begin; });
  std::string out;
  out.reserve(text.size());
  std::size_t at = 0;
  for (const Match& match : matches) {
    if (match.end <= at) {
      continue;  // inside one replaced already
    }
    const std::size_t begin = std::max(match.begin, at);
    out.append(text.substr(at, begin - at));
    if (begin == match.begin) {
      out += "[secret withheld: ";
      out += match.kind;
      out += "]";
    }
    at = match.end;
  }
  out.append(text.substr(at));
  return out;
}

}  // namespace gv::secrets
