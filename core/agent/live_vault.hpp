#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "core/agent/journal.hpp"
#include "core/dates.hpp"
#include "core/search/search.hpp"
#include "core/snapshot/worktree_snapshot.hpp"
#include "core/util/dir_watch.hpp"
#include "core/vault/vault.hpp"

namespace gv::git {
class Repo;
}

namespace gv::agent {

// The work tree as a Snapshot that remembers each listed file's blob id with its stat data
// (inode, size, modification and change times), so a later list() hashes only files whose stat
// changed, as git's index does. A file modified within two seconds of being listed is hashed
// again on the next list(): a write in the same timestamp tick could otherwise go unseen.
class StatCachedSnapshot final : public Snapshot {
 public:
  explicit StatCachedSnapshot(std::filesystem::path root);

  [[nodiscard]] std::vector<SnapshotEntry> list(std::string_view prefix) const override;
  [[nodiscard]] std::optional<std::string> read(std::string_view path) const override {
    return m_inner.read(path);
  }
  [[nodiscard]] std::string describe() const override { return "work tree"; }
  [[nodiscard]] const std::filesystem::path& root() const { return m_inner.root(); }

  // Files hashed by list() since construction (for tests).
  [[nodiscard]] std::size_t hashed() const { return m_hashed; }

 private:
  struct Stamp {
    std::uint64_t inode = 0;
    std::int64_t size = 0;
    std::int64_t mtime_ns = 0;
    std::int64_t ctime_ns = 0;
    std::int64_t listed_ns = 0;  // when the oid was computed
    std::string oid;
  };

  WorktreeSnapshot m_inner;
  mutable std::unordered_map<std::string, Stamp> m_stamps;  // by repo-relative path
  mutable std::size_t m_hashed = 0;
};

// The longest id closest_ids() compares with the vault's ids.
inline constexpr std::size_t k_closest_id_max_bytes = 256;

// One repository's vault as the agent commands read it: the work tree, re-read by refresh()
// (only memory files whose bytes changed are parsed and indexed again), so one long-lived
// process (the MCP server) serves many calls and sees every change made between them, and a
// one-shot command pays for one read. Not thread-safe.
class LiveVault {
 public:
  // `repo` must outlive this. `cache` (may be null) remembers parsed memories by blob id.
  LiveVault(const git::Repo& repo, ParseCache* cache);
  // The same, with the cache asked for only when refresh() first reads the vault (loading a
  // parse cache is work a search from the search cache does not need).
  LiveVault(const git::Repo& repo, std::function<ParseCache*()> cache);

  // Reads the work tree again. Throws gv::Error on I/O failure.
  void refresh();

  // For a long-lived process: from now on refresh() skips the work tree when the folders it
  // reads (the vault, `memory/`, and the files at the top of the work tree) saw no change
  // since the last refresh (util::DirWatch), instead of stat-ing every memory file.
  void watch_for_changes();

  // For one-shot searches: brings only the search index up to date, through the stat-checked
  // search cache in the git directory (SearchIndex::refresh_cached); `parse_cache` is asked for
  // only when a memory file changed. vault() stays as it was.
  void refresh_search(const std::function<ParseCache*()>& parse_cache);

  // Whether refresh() has read the vault (vault() is empty until then).
  [[nodiscard]] bool loaded() const { return m_loaded; }
  [[nodiscard]] const Vault& vault() const { return m_vault; }
  [[nodiscard]] const Snapshot& snapshot() const { return m_snapshot; }
  [[nodiscard]] const search::SearchIndex& index() const { return m_index; }

  // The active or tombstoned memory with this id, or nullptr.
  [[nodiscard]] const Memory* find(std::string_view id) const;

  // Up to `count` ids closest to `id` (same letters in another case, a prefix or part of it,
  // or a small edit distance), closest first: what an error about an unknown id suggests. None
  // for an id longer than k_closest_id_max_bytes.
  [[nodiscard]] std::vector<std::string> closest_ids(std::string_view id,
                                                     std::size_t count = 3) const;

  // The retrieval journal's counts right now (D16); empty when unreadable.
  [[nodiscard]] scoring::PendingRetrievalMap pending() const;
  // pending() as search's tie-break wants it.
  [[nodiscard]] std::unordered_map<std::string, std::int64_t> pending_counts() const;

  // Appends one retrieval per id to the journal. Throws gv::Error on I/O failure.
  void record(const std::vector<std::string>& ids, Date today, std::string_view via) const;

  [[nodiscard]] const std::filesystem::path& journal() const { return m_journal; }

 private:
  const git::Repo* m_repo;
  std::filesystem::path m_journal;
  std::filesystem::path m_search_cache;
  StatCachedSnapshot m_snapshot;
  std::function<ParseCache*()> m_cache;  // may return null: m_own_cache then
  InMemoryParseCache m_own_cache;
  Vault m_vault;
  void note_changes();

  std::vector<SnapshotEntry> m_listing;  // the memory files m_vault was read from
  bool m_loaded = false;
  bool m_searched = false;  // refresh_search() has read the files once
  // Set when the watch saw a change that refresh() / refresh_search() has not read yet.
  bool m_vault_stale = false;
  bool m_search_stale = false;
  search::SearchIndex m_index;
  std::unique_ptr<util::DirWatch> m_watch;
};

// A memory file for `show` and get_memory: `{"id","path","frontmatter":{…},"body",
// "token_count"}`. Frontmatter values keep their YAML types (numbers, booleans, null, lists,
// maps; dates and quoted values are strings).
[[nodiscard]] nlohmann::ordered_json memory_json(const Memory& memory, std::string_view bytes);

// The memory's frontmatter as JSON (see memory_json); an empty object when it cannot be read.
[[nodiscard]] nlohmann::ordered_json frontmatter_json(std::string_view bytes);

// One search hit as `--json` and search_memories print it.
[[nodiscard]] nlohmann::ordered_json hit_json(const search::Hit& hit);

}  // namespace gv::agent
