#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

namespace gv::git {

// A moment as git records it in a signature.
struct GitTime {
  std::int64_t seconds = 0;  // since the Unix epoch, UTC
  int offset_minutes = 0;    // the author's time zone, east of UTC positive
};

// Parses the date formats git accepts in GIT_AUTHOR_DATE / GIT_COMMITTER_DATE that people and
// scripts actually use: git's internal `1700000000 +0100` (optionally `@`-prefixed), ISO 8601
// `2026-11-30T12:00:00Z` / `2026-11-30 12:00:00 +01:00` (no zone: local time), and RFC 2822
// `Mon, 30 Nov 2026 12:00:00 +0000`. nullopt for anything else.
[[nodiscard]] std::optional<GitTime> parse_git_date(std::string_view text);

}  // namespace gv::git
