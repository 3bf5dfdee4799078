#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

// BM25F ranking over documents with a few weighted fields (doc/search.md has the formula and
// the reasons for its constants).
namespace gv::search {

enum class Field : std::size_t { title, keywords, topic, summary, body };
inline constexpr std::size_t k_field_count = 5;

// A field's weight in the combined term frequency and its length normalisation (0 = none,
// 1 = full).
struct FieldParams {
  double weight = 1.0;
  double b = 0.75;
};

struct RankingParams {
  double k1 = 1.2;
  // title, keywords, topic, summary, body
  std::array<FieldParams, k_field_count> fields{
      {{3.0, 0.5}, {3.0, 0.3}, {2.0, 0.3}, {2.0, 0.5}, {1.0, 0.5}}};
};

// One document as ranking sees it: each field lower-cased (ASCII) and its length in words.
// The original text is not kept; snippets read it again for the few hits shown.
struct Document {
  std::array<std::string, k_field_count> lowered;
  std::array<std::uint32_t, k_field_count> length{};
  bool live = true;  // false once replaced; skipped by ranking, reclaimed by compaction
};

// Builds a Document from the fields' texts.
[[nodiscard]] Document make_document(const std::array<std::string_view, k_field_count>& fields);

struct Ranked {
  std::size_t document = 0;  // index into the documents ranked
  double score = 0.0;
  std::vector<std::string> terms;  // the query terms the document holds, in query order
};

// Ranks the live documents that hold at least one of `terms` (already normalized, see
// query_terms), best first; ties keep document order. Every document holding a term scores
// above zero. The document frequencies and average lengths are those of the live documents.
[[nodiscard]] std::vector<Ranked> rank(const std::vector<Document>& documents,
                                       const std::vector<std::string>& terms,
                                       const RankingParams& params = {});

// How often each of `terms` occurs in `lowered` (a lower-cased text), as whole words after
// normalize_term. Parallel to `terms`.
[[nodiscard]] std::vector<std::uint32_t> term_frequencies(std::string_view lowered,
                                                          const std::vector<std::string>& terms);

}  // namespace gv::search
