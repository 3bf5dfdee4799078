#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

// Byte-exact text surgery shared by the merge and compress rewrites: untouched bytes stay
// identical (D9).
namespace gv::distill {

// Replace [begin, end) of a text with `text` (an insertion when begin == end).
struct TextEdit {
  std::size_t begin = 0;
  std::size_t end = 0;
  std::string text;
};

// `text` with the edits applied. Edits must not overlap; their order does not matter.
[[nodiscard]] std::string apply_edits(std::string_view text, std::vector<TextEdit> edits);

// `text` without its leading blank lines (the first line with content keeps its indentation)
// and without trailing whitespace.
[[nodiscard]] std::string_view trim_blank_lines(std::string_view text);

// `text` with every heading outside fenced code two levels deeper (at most `######`), so old
// content can sit under a `###` entry of `## History` (or `### Pre-Compression`) without a
// `## Merged From` of its own ending the History section (D3 would count the rest as live
// content again).
[[nodiscard]] std::string demote_headings(std::string_view text);

// `text` with each bare `\n` written as `eol`, so generated lines match a CRLF file.
[[nodiscard]] std::string with_eol(std::string_view text, std::string_view eol);

}  // namespace gv::distill
