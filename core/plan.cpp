#include "core/plan.hpp"

#include <algorithm>
#include <cctype>

#include "core/util/text.hpp"

namespace gv {

namespace {

bool is_blank(std::string_view line) {
  return std::all_of(line.begin(), line.end(),
                     [](unsigned char c) { return std::isspace(c) != 0; });
}

using util::trim;

// `Key: value` with a key of letters, digits and dashes, as git's interpret-trailers accepts.
std::optional<Trailer> parse_trailer_line(std::string_view line) {
  const auto colon = line.find(':');
  if (colon == std::string_view::npos || colon == 0) {
    return std::nullopt;
  }
  const std::string_view key = trim(line.substr(0, colon));
  if (key.empty() || !std::all_of(key.begin(), key.end(), [](unsigned char c) {
        return std::isalnum(c) != 0 || c == '-';
      })) {
    return std::nullopt;
  }
  return Trailer{std::string(key), std::string(trim(line.substr(colon + 1)))};
}

std::vector<std::string_view> message_lines(std::string_view text) {
  std::vector<std::string_view> lines;
  while (!text.empty()) {
    const auto end = text.find('\n');
    if (end == std::string_view::npos) {
      lines.push_back(text);
      break;
    }
    lines.push_back(text.substr(0, end));
    text.remove_prefix(end + 1);
  }
  return lines;
}

bool iequals(std::string_view a, std::string_view b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return std::tolower(static_cast<unsigned char>(x)) ==
                  std::tolower(static_cast<unsigned char>(y));
         });
}

}  // namespace

std::vector<Trailer> Plan::trailers() const {
  std::vector<Trailer> out;
  if (!action.empty()) {
    out.push_back({k_trailer_action, action});
  }
  if (!log_id.empty()) {
    out.push_back({k_trailer_log_id, log_id});
  }
  if (!memories.empty()) {
    std::string joined;
    for (const std::string& id : memories) {
      joined += joined.empty() ? id : ", " + id;
    }
    out.push_back({k_trailer_memories, std::move(joined)});
  }
  return out;
}

std::string Plan::message() const {
  std::string out(trim(subject));
  out += '\n';
  const std::string_view trimmed_body = trim(body);
  if (!trimmed_body.empty()) {
    out += '\n';
    out += trimmed_body;
    out += '\n';
  }
  const std::vector<Trailer> list = trailers();
  if (!list.empty()) {
    out += '\n';
    out += format_trailers(list);
  }
  return out;
}

std::string format_trailers(const std::vector<Trailer>& trailers) {
  std::string out;
  for (const Trailer& trailer : trailers) {
    // A long list (Vault-Memories of a purge at 10,000 memories: 148,000 characters) is folded
    // after its commas onto continuation lines, which begin with a space, as git folds
    // trailers; parse_trailers joins them back into the same value.
    std::string line = trailer.key + ": ";
    std::string_view rest = trailer.value;
    while (line.size() + rest.size() > k_trailer_width) {
      const std::size_t room = k_trailer_width > line.size() ? k_trailer_width - line.size() : 0;
      // The last comma that still fits (the line keeps it); an item longer than the room
      // stays whole on a line of its own.
      std::size_t cut = room > 0 ? rest.rfind(", ", room - 1) : std::string_view::npos;
      if (cut == std::string_view::npos) {
        cut = rest.find(", ");
      }
      if (cut == std::string_view::npos) {
        break;
      }
      out += line;
      out += std::string_view(rest.substr(0, cut + 1));
      out += '\n';
      rest.remove_prefix(cut + 2);
      line = " ";
    }
    out += line;
    out += rest;
    out += '\n';
  }
  return out;
}

std::vector<Trailer> parse_trailers(std::string_view message) {
  std::vector<std::string_view> lines;
  for (std::string_view line : message_lines(message)) {
    if (!line.empty() && line.back() == '\r') {
      line.remove_suffix(1);
    }
    // git strips comment lines from messages it edits; a stray one must not hide the trailers.
    if (!line.starts_with('#')) {
      lines.push_back(line);
    }
  }
  while (!lines.empty() && is_blank(lines.back())) {
    lines.pop_back();
  }
  // The last paragraph starts after the last blank line; the subject paragraph never counts.
  std::size_t start = lines.size();
  while (start > 0 && !is_blank(lines[start - 1])) {
    --start;
  }
  if (start == 0) {
    return {};
  }
  std::vector<Trailer> out;
  for (std::size_t i = start; i < lines.size(); ++i) {
    const std::string_view line = lines[i];
    if (line.front() == ' ' || line.front() == '\t') {
      if (out.empty()) {
        return {};
      }
      out.back().value += ' ';
      out.back().value += trim(line);
      continue;
    }
    std::optional<Trailer> trailer = parse_trailer_line(line);
    if (!trailer) {
      return {};  // a prose paragraph, not a trailer block
    }
    out.push_back(std::move(*trailer));
  }
  return out;
}

std::optional<std::string> find_trailer(const std::vector<Trailer>& trailers,
                                        std::string_view key) {
  for (const Trailer& trailer : trailers) {
    if (iequals(trailer.key, key)) {
      return trailer.value;
    }
  }
  return std::nullopt;
}

}  // namespace gv
