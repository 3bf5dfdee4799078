#pragma once

#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace gv::git {

// git's index file (`.git/index`, or GIT_INDEX_FILE), read directly: the header, then every
// entry's mode, flags, blob id and path. The pre-commit gate lists the staged vault files on
// every commit, and libgit2 builds an allocated entry, a path copy and a hash-table slot for
// every file of the repository to answer that; this reads the bytes once and keeps views.
//
// It reads versions 2, 3 and 4 (prefix-compressed paths) with SHA-1 ids. Anything else is left
// to libgit2: a split index (the `link` extension), a sparse index (directory entries), another
// hash, an unknown required extension, entries out of order or bytes that do not parse. The
// trailing checksum is not verified (git and libgit2 check it when they read the file; a reader
// that only lists paths gains nothing from re-hashing a megabyte per commit).
class IndexFile {
 public:
  // 24 bytes, views into the file: a listing of 100,000 entries stays small.
  struct Entry {
    const char* start = nullptr;      // the entry's first byte in the file
    const char* path_data = nullptr;  // in the file, or (version 4) in the expanded paths
    std::uint32_t path_size = 0;
    std::uint8_t stage = 0;
    bool intent_to_add = false;
    bool regular_file = false;  // mode 100644 or 100755, noted on reading: the hook asks often

    [[nodiscard]] std::string_view path() const { return {path_data, path_size}; }
    // 20 bytes, inside the file's bytes.
    [[nodiscard]] const unsigned char* oid() const {
      return reinterpret_cast<const unsigned char*>(start + 40);
    }
    [[nodiscard]] std::uint32_t mode() const;
    // A file at stage 0 that a commit records: what IndexSnapshot lists.
    [[nodiscard]] bool is_committed_file() const {
      return stage == 0 && !intent_to_add && regular_file;
    }
    [[nodiscard]] std::string oid_hex() const;
  };

  // nullopt when the layout is one libgit2 must read (see above). A missing file is an empty
  // index, as git sees it before the first `git add`.
  [[nodiscard]] static std::optional<IndexFile> read(const std::filesystem::path& file);
  // The same, from bytes already in memory.
  [[nodiscard]] static std::optional<IndexFile> parse(std::string bytes);
  // `count` entries in the layout of index `version` (2 or 3), as entry_bytes() returned them:
  // a slice of an index kept elsewhere. The entries view `entry_bytes`, which must outlive them.
  [[nodiscard]] static std::optional<IndexFile> view_entries(std::string_view entry_bytes,
                                                             std::uint32_t version,
                                                             std::uint32_t count);

  IndexFile(IndexFile&&) noexcept;
  IndexFile& operator=(IndexFile&&) noexcept;
  IndexFile(const IndexFile&) = delete;
  IndexFile& operator=(const IndexFile&) = delete;
  ~IndexFile();

  // One entry of version 2 or 3 at the start of `bytes`, and how many bytes it takes (with its
  // padding), read as load() reads it; for version 4 the size of its header only, and no path.
  // nullopt when the bytes are not an entry read here. For comparing entries kept elsewhere
  // (core/gate/baseline.cpp) without parsing all of them.
  struct RawEntry {
    Entry entry;
    std::size_t size = 0;
  };
  [[nodiscard]] static std::optional<RawEntry> read_entry(std::string_view bytes,
                                                          std::uint32_t version);

  // Every entry, in the index's order (path, then stage).
  [[nodiscard]] std::span<const Entry> entries() const { return m_entries; }
  // The entries whose path starts with `prefix`, a contiguous range since paths are sorted.
  [[nodiscard]] std::span<const Entry> with_prefix(std::string_view prefix) const;
  // The stage-0 entry at exactly `path`, or nullptr.
  [[nodiscard]] const Entry* find(std::string_view path) const;

  // The file's version (2, 3 or 4).
  [[nodiscard]] std::uint32_t version() const { return m_version; }
  // The bytes of a contiguous range of entries(), as the file holds them: what view_entries()
  // reads back. nullopt for version 4, whose entries depend on the ones before them.
  [[nodiscard]] std::optional<std::string_view> entry_bytes(std::span<const Entry> range) const;

  // The tree id the index's cache-tree extension (`TREE`) records for the folder `dir` (no
  // trailing slash, e.g. `.memory`), when the extension holds a valid one: `git commit` brings
  // it up to date before it runs the pre-commit hook, so the hook learns the id of the tree the
  // commit records without hashing a thing. nullopt when absent or invalidated by a later
  // `git add`.
  [[nodiscard]] std::optional<std::string> cached_tree_id(std::string_view dir) const;

 private:
  struct Storage;
  IndexFile();
  // Parses the storage's bytes into m_entries; false when they are not a layout read here.
  bool load();
  // Reads `count` entries of `version` from `bytes` at `at`, which it moves past them.
  bool load_entries(std::string_view bytes, std::size_t& at, std::uint32_t version,
                    std::uint32_t count);

  // Behind a pointer, so the entries' views stay valid when an IndexFile moves.
  std::unique_ptr<Storage> m_storage;
  std::vector<Entry> m_entries;
  const char* m_entries_end = nullptr;  // just past the last entry's bytes
  std::string_view m_cache_tree;        // the TREE extension's data, when there is one
  std::uint32_t m_version = 2;
};

}  // namespace gv::git
