#pragma once

#include <cstddef>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/recall/metadata.hpp"

namespace gv {
class Snapshot;
}

// What `git vault show` and MCP get_memory open: anything search returns, named the way a
// person or an agent would name it (doc/agent.md, "git vault show").
namespace gv::agent {

// A working-memory entry, as show prints it.
struct FoundEntry {
  std::string id;       // `tr…` without the caret
  std::string path;     // repo-relative
  int line = 0;         // 1-based, of the entry's first line
  std::string tier;     // `working`, `register` or `archive`
  std::string file;     // as recall shows it: `registers/decisions.md`
  std::string heading;  // the `##` heading the entry sits under, empty when none
  std::string text;     // every line of the entry
  std::optional<recall::Record> metadata;
};

struct Found {
  enum class Kind { memory, entry };
  Kind kind = Kind::memory;
  std::string name;       // what was asked for
  std::string memory_id;  // memories
  std::optional<FoundEntry> entry;
};

// Longer names are refused before any search: no memory id or path is that long, and an
// edit-distance search over a vault with a 200 KB name would take seconds.
inline constexpr std::size_t k_max_name_length = 255;

// The memory ids of the vault at `root`: the `MEM-*.md` file names in
// `.memory/10-Memories/`, listed without reading a file, sorted. Empty when there is no vault.
[[nodiscard]] std::vector<std::string> list_memory_ids(const std::filesystem::path& root);

// Resolves each of `names`, in order, each once (a name repeated, or two names of one thing,
// are shown once): a memory id (`MEM-x`), its file name (`MEM-x.md`) or path (with or without
// `.memory/`), a working-memory entry id (`^tr…` or `tr…`), or a prefix of exactly one memory
// id (`MEM-retry` for `MEM-retry-backoff`). `ids` comes from list_memory_ids. Throws gv::Error
// listing every name that matches nothing (with the closest ids) or more than one thing (with
// the candidates).
[[nodiscard]] std::vector<Found> resolve_names(const std::vector<std::string>& names,
                                               const std::vector<std::string>& ids,
                                               const Snapshot& snapshot);

// Up to `count` ids of `ids` closest to `name` (case, a part of it, a small edit distance),
// closest first.
[[nodiscard]] std::vector<std::string> closest_ids(std::string_view name,
                                                   const std::vector<std::string>& ids,
                                                   std::size_t count = 3);

}  // namespace gv::agent
