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

#include "core/search/analyzer.hpp"
#include "core/search/bm25.hpp"

// The inverted form of a set of documents: for every term, the documents holding it with its
// count in each field. Ranking reads only the query's terms, so a query costs what it matches,
// not the size of the vault (doc/search.md, "Cost").
namespace gv::search {

// One term in one field of one document. 8 bytes, the same in memory and in the search cache
// file, so a saved index is ranked in place.
struct Posting {
  std::uint32_t document = 0;
  std::uint16_t field = 0;  // Field
  std::uint16_t count = 0;  // occurrences, saturated at 65535
};
static_assert(sizeof(Posting) == 8);

// What ranking reads: the postings of each query term (by document, then field), each
// document's field lengths, which documents are live, and the totals the averages come from.
struct PostingView {
  std::vector<std::span<const Posting>> terms;  // parallel to the query terms
  std::size_t documents = 0;                    // ids run from 0 to documents - 1
  std::size_t live = 0;
  std::array<double, k_field_count> total_length{};
  // Document d's field lengths are at lengths[d * stride], stride >= k_field_count.
  const std::uint32_t* lengths = nullptr;
  std::size_t stride = k_field_count;
  const std::vector<bool>* dead = nullptr;  // null: every document is live
};

// How many distinct documents `postings` (sorted by document) names, skipping dead ones.
[[nodiscard]] std::size_t count_documents(std::span<const Posting> postings,
                                          const std::vector<bool>* dead = nullptr);

// BM25F over the view (doc/search.md, "Ranking"), best first; ties keep document order.
// `weights`, when given, is parallel to `terms` and scales each term's contribution (expansion
// terms weigh less than the task's own words); empty means 1 for every term. Each result's
// `coverage` is the share of the weight-1 terms' idf it holds.
[[nodiscard]] std::vector<Ranked> rank_postings(const PostingView& view,
                                                const std::vector<std::string>& terms,
                                                const RankingParams& params = {},
                                                std::span<const double> weights = {});

// One document and its BM25F score.
struct Scored {
  std::uint32_t document = 0;
  double score = 0.0;
};

// The first `k` of what rank_postings gives for the same terms (equal weights), with the same
// scores and order, without each document's list of terms: for the many small rankings that find
// each working-memory entry's nearest memories (doc/search.md, "Entry neighbours"). `scratch` is a
// per-document score array, all zeros before and after, so that repeated calls allocate nothing
// the size of the vault.
[[nodiscard]] std::vector<Scored> top_postings(const PostingView& view, const RankingParams& params,
                                               std::size_t k, std::vector<double>& scratch);

// A mutable inverted index. Documents are numbered in the order they are added; removing one
// leaves its number dead (skipped by ranking, its postings kept) until compact().
class InvertedIndex {
 public:
  // Adds a document made of the fields' texts, split into terms (Analyzer) and counted; returns
  // its number.
  std::uint32_t add(const std::array<std::string_view, k_field_count>& fields);
  void remove(std::uint32_t document);

  [[nodiscard]] std::size_t size() const { return m_dead.size(); }
  [[nodiscard]] std::size_t live() const { return m_dead.size() - m_dead_count; }
  [[nodiscard]] std::size_t dead() const { return m_dead_count; }
  [[nodiscard]] bool is_live(std::uint32_t document) const { return !m_dead[document]; }

  // Keeps the live documents, renumbered in their old order; returns the new number of each old
  // one (dead ones map to UINT32_MAX).
  std::vector<std::uint32_t> compact();
  // Keeps only the documents `order` names (live ones, each once), numbered by their position in
  // it: the search cache file numbers its documents in path order.
  void reorder(const std::vector<std::uint32_t>& order);

  [[nodiscard]] std::vector<Ranked> rank(const std::vector<std::string>& terms,
                                         const RankingParams& params = {},
                                         std::span<const double> weights = {}) const;
  // top_postings() over this index.
  [[nodiscard]] std::vector<Scored> top(const std::vector<std::string>& terms,
                                        const RankingParams& params, std::size_t k,
                                        std::vector<double>& scratch) const;

  // How many live documents hold `term` in any field.
  [[nodiscard]] std::size_t document_frequency(std::string_view term) const;

  // Every term with its postings, sorted by term; for writing the index out (after compact(),
  // so no dead document is written).
  [[nodiscard]] std::vector<std::pair<std::string_view, std::span<const Posting>>> sorted_terms()
      const;
  [[nodiscard]] std::array<std::uint32_t, k_field_count> lengths(std::uint32_t document) const;
  [[nodiscard]] const std::array<double, k_field_count>& total_length() const {
    return m_total_length;
  }

  // Restores documents as a saved index held them: each one's lengths, then each term's
  // postings.
  std::uint32_t add_saved(const std::array<std::uint32_t, k_field_count>& lengths);
  void add_postings(std::string_view term, const std::vector<Posting>& postings);

 private:
  [[nodiscard]] PostingView view_of(const std::vector<std::string>& terms) const;
  std::vector<Posting>& postings_of(std::string_view term);
  [[nodiscard]] std::uint32_t term_id(std::string_view term);
  [[nodiscard]] std::optional<std::uint32_t> find_term(std::string_view term) const;

  // Term ids by open addressing: slot -> id + 1 (0 is empty), probed linearly, each id's hash
  // kept so a probe compares strings only when the hashes agree. Splitting a vault into terms
  // looks up every word, so this is the hot loop of building the index.
  std::vector<std::uint32_t> m_slots;
  std::vector<std::uint64_t> m_hashes;           // by term id
  std::vector<std::string> m_terms;              // by term id
  std::vector<std::vector<Posting>> m_postings;  // by term id, by document then field
  std::vector<std::uint32_t> m_lengths;          // k_field_count per document, in field order
  std::vector<std::uint64_t> m_scratch;          // add(): (term id << 3 | field) of every word
  std::vector<bool> m_dead;
  std::size_t m_dead_count = 0;
  Analyzer m_analyzer;  // add()'s scratch
  std::array<double, k_field_count> m_total_length{};
};

}  // namespace gv::search
