#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace gv::review {

// One top-level frontmatter field rendered for people: `lines` is what follows `key:` — a single
// scalar line, or one line per list item (`- item`), or the indented block of a nested map.
// An empty list reads `[]`, an empty string `""`.
// Quotes are gone and every null spelling (``, `~`, `null`) reads `null`, so two files that
// say the same thing in different YAML styles render the same.
struct RenderedField {
  std::string key;
  std::string inline_value;        // after `key: `; empty when `lines` carry the value
  std::vector<std::string> lines;  // list items or nested block, already indented
  [[nodiscard]] bool operator==(const RenderedField&) const = default;
};

// The frontmatter fields of a memory file in file order, or nullopt when the file has no
// frontmatter or it is not a YAML mapping. Never throws.
[[nodiscard]] std::optional<std::vector<RenderedField>> render_fields(std::string_view bytes);

// What `git vault diff-text` prints, the diff driver's textconv: the file with its frontmatter
// rewritten one field per line and every list exploded one item per line, so adding a keyword
// is one `+` line in `git diff`; the body follows byte for byte. A file without a readable
// frontmatter is returned unchanged.
[[nodiscard]] std::string normalise_for_diff(std::string_view bytes);

}  // namespace gv::review
