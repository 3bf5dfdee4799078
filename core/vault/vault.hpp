#pragma once

#include <cstddef>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "core/finding.hpp"
#include "core/memory/memory.hpp"
#include "core/memory/parse.hpp"
#include "core/snapshot/snapshot.hpp"

namespace gv {

// Repo-relative paths of the vault's files.
namespace vault_path {
inline constexpr std::string_view k_root = ".memory/";
inline constexpr std::string_view k_memories = ".memory/10-Memories/";
inline constexpr std::string_view k_memories_readme = ".memory/10-Memories/README.md";
inline constexpr std::string_view k_index_json = ".memory/memory-index.json";
inline constexpr std::string_view k_index_md = ".memory/20-Indices/index.md";
inline constexpr std::string_view k_indices = ".memory/20-Indices/";
inline constexpr std::string_view k_templates = ".memory/30-Templates/";
inline constexpr std::string_view k_memory_template = ".memory/30-Templates/memory-template.md";
inline constexpr std::string_view k_inbox = ".memory/00-Inbox/";
inline constexpr std::string_view k_distill_log = ".memory/distill-log.json";
inline constexpr std::string_view k_state = "specs/state.json";
}  // namespace vault_path

// True for `.memory/10-Memories/MEM-*.md` directly in that folder (D2). README.md is not one.
[[nodiscard]] bool is_memory_path(std::string_view path);

// `.memory/10-Memories/<id>.md`.
[[nodiscard]] std::string memory_path(std::string_view id);

// Parsed memories remembered by blob id, so a file whose bytes did not change is not parsed
// again (in another snapshot or a later run). The key includes the path because the id and
// path inside a ParsedMemory come from it.
class ParseCache {
 public:
  virtual ~ParseCache() = default;
  // The cached result, or nullptr. Valid until the next store().
  [[nodiscard]] virtual const ParsedMemory* find(std::string_view path,
                                                 std::string_view blob_oid) const = 0;
  // The cached result as a value of the caller's own, or nullopt. A cache that decodes its
  // entries on demand decodes straight into it and keeps nothing, so reading a whole vault from
  // the cache holds each memory once, not a decoded copy and the caller's copy.
  [[nodiscard]] virtual std::optional<ParsedMemory> find_value(std::string_view path,
                                                               std::string_view blob_oid) const {
    const ParsedMemory* found = find(path, blob_oid);
    return found != nullptr ? std::optional<ParsedMemory>(*found) : std::nullopt;
  }
  virtual void store(std::string_view path, std::string_view blob_oid, ParsedMemory parsed) = 0;
};

// A ParseCache for one process (e.g. the gate comparing the index with HEAD). Nothing is
// persisted yet: a cache on disk would implement the same interface.
class InMemoryParseCache final : public ParseCache {
 public:
  [[nodiscard]] const ParsedMemory* find(std::string_view path,
                                         std::string_view blob_oid) const override;
  void store(std::string_view path, std::string_view blob_oid, ParsedMemory parsed) override;

 private:
  std::map<std::pair<std::string, std::string>, ParsedMemory, std::less<>> m_entries;
};

// A warning for a Markdown file in `10-Memories/` that is not named like a memory (README.md
// aside), or a `MEM-*.md` in a folder under it, which load_vault would otherwise skip in
// silence, with the `git mv` that makes it one; nullopt for any other path.
[[nodiscard]] std::optional<Finding> non_memory_note_finding(std::string_view path);

// True when `<root>/.memory/` is a real directory holding at least one regular file: the
// question "is there a vault here" answered without listing (and hashing) every memory.
[[nodiscard]] bool vault_present(const std::filesystem::path& root);

struct Vault {
  std::vector<Memory> memories;   // sorted by id (byte order), tombstoned included
  std::size_t memory_files = 0;   // memory files listed, whether or not they parsed
  std::vector<Finding> findings;  // per file, in path order
};

// The memory with this id in `vault`, or nullptr. A scan: for one lookup.
[[nodiscard]] const Memory* find_memory(const Vault& vault, std::string_view id);

// Memories by id for code that looks up many (a merge dry run looks up both ends of every
// pair: 100,000 pairs over 10,000 memories). The first memory holding an id wins, as in
// find_memory. The vault must outlive it and not change while it is used.
class MemoriesById {
 public:
  explicit MemoriesById(const Vault& vault);
  [[nodiscard]] const Memory* find(std::string_view id) const;

 private:
  std::unordered_map<std::string_view, const Memory*> m_by_id;
};

// Reads every memory file of the snapshot in one pass (D2). Bad files become findings, never
// exceptions; a file the parser could not turn into a Memory is left out of `memories`.
// `cache` may be null. Throws gv::Error only when the snapshot itself fails (I/O).
[[nodiscard]] Vault load_vault(const Snapshot& snapshot, ParseCache* cache = nullptr);

}  // namespace gv
