#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "core/finding.hpp"
#include "core/memory/parse.hpp"
#include "core/vault/index_row.hpp"
#include "core/vault/vault.hpp"

namespace gv {

// A ParseCache that survives between runs, so the pre-commit gate parses only the memory files
// whose blob ids changed since it last ran. It also remembers the gate's findings for whole
// vault states (a digest of every path and blob id under `.memory/`), so a commit that touches
// no vault file costs one listing of the index.
//
// The entries are kept in key order (path, then blob id) in one buffer and found by binary
// search; nothing is decoded until asked for, and find_row() reads what the index checks need
// straight from the bytes. That keeps a one-file commit in a 10,000-memory vault from building
// 10,000 strings, let alone 10,000 Memory values.
//
// A run that adds little (one edited memory, one new state) appends a checksummed journal record
// to the file instead of rewriting megabytes; the file is compacted (rewritten whole, in key
// order, atomically) when the journal outgrows a fraction of it, or when it was damaged.
//
// The file is an optimisation only: a missing, truncated, corrupt or foreign file is ignored (the
// cache starts empty), and a failed save is silent.
class PersistentParseCache final : public ParseCache {
 public:
  // Bumped whenever parse_memory's output or this file's layout changes, so a newer binary never
  // trusts what an older one cached.
  static constexpr std::uint32_t k_format = 10;  // 10: the lines that look like secrets

  PersistentParseCache();
  PersistentParseCache(PersistentParseCache&&) noexcept;
  PersistentParseCache& operator=(PersistentParseCache&&) noexcept;
  PersistentParseCache(const PersistentParseCache&) = delete;
  PersistentParseCache& operator=(const PersistentParseCache&) = delete;
  ~PersistentParseCache() override;

  // Reads `file`; an unreadable or invalid file leaves the cache empty. `key` is the check set
  // of the gate that will trust what it finds (core/gate/registry.hpp, check_set_key): a file
  // written under another key is ignored like a damaged one, and the cache is saved under
  // `key`. Without a key, any file is read and its key kept (for readers that only want parses).
  [[nodiscard]] static PersistentParseCache load(const std::filesystem::path& file,
                                                 std::optional<std::uint64_t> key = std::nullopt);
  // Parses the bytes of a cache file, as load() does; invalid bytes give an empty cache.
  [[nodiscard]] static PersistentParseCache from_bytes(
      std::string bytes, std::optional<std::uint64_t> key = std::nullopt);

  [[nodiscard]] const ParsedMemory* find(std::string_view path,
                                         std::string_view blob_oid) const override;
  [[nodiscard]] std::optional<ParsedMemory> find_value(std::string_view path,
                                                       std::string_view blob_oid) const override;
  void store(std::string_view path, std::string_view blob_oid, ParsedMemory parsed) override;

  // One cached memory as the index checks see it, decoded without copying: the views point into
  // the cache and stay valid while it lives and the entry is not stored again.
  struct Row {
    std::optional<IndexRow> row;  // absent when the file did not parse into a memory
    bool has_findings = false;    // the parse reported findings: find() has them
    std::vector<std::pair<int, std::string_view>> secrets;  // ParsedMemory::secrets: line, kind
    std::optional<std::string_view> fragment;               // see find_fragment()
  };
  [[nodiscard]] std::optional<Row> find_row(std::string_view path, std::string_view blob_oid) const;

  // Text derived from one memory file and remembered beside its parse: the gate keeps the
  // memory's rendered memory-index.json entry here. nullopt when none was stored. The view is
  // valid while the cache lives and the entry is not stored again. Stored only beside a parse.
  [[nodiscard]] std::optional<std::string_view> find_fragment(std::string_view path,
                                                              std::string_view blob_oid) const;
  void store_fragment(std::string_view path, std::string_view blob_oid, std::string fragment);

  // The findings remembered for a vault state, or nullptr.
  [[nodiscard]] const std::vector<Finding>* find_state(std::string_view digest) const;
  void store_state(std::string_view digest, std::vector<Finding> findings);

  // The compacted cache file's bytes. Keeps every entry looked up or stored in this process (or
  // in the journal), then the most recently used others up to a bound, so the file does not
  // grow without limit as memories change.
  [[nodiscard]] std::string to_bytes() const;
  // The journal record save() would append: the states when they changed, and the entries
  // stored in this process. Appended to a valid file's bytes, it is read back by from_bytes.
  [[nodiscard]] std::string journal_record() const;
  // Saves what changed since load, when something did: appends a journal record to the file
  // it was loaded from when that was valid and its journal is still small, else writes the
  // compacted file atomically (temporary file + rename). Returns false when it could not (the
  // caller carries on: the cache is only an optimisation).
  bool save(const std::filesystem::path& file) const;

  [[nodiscard]] bool dirty() const { return m_dirty; }
  // The check-set key the cache is saved under.
  [[nodiscard]] std::uint64_t key() const { return m_check_set_key; }
  [[nodiscard]] std::size_t size() const;

 private:
  struct FileBytes;
  // An entry of the loaded file's table: views into m_bytes.
  struct Slot {
    std::string_view key;  // path '\0' blob id
    std::string_view record;
    std::string_view fragment;  // empty: none
    std::uint64_t generation = 0;
  };
  // An entry stored in this process or read from the journal; it hides a slot with its key.
  struct Stored {
    std::string record;
    std::optional<std::string> fragment;
    mutable std::optional<ParsedMemory> parsed;
    bool in_file = false;  // read from the journal: a save need not append it again
  };
  struct State {
    std::string digest;
    std::vector<Finding> findings;
  };

  [[nodiscard]] static PersistentParseCache empty(std::optional<std::uint64_t> key);
  [[nodiscard]] static PersistentParseCache from_file_bytes(std::unique_ptr<FileBytes> file,
                                                            std::optional<std::uint64_t> key);
  void read_journal(std::size_t at);
  void index_entries() const;
  [[nodiscard]] std::optional<std::size_t> find_slot(std::string_view key) const;
  // The record and fragment under `key`, marking it used; false when there is none.
  bool lookup(std::string_view key, std::string_view& record, std::string_view& fragment) const;

  std::unique_ptr<FileBytes> m_file;  // the loaded file; slots view it, so it never changes
  std::string_view m_bytes;           // all of it
  std::size_t m_entries_offset = 0;   // where the entry table starts; 0: none
  std::size_t m_entries_end = 0;      // where the body ends and the journal begins
  std::uint64_t m_file_size = 0;      // bytes of the valid image, journal included; 0: none
  std::uint64_t m_journal_size = 0;
  bool m_journal_damaged = false;  // bytes after the last valid record: compact on save
  bool m_states_dirty = false;
  mutable bool m_indexed = false;
  mutable std::vector<Slot> m_slots;  // sorted by key
  mutable std::size_t m_hint = 0;     // the slot after the last one found
  mutable std::string m_key;  // find_row's and find_value's key, built without allocating each time
  mutable std::vector<bool> m_used;  // per slot: looked up in this process
  mutable std::unordered_map<std::size_t, ParsedMemory> m_decoded;  // by slot index
  mutable std::uint64_t m_generation = 0;  // newest in the file; this run writes the next one
  std::map<std::string, Stored, std::less<>> m_stored;
  std::vector<State> m_states;  // newest first
  bool m_dirty = false;
  std::uint64_t m_check_set_key = 0;
};

// Where the cache of a repository lives: `<common git dir>/git-vault/parse-cache`, shared by
// linked worktrees (blob ids mean the same in all of them).
[[nodiscard]] std::filesystem::path parse_cache_path(const std::filesystem::path& common_dir);

}  // namespace gv
