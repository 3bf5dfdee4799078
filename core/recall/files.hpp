#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/snapshot/snapshot.hpp"

namespace gv::recall {

// Where a working-memory line lives. The file's location is authoritative: metadata may
// say otherwise, but the tier always comes from the path.
enum class Tier { working, register_, archive };

// `working`, `register` or `archive`: the names metadata.json and messages use.
[[nodiscard]] std::string_view tier_name(Tier tier);
[[nodiscard]] std::optional<Tier> parse_tier_name(std::string_view name);

// One managed file: `CLAUDE.local.md`, `memory/registers/*.md` or `memory/archive/**/*.md`.
struct ManagedFile {
  std::string path;          // repo-relative, as the Snapshot names it
  std::string display_path;  // relative to the project root, leading `memory/` removed
  Tier tier = Tier::working;
};

// The tier of a path relative to the project root, or nullopt when the file is not managed:
// registers are non-recursive, archive is recursive, `.md` is case-sensitive, and any path
// component starting with `.` is skipped.
[[nodiscard]] std::optional<Tier> tier_of(std::string_view relative_path);

// `memory/registers/people.md` -> `registers/people.md`; other paths unchanged.
[[nodiscard]] std::string display_path(std::string_view relative_path);

// The managed files of the project at `root` (`` for the repository root, else a directory
// prefix such as `sub/dir/`), in scan order: CLAUDE.local.md, registers by file name bytes,
// then archive files by relative path bytes. Scan order is what every line list, tie-break and
// numbering follows.
[[nodiscard]] std::vector<ManagedFile> list_managed_files(const Snapshot& snapshot,
                                                          std::string_view root = {});

}  // namespace gv::recall
