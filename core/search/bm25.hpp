#pragma once

#include <array>
#include <cstddef>
#include <string>
#include <vector>

// BM25F ranking over documents with a few weighted fields (doc/search.md has the formula and
// the reasons for its constants). The ranking itself is rank_postings (core/search/postings.hpp).
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

struct Ranked {
  std::size_t document = 0;  // index into the documents ranked
  double score = 0.0;
  std::vector<std::string> terms;  // the query terms the document holds, in query order
  // The share of the query's own terms the document holds, by weight: the sum of idf(t) over
  // the query terms of weight 1 it holds, over that sum for all of them; expansion terms
  // (weight below 1) do not count (doc/search.md, "Relevance floor"). 1 when it holds them all.
  double coverage = 0.0;
};

}  // namespace gv::search
