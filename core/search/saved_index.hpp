#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/search/bm25.hpp"
#include "core/search/postings.hpp"

// The search cache file (`<git common dir>/git-vault/search-cache`): the memory documents of a
// SearchIndex with the stat data of their files, laid out so that a later run compares the
// stat data, finds a term and reads its postings in place, without loading the rest
// (doc/search.md, "Cost").
namespace gv::search {

// A file's stat data when it was read, and when that was.
struct SavedStamp {
  std::uint64_t inode = 0;
  std::int64_t size = 0;
  std::int64_t mtime_ns = 0;
  std::int64_t ctime_ns = 0;
  std::int64_t listed_ns = 0;

  friend bool operator==(const SavedStamp&, const SavedStamp&) = default;
};

// One memory as the file keeps it: what a hit shows and what ties are broken by.
struct SavedMemory {
  std::string path;
  SavedStamp stamp;
  std::string blob_oid;
  std::string title;
  std::int64_t retrieval_count = 0;
  std::string summary;
  std::vector<std::string> keywords;
  std::string topic;
  std::array<std::uint32_t, k_field_count> lengths{};
};

// A file that is listed but not indexed (tombstoned, or not a readable memory).
struct SavedSkip {
  std::string path;
  SavedStamp stamp;
  bool unreadable = false;  // not a readable memory (false: tombstoned)
};

// Writes the file. `memories` sorted by path; document d of `index` is memories[d] (the index
// compacted, in that order; anything else throws gv::Error). A memory's lengths come from the
// index. `folder` is the stat data of the memory folder when it was listed: while it is
// unchanged, no file was added, removed or renamed there, and a run need not list it again.
[[nodiscard]] std::string write_saved_index(const std::vector<SavedMemory>& memories,
                                            const InvertedIndex& index,
                                            const std::vector<SavedSkip>& skipped,
                                            const SavedStamp& folder = {});

// A view of the file's bytes, which must outlive it. Every offset is checked against the size,
// so a damaged file is refused by open() or reads as absent entries, never out of bounds.
class SavedIndex {
 public:
  // nullopt when the bytes are not a search cache of this format.
  [[nodiscard]] static std::optional<SavedIndex> open(std::string_view bytes);

  [[nodiscard]] std::size_t memory_count() const { return m_memories; }
  [[nodiscard]] std::size_t skipped_count() const { return m_skipped; }
  // The memory folder's stat data when its files were listed (write_saved_index).
  [[nodiscard]] const SavedStamp& folder_stamp() const { return m_folder; }

  // The memory (document number) or skipped file at `path`, by binary search.
  [[nodiscard]] std::optional<std::uint32_t> find_memory(std::string_view path) const;
  [[nodiscard]] std::optional<std::uint32_t> find_skipped(std::string_view path) const;

  [[nodiscard]] std::string_view memory_path(std::uint32_t document) const;
  [[nodiscard]] SavedStamp memory_stamp(std::uint32_t document) const;
  [[nodiscard]] std::int64_t retrieval_count(std::uint32_t document) const;
  [[nodiscard]] std::string_view skipped_path(std::uint32_t skipped) const;
  [[nodiscard]] SavedStamp skipped_stamp(std::uint32_t skipped) const;
  [[nodiscard]] bool skipped_unreadable(std::uint32_t skipped) const;
  // Everything the file holds of one memory.
  [[nodiscard]] SavedMemory memory(std::uint32_t document) const;

  // BM25F over the saved documents: the same ranking InvertedIndex::rank gives them.
  [[nodiscard]] std::vector<Ranked> rank(const std::vector<std::string>& terms,
                                         const RankingParams& params = {},
                                         std::span<const double> weights = {}) const;
  // top_postings() over the saved documents.
  [[nodiscard]] std::vector<Scored> top(const std::vector<std::string>& terms,
                                        const RankingParams& params, std::size_t k,
                                        std::vector<double>& scratch) const;

  // How many memories hold `term` in any field.
  [[nodiscard]] std::size_t document_frequency(std::string_view term) const;

  // Every term with its postings (copied out), in term order.
  void for_each_term(
      const std::function<void(std::string_view, const std::vector<Posting>&)>& visit) const;

 private:
  explicit SavedIndex(std::string_view bytes) : m_bytes(bytes) {}
  // The view over `terms`' postings, copied out into `lists`, which must outlive it.
  [[nodiscard]] PostingView view_of(const std::vector<std::string>& terms,
                                    std::vector<std::vector<Posting>>& lists) const;

  [[nodiscard]] std::uint64_t u64(std::size_t at) const;
  [[nodiscard]] std::uint32_t u32(std::size_t at) const;
  [[nodiscard]] std::string_view text(std::size_t at) const;  // (u64 offset, u32 length) at `at`
  [[nodiscard]] SavedStamp stamp_at(std::size_t at) const;
  [[nodiscard]] std::vector<Posting> postings(std::uint32_t term) const;
  [[nodiscard]] std::optional<std::uint32_t> find_term(std::string_view term) const;

  std::string_view m_bytes;
  std::size_t m_memories = 0;
  std::size_t m_skipped = 0;
  std::size_t m_terms = 0;
  std::size_t m_postings = 0;
  std::array<double, k_field_count> m_total_length{};
  SavedStamp m_folder;
  std::size_t m_memories_at = 0;
  std::size_t m_skipped_at = 0;
  std::size_t m_terms_at = 0;
  std::size_t m_postings_at = 0;
  std::size_t m_strings_at = 0;
  std::size_t m_strings_size = 0;
  std::vector<std::uint32_t> m_lengths;  // k_field_count per memory, copied at open
};

}  // namespace gv::search
