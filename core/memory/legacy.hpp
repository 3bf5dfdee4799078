#pragma once

#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

// Memories written in the vault's older layouts, and their conversion to the current one
// (doc/vault-format.md, "Older layouts"): what `git vault migrate` does to one file.
namespace gv::legacy {

enum class Layout {
  current,      // frontmatter with a title and a created date: nothing to migrate
  bold_fields,  // no frontmatter; `# Memory: Title` and `**Category**: [PATTERN]` lines
  old_fields,   // frontmatter with the early skeleton's `date` / `last_updated` fields, or
                // without a title or created date that the file itself supplies
  unreadable,   // broken in a way no mechanical conversion repairs (bad YAML, say)
};

struct Conversion {
  Layout layout = Layout::current;
  std::string bytes;  // the converted file (layouts bold_fields and old_fields)
  // What the conversion did, one phrase each, in file order:
  // `frontmatter from **Category**, **Date** and **Source**`, `date -> created`, ...
  std::vector<std::string> changes;
  // The created date came from the fallback (the file named none), so a reviewer can check it.
  bool created_from_fallback = false;
  // Layout unreadable: why, as parse_memory says it (`path:line: message`), and its fix.
  std::string problem;
  std::string fix;
};

// Converts one memory file. `fallback_created` is asked (at most once) for a `YYYY-MM-DD` when
// the file names no creation date; the caller decides where that comes from (the commit that
// added the file, or today). The result always parses without errors (parse_memory) when its
// layout is bold_fields or old_fields; a conversion that would not is reported unreadable.
// Values are kept as written (D15): a legacy field that has no place in the current layout
// (`**Artifact**: …`) becomes a frontmatter field of the same name in snake case. Pure.
[[nodiscard]] Conversion convert(std::string_view path, std::string_view bytes,
                                 const std::function<std::string()>& fallback_created);

}  // namespace gv::legacy
