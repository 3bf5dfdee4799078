#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "core/memory/memory.hpp"
#include "core/search/bm25.hpp"
#include "core/search/postings.hpp"
#include "core/search/saved_index.hpp"
#include "core/util/mapped_file.hpp"

namespace gv {
class Snapshot;
class ParseCache;
}  // namespace gv

// `git vault search` and the MCP server's search_memories: memories ranked by BM25F over their
// fields (doc/search.md), and working-memory entries (CLAUDE.local.md, registers, archive).
namespace gv::search {

// What search indexes and takes snippets from of a memory's body: the body with its HTML comments
// (the template's `<!-- Add links … -->` would match every memory) and its `## History` section
// (superseded versions, not current guidance) blanked out, line numbers kept.
[[nodiscard]] std::string searchable_body(std::string_view body);

enum class Scope { memories, working, all };

// `memories`, `working` or `all`; nullopt for anything else.
[[nodiscard]] std::optional<Scope> parse_scope(std::string_view text);

struct Hit {
  enum class Kind { memory, entry };
  Kind kind = Kind::memory;
  std::string id;  // memory id; entry id (`tr…`) or empty for an entry without one
  std::string path;
  int line = 0;  // 1-based line of the snippet in the file
  double score = 0.0;
  std::string title;  // memory title; an entry's file as recall shows it (`registers/x.md`)
  std::string snippet;
  std::vector<std::string> terms;  // the query words it holds (lower-cased), in query order
  std::string tier;                // entries: `working`, `register` or `archive`
  // The share of the query's weight (idf) the hit holds in its own collection (Ranked::coverage).
  double coverage = 0.0;
};

// `<common git dir>/git-vault/search-cache`: refresh_cached()'s file, beside the parse cache.
[[nodiscard]] std::filesystem::path search_cache_path(const std::filesystem::path& common_dir);

// `memory` or `entry`.
[[nodiscard]] std::string_view kind_name(Hit::Kind kind);

// The searchable documents of one repository. refresh() brings them in line with a snapshot,
// re-reading only the memory files whose blob id changed, so a long-lived process (the MCP
// server) pays for what changed between two calls, and a one-shot command for one read.
class SearchIndex {
 public:
  // `memories` is the vault as load_vault read it from `snapshot` (tombstoned memories are
  // left out here). Working memory, a few small files, is parsed again every time. Throws
  // gv::Error only on I/O failure.
  void refresh(const std::vector<Memory>& memories, const Snapshot& snapshot);

  // Ranks memories and/or entries for `query` (see doc/search.md for the order), at most
  // `limit` hits. `extra_retrievals` (the retrieval journal's counts, by memory id) adds to
  // the frontmatter counts that break score ties. Snippets are read from `snapshot`.
  // `matched`, when given, is set to how many matched in all, the hits left out by `limit` too.
  [[nodiscard]] std::vector<Hit> search(
      std::string_view query, Scope scope, std::size_t limit, const Snapshot& snapshot,
      const std::unordered_map<std::string, std::int64_t>& extra_retrievals = {},
      std::size_t* matched = nullptr) const;

  // What a memory hit shows besides its score: its file and the frontmatter values snippets
  // fall back to.
  struct Shown {
    std::string path;
    std::string title;
    std::string summary;
    std::vector<std::string> keywords;
    std::string topic;
  };

  // search() without snippets: what context selects from. `shown_memories` receives what each
  // memory hit shows, by id. Unlike search(), a hit need not hold any of the query's own terms
  // unless `own_terms_only` (doc/search.md, "Expansion").
  [[nodiscard]] std::vector<Hit> rank(
      std::string_view query, Scope scope, std::size_t limit, const Snapshot& snapshot,
      const std::unordered_map<std::string, std::int64_t>& extra_retrievals = {},
      std::size_t* matched = nullptr,
      std::map<std::string, Shown, std::less<>>* shown_memories = nullptr,
      bool own_terms_only = false) const;

  // The memory files refresh_cached() found but could not read as memories (broken
  // frontmatter, an older layout), by path: what a command that cannot offer them says.
  [[nodiscard]] std::vector<std::string> unreadable_paths() const;

  // Every indexed memory's id with the retrieval count its frontmatter had when indexed.
  [[nodiscard]] std::vector<std::pair<std::string, std::int64_t>> retrieval_counts() const;

  [[nodiscard]] std::size_t memory_count() const {
    return m_saved ? m_saved->memory_count() : m_memory_slots.size();
  }
  // How many indexed memories hold `term` in any field.
  [[nodiscard]] std::size_t memory_frequency(std::string_view term) const {
    return m_saved ? m_saved->document_frequency(term) : m_memory_index.document_frequency(term);
  }

  // Starts from the search cache file a one-shot search wrote (refresh_cached), when this
  // index is still empty and the file is readable: the next refresh() then splits into terms
  // only the memories whose blob id differs from the saved one. A long-lived process or a
  // command that searches its own vault (learn) starts in milliseconds instead of re-reading
  // every memory. Never writes the file.
  void load_saved(const std::filesystem::path& cache_file);

  // For one-shot commands on large vaults: like refresh(), but the memory files are found by
  // listing `<root>/.memory/10-Memories/` and comparing each file's stat data (inode, size,
  // modification and change times) with what `cache_file` saved, so only files that changed
  // are read, hashed and parsed (through `parse_cache()`, asked only then), as git's index
  // spares `git status` from reading unchanged files. A file modified less than two seconds
  // before it was saved is read again. The file is rewritten when anything changed; a
  // missing, damaged or older-format file only costs a full read (doc/search.md, "Cost").
  // Throws gv::Error when the work tree cannot be read; a failed save is silent.
  void refresh_cached(const std::filesystem::path& root, const std::filesystem::path& cache_file,
                      const Snapshot& snapshot, const std::function<ParseCache*()>& parse_cache);

 private:
  using Stamp = SavedStamp;
  struct MemorySlot {
    std::uint32_t document = 0;  // in m_memory_index
    Stamp stamp;                 // refresh_cached() only
    std::string blob_oid;
    std::string path;
    std::string title;
    std::int64_t retrieval_count = 0;
    std::string summary;
    std::vector<std::string> keywords;
    std::string topic;
  };
  struct EntrySlot {
    std::string id;
    std::string path;
    std::string display_path;
    std::string tier;
    int line = 0;
    std::string text;
    // What the entry is ranked on: the heading of its claim block, if any, and its text.
    std::string heading;
    std::string searchable;
  };

  // The query terms ranking reads: the task's own (`original` of them, weight 1), then the
  // expansion terms with their lower weights (doc/search.md, "Expansion").
  struct Query {
    std::vector<std::string> terms;
    std::vector<double> weights;
    std::size_t original = 0;
    // Candidate expansion terms, best first, with weights relative to the best (1).
    std::vector<std::pair<std::string, double>> expansion;
    // Only documents holding one of the task's own terms are hits (search's rule; context also
    // takes a document the expansion alone found).
    bool own_terms_only = false;
    // This query plus the first `count` expansion terms at `beta` times their weight.
    [[nodiscard]] Query with_expansion(std::size_t count, double beta) const;
  };
  [[nodiscard]] Query expand(std::vector<std::string> terms, const Snapshot& snapshot) const;
  // expand() of a query text, kept for the next call with the same text until the index
  // changes: `context` ranks memories and then entries for one task, and the expansion (two
  // rankings and three files read) is the larger part of each.
  [[nodiscard]] const Query& expansion_of(std::string_view text, const Snapshot& snapshot) const;

  // The best `limit` memory hits, best first (score, then retrievals, then id), with what each
  // shows, by id; `matched` is set to how many memories matched.
  [[nodiscard]] std::vector<Hit> memory_hits(
      const Query& query, const std::unordered_map<std::string, std::int64_t>& extra_retrievals,
      std::size_t limit, std::map<std::string, Shown, std::less<>>& shown,
      std::size_t& matched) const;
  [[nodiscard]] std::vector<Hit> entry_hits(const Query& query) const;
  // The entries' index, made on first use: each entry is indexed with the titles and keywords
  // of its nearest memories (doc/search.md, "Entry neighbours"), which costs a small ranking
  // per entry that only commands ranking entries should pay.
  [[nodiscard]] const InvertedIndex& entry_index() const;
  // The titles and keywords of the memories nearest to `entry`, as one text. Without a saved
  // index, `by_document` names the memory slot of each document of m_memory_index.
  [[nodiscard]] std::string neighbour_text(const EntrySlot& entry,
                                           const std::vector<const MemorySlot*>& by_document,
                                           std::vector<double>& scratch) const;
  void refresh_working(const Snapshot& snapshot);
  void compact();
  void set_memory(const Memory& memory, std::string_view body, Stamp stamp);
  void drop_memory(std::string_view id);
  // Moves what the saved file holds into the members, so they can change.
  void thaw();
  // The cache file's bytes; `folder` is the memory folder's stamp when it was listed.
  [[nodiscard]] std::string save_cache(const Stamp& folder);

  InvertedIndex m_memory_index;
  std::map<std::string, MemorySlot, std::less<>> m_memory_slots;  // by memory id
  // refresh_cached(): memory files that are not indexed (tombstoned or invalid), by path, so an
  // unchanged one is not read again.
  struct Skipped {
    Stamp stamp;
    bool unreadable = false;  // not a readable memory (false: tombstoned)
  };
  std::map<std::string, Skipped, std::less<>> m_skipped;
  // refresh_cached() found the saved file current: memories are ranked and shown straight from
  // it (mapped, read in place) and the three members above stay empty.
  std::optional<util::MappedFile> m_saved_file;
  std::optional<SavedIndex> m_saved;

  // expansion_of()'s last text and result; cleared whenever the documents change.
  mutable std::optional<std::pair<std::string, Query>> m_expansion;

  std::vector<EntrySlot> m_entries;  // scan order, superseded ones left out
  // Document d is m_entries[d]; empty until entry_index() and after every refresh.
  mutable std::optional<InvertedIndex> m_entry_index;
};

}  // namespace gv::search
