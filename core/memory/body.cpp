#include "core/memory/body.hpp"

#include "core/memory/lines.hpp"
#include "core/util/text.hpp"

namespace gv {
namespace {

using util::trim;

// An ATX heading line: up to three spaces, 1-6 `#`, then a space/tab or the end of the line.
std::optional<Heading> parse_heading(std::string_view line) {
  std::size_t pos = 0;
  while (pos < line.size() && pos < 3 && line[pos] == ' ') {
    ++pos;
  }
  std::size_t hashes = 0;
  while (pos + hashes < line.size() && line[pos + hashes] == '#') {
    ++hashes;
  }
  if (hashes == 0 || hashes > 6) {
    return std::nullopt;
  }
  const std::size_t after = pos + hashes;
  if (after < line.size() && line[after] != ' ' && line[after] != '\t') {
    return std::nullopt;
  }
  Heading heading;
  heading.level = static_cast<int>(hashes);
  heading.text = trim(line.substr(after));
  return heading;
}

// The end of the section starting at headings[index]: the next level-1/2 heading or `end`.
std::size_t section_end(const std::vector<Heading>& headings, std::size_t index, std::size_t end) {
  for (std::size_t i = index + 1; i < headings.size(); ++i) {
    if (headings[i].level <= 2) {
      return headings[i].begin;
    }
  }
  return end;
}

}  // namespace

std::vector<Heading> find_headings(std::string_view text) {
  std::vector<Heading> headings;
  FenceTracker fence;
  int number = 0;
  for (const TextLine& line : split_lines(text)) {
    ++number;
    const std::string_view content = line_text(text, line);
    if (fence.feed(content)) {
      continue;
    }
    if (auto heading = parse_heading(content)) {
      heading->begin = line.begin;
      heading->next = line.next;
      heading->line = number;
      headings.push_back(*heading);
    }
  }
  return headings;
}

BodySections locate_sections(std::string_view body) {
  BodySections sections;
  sections.headings = find_headings(body);
  const auto& headings = sections.headings;

  for (const Heading& heading : headings) {
    if (heading.level == 2) {
      break;
    }
    if (heading.level == 1) {
      sections.title_line = ByteRange{heading.begin, heading.next};
      sections.title = heading.text;
      break;
    }
  }

  std::optional<std::size_t> first_boundary;
  for (std::size_t i = 0; i < headings.size(); ++i) {
    if (headings[i].level != 2) {
      continue;
    }
    const bool is_history = headings[i].text == "History";
    const bool is_connections = headings[i].text == "Connections";
    if (is_history && !sections.history) {
      sections.history = ByteRange{headings[i].begin, section_end(headings, i, body.size())};
    }
    if (is_connections && !sections.connections) {
      sections.connections = ByteRange{headings[i].begin, section_end(headings, i, body.size())};
    }
    if ((is_history || is_connections) && !first_boundary) {
      first_boundary = headings[i].begin;
    }
  }

  const std::size_t main_begin = sections.title_line ? sections.title_line->end : 0;
  std::size_t main_end = first_boundary.value_or(body.size());
  if (main_end < main_begin) {  // a History heading above the title: main content is empty
    main_end = main_begin;
  }
  sections.main = ByteRange{main_begin, main_end};
  return sections;
}

std::vector<ByteRange> html_comments(std::string_view body) {
  std::vector<ByteRange> comments;
  FenceTracker fence;
  std::optional<std::size_t> open;  // where the comment being read began
  for (const TextLine& line : split_lines(body)) {
    const std::string_view content = line_text(body, line);
    if (!open && fence.feed(content)) {
      continue;
    }
    std::size_t pos = 0;
    while (pos < content.size()) {
      if (open) {
        const auto close = content.find("-->", pos);
        if (close == std::string_view::npos) {
          break;
        }
        comments.push_back({*open, line.begin + close + 3});
        open.reset();
        pos = close + 3;
        continue;
      }
      const auto start = content.find("<!--", pos);
      if (start == std::string_view::npos) {
        break;
      }
      open = line.begin + start;
      pos = start + 4;
    }
  }
  if (open) {
    comments.push_back({*open, body.size()});
  }
  return comments;
}

void for_each_wiki_link(std::string_view body,
                        const std::function<void(const WikiLinkSpan&)>& visit) {
  FenceTracker fence;
  bool in_comment = false;
  for (const TextLine& line : split_lines(body)) {
    const std::string_view content = line_text(body, line);
    if (!in_comment && fence.feed(content)) {
      continue;
    }
    std::size_t pos = 0;
    while (pos < content.size()) {
      if (in_comment) {
        const auto close = content.find("-->", pos);
        if (close == std::string_view::npos) {
          break;
        }
        in_comment = false;
        pos = close + 3;
        continue;
      }
      const auto open_comment = content.find("<!--", pos);
      const auto open_link = content.find("[[", pos);
      if (open_comment != std::string_view::npos &&
          (open_link == std::string_view::npos || open_comment < open_link)) {
        in_comment = true;
        pos = open_comment + 4;
        continue;
      }
      if (open_link == std::string_view::npos) {
        break;
      }
      const auto close = content.find("]]", open_link + 2);
      if (close == std::string_view::npos) {
        break;
      }
      visit(WikiLinkSpan{content.substr(open_link + 2, close - open_link - 2),
                         line.begin + open_link + 2});
      pos = close + 2;
    }
  }
}

std::vector<WikiLink> wiki_link_targets(std::string_view body) {
  std::vector<WikiLink> links;
  for_each_wiki_link(body, [&](const WikiLinkSpan& span) {
    std::string_view target = span.inner;
    target = target.substr(0, target.find('|'));
    target = target.substr(0, target.find('#'));
    target = trim(target);
    if (!target.empty() && target.find('[') == std::string_view::npos) {
      links.push_back({std::string(target), span.offset});
    }
  });
  return links;
}

std::vector<std::string> wiki_links(std::string_view body) {
  std::vector<std::string> targets;
  for (WikiLink& link : wiki_link_targets(body)) {
    targets.push_back(std::move(link.target));
  }
  return targets;
}

}  // namespace gv
