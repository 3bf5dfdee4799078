#pragma once

#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace gv {

// An ATX heading (`#` … `######`) outside fenced code. Offsets are into the text scanned.
struct Heading {
  int level = 0;
  std::string_view text;  // trimmed, without the `#` marks
  std::size_t begin = 0;  // start of the heading line
  std::size_t next = 0;   // start of the line after it
  int line = 0;           // 1-based, within the text scanned
};

// A byte range [begin, end) of the body.
struct ByteRange {
  std::size_t begin = 0;
  std::size_t end = 0;

  [[nodiscard]] bool empty() const { return begin == end; }
};

// The parts of a memory body that merge, compress and the token count care about (D9).
// All ranges are byte offsets into the body passed to locate_sections.
struct BodySections {
  // The `# title` line (first level-1 heading before any level-2 heading), including its
  // line ending. Absent in legacy files without one.
  std::optional<ByteRange> title_line;
  std::string_view title;
  // After the title line (or from the body start) to the first of `## History` /
  // `## Connections`, or the end.
  ByteRange main;
  // From the `## History` heading line to the next level-1/2 heading or the end.
  std::optional<ByteRange> history;
  // From the `## Connections` heading line to the next level-1/2 heading or the end.
  std::optional<ByteRange> connections;
  std::vector<Heading> headings;  // every heading outside fences, in order
};

// Lines inside fenced code are never headings, so a fenced `## History` is just content.
[[nodiscard]] std::vector<Heading> find_headings(std::string_view text);

[[nodiscard]] BodySections locate_sections(std::string_view body);

// Every `[[...]]` in `body`, in order, outside fenced code and HTML comments: `inner` is the text
// between the brackets and `offset` where it starts in `body`. What counts as a link target is
// the caller's to decide (wiki_links and the merge's link rewriting read it alike).
struct WikiLinkSpan {
  std::string_view inner;
  std::size_t offset = 0;
};
void for_each_wiki_link(std::string_view body,
                        const std::function<void(const WikiLinkSpan&)>& visit);

// The HTML comments of `body` (`<!--` to `-->`, across lines) outside fenced code, in order; an
// unclosed comment runs to the end.
[[nodiscard]] std::vector<ByteRange> html_comments(std::string_view body);

// `[[target]]` wiki-link targets in order, with `|alias` and `#anchor` removed and whitespace
// trimmed. Links inside fenced code or HTML comments (the template's
// `<!-- ... [[filename]] syntax -->` placeholder) are not links.
[[nodiscard]] std::vector<std::string> wiki_links(std::string_view body);

// The same targets, each with the offset in `body` where its text starts.
struct WikiLink {
  std::string target;
  std::size_t offset = 0;
};
[[nodiscard]] std::vector<WikiLink> wiki_link_targets(std::string_view body);

}  // namespace gv
