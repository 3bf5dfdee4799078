#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "core/dates.hpp"
#include "core/memory/memory.hpp"
#include "core/vault/index_row.hpp"

namespace gv {

// The three files `git vault index` generates from the memory files alone (D4). Paths are
// repo-relative, like Memory::path.
inline constexpr std::string_view k_index_json_path = ".memory/memory-index.json";
inline constexpr std::string_view k_index_md_path = ".memory/20-Indices/index.md";
inline constexpr std::string_view k_memories_readme_path = ".memory/10-Memories/README.md";

// The version string a regeneration writes. Readers also accept the number 1 (observed), but a
// file carrying it is stale because a regeneration would rewrite it.
inline constexpr std::string_view k_index_version = "1.0.0";

// `.memory/memory-index.json`, byte-exact: entries sorted by id (byte order) whatever the input
// order, keys in the distill schema order, tombstoned memories included, 2-space indent, UTF-8
// written as is (invalid bytes become U+FFFD rather than failing), trailing newline.
// `generated_at` is written verbatim so a caller can re-render with an existing file's value.
// `total_tokens` sums every entry, tombstoned ones too, as the original does; `entry_count`
// counts them too.
[[nodiscard]] std::string render_index_json(const std::vector<Memory>& memories,
                                            std::string_view generated_at);

// `.memory/20-Indices/index.md`, active memories only, no generation date (D4), so the same
// vault always renders the same bytes. See the .cpp for the layout rules.
[[nodiscard]] std::string render_index_md(const std::vector<Memory>& memories);
[[nodiscard]] std::string render_index_md(const std::vector<IndexRow>& rows);

// `.memory/10-Memories/README.md`, active memories only, id ascending.
[[nodiscard]] std::string render_memories_readme(const std::vector<Memory>& memories);
[[nodiscard]] std::string render_memories_readme(const std::vector<IndexRow>& rows);

// All three files, rendered for `today`.
struct IndexFiles {
  std::string index_json;
  std::string index_md;
  std::string memories_readme;
};
[[nodiscard]] IndexFiles render_index_files(const std::vector<Memory>& memories, Date today);

}  // namespace gv
