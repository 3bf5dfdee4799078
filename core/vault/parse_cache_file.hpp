#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "core/finding.hpp"
#include "core/memory/parse.hpp"
#include "core/vault/vault.hpp"

namespace gv {

// A ParseCache that survives between runs, so the pre-commit gate parses only the memory files
// whose blob ids changed since it last ran. It also remembers the gate's findings for whole
// vault states (a digest of every path and blob id under `.memory/`), so a commit that touches
// no vault file costs one listing of the index.
//
// The file is an optimisation only: a missing, truncated, corrupt or foreign file is ignored (the
// cache starts empty), and a failed save is silent. Entries are decoded lazily, so a run that
// hits a remembered state never pays for decoding memories.
class PersistentParseCache final : public ParseCache {
 public:
  // Bumped whenever parse_memory's output or this file's layout changes, so a newer binary never
  // trusts what an older one cached.
  static constexpr std::uint32_t k_format = 2;

  PersistentParseCache() = default;

  // Reads `file`; an unreadable or invalid file leaves the cache empty.
  [[nodiscard]] static PersistentParseCache load(const std::filesystem::path& file);
  // Parses the bytes of a cache file; invalid bytes give an empty cache.
  [[nodiscard]] static PersistentParseCache from_bytes(std::string bytes);

  [[nodiscard]] const ParsedMemory* find(std::string_view path,
                                         std::string_view blob_oid) const override;
  void store(std::string_view path, std::string_view blob_oid, ParsedMemory parsed) override;

  // Text derived from one memory file and remembered beside its parse: the gate keeps the
  // memory's rendered memory-index.json entry here. nullopt when none was stored. The view is
  // valid until the next store_fragment().
  [[nodiscard]] std::optional<std::string_view> find_fragment(std::string_view path,
                                                              std::string_view blob_oid) const;
  void store_fragment(std::string_view path, std::string_view blob_oid, std::string fragment);

  // The findings remembered for a vault state, or nullptr.
  [[nodiscard]] const std::vector<Finding>* find_state(std::string_view digest) const;
  void store_state(std::string_view digest, std::vector<Finding> findings);

  // The cache file's bytes. Keeps every entry looked up or stored in this process, then older
  // ones up to a bound, so the file does not grow without limit as memories change.
  [[nodiscard]] std::string to_bytes() const;
  // Writes the file atomically (temporary file + rename) when something changed since load;
  // returns false when it could not (the caller carries on: the cache is only an optimisation).
  bool save(const std::filesystem::path& file) const;

  [[nodiscard]] bool dirty() const { return m_dirty; }
  [[nodiscard]] std::size_t size() const {
    index_entries();
    return m_entries.size();
  }

 private:
  struct Slot {
    std::size_t offset = 0;  // encoded record in m_buffer, when not decoded yet
    std::size_t length = 0;
    std::size_t fragment_offset = 0;
    std::size_t fragment_length = 0;             // 0: no fragment in m_buffer
    mutable std::optional<ParsedMemory> parsed;  // decoded on demand, or stored
    bool stored = false;                         // `parsed` came from store(): encode it on save
    std::optional<std::string> fragment;         // stored in this process
    mutable bool used = false;
  };
  struct State {
    std::string digest;
    std::vector<Finding> findings;
  };

  void index_entries() const;

  std::string m_buffer;              // the loaded file, for lazy decoding
  std::size_t m_entries_offset = 0;  // where the entry table starts in m_buffer; 0: none
  mutable bool m_indexed = false;
  mutable std::unordered_map<std::string, Slot> m_entries;  // key: path '\0' oid
  std::vector<State> m_states;                              // newest first
  bool m_dirty = false;
};

// Where the cache of a repository lives: `<common git dir>/git-vault/parse-cache`, shared by
// linked worktrees (blob ids mean the same in all of them).
[[nodiscard]] std::filesystem::path parse_cache_path(const std::filesystem::path& common_dir);

}  // namespace gv
