#pragma once

#include <cstddef>
#include <string_view>
#include <vector>

// The one-line rules of the secret detector (doc/secrets.md, "Rules"). Private keys span lines
// and are found by the detector itself (core/secrets/detector.cpp).
namespace gv::secrets {

// A credential-shaped value on a line: its bytes [begin, end) in the line, and its kind.
struct LineMatch {
  std::size_t begin = 0;
  std::size_t end = 0;
  std::string_view kind;  // static text: `GitHub token`, `password assignment`, ...
};

// Appends every match on `line` (no newline in it), rule by rule in the order of the rule
// table, so the first match appended names the line's kind. Matches of different rules may
// overlap (`token: ghp_…` is a GitHub token and an assignment).
void match_line(std::string_view line, std::vector<LineMatch>& out);

}  // namespace gv::secrets
