#include "core/search/bm25.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>

#include "core/search/terms.hpp"
#include "core/util/text.hpp"

namespace gv::search {
namespace {

bool contains(std::string_view haystack, std::string_view needle) {
  if (needle.empty()) {
    return true;
  }
  // memmem is vectorised in glibc: a text that cannot hold the term costs one fast scan, not
  // a word split.
  return ::memmem(haystack.data(), haystack.size(), needle.data(), needle.size()) != nullptr;
}

std::uint32_t count_words(std::string_view text) {
  std::uint32_t words = 0;
  for_each_word(text, [&](std::string_view, std::size_t) { ++words; });
  return words;
}

}  // namespace

Document make_document(const std::array<std::string_view, k_field_count>& fields) {
  Document document;
  for (std::size_t f = 0; f < k_field_count; ++f) {
    document.lowered[f] = util::to_lower_ascii(fields[f]);
    document.length[f] = count_words(document.lowered[f]);
  }
  return document;
}

namespace {

// term_frequencies into `counts` (sized like `terms`); false when the text holds none.
bool count_terms(std::string_view lowered, const std::vector<std::string>& terms,
                 std::vector<std::uint32_t>& counts, std::string& normalized) {
  std::fill(counts.begin(), counts.end(), 0);
  bool any = false;
  for (const std::string& term : terms) {
    any = any || contains(lowered, term_prefix(term));
  }
  if (!any) {
    return false;
  }
  bool found = false;
  for_each_word(lowered, [&](std::string_view word, std::size_t) {
    normalize_term(word, normalized);
    for (std::size_t t = 0; t < terms.size(); ++t) {
      if (normalized == terms[t]) {
        ++counts[t];
        found = true;
      }
    }
  });
  return found;
}

}  // namespace

std::vector<std::uint32_t> term_frequencies(std::string_view lowered,
                                            const std::vector<std::string>& terms) {
  std::vector<std::uint32_t> counts(terms.size(), 0);
  std::string normalized;
  (void)count_terms(lowered, terms, counts, normalized);
  return counts;
}

std::vector<Ranked> rank(const std::vector<Document>& documents,
                         const std::vector<std::string>& terms, const RankingParams& params) {
  if (terms.empty()) {
    return {};
  }
  std::array<double, k_field_count> total_length{};
  std::size_t live = 0;
  for (const Document& document : documents) {
    if (!document.live) {
      continue;
    }
    ++live;
    for (std::size_t f = 0; f < k_field_count; ++f) {
      total_length[f] += document.length[f];
    }
  }
  if (live == 0) {
    return {};
  }
  std::array<double, k_field_count> average_length{};
  for (std::size_t f = 0; f < k_field_count; ++f) {
    average_length[f] = total_length[f] / static_cast<double>(live);
  }

  // Pass 1: the weighted, length-normalised term frequency of every matching document.
  struct Match {
    std::size_t document;
    std::vector<double> weighted;  // per term
  };
  std::vector<Match> matches;
  std::vector<std::size_t> document_frequency(terms.size(), 0);
  std::vector<double> weighted(terms.size(), 0.0);
  std::vector<std::uint32_t> counts(terms.size(), 0);
  std::string normalized;
  for (std::size_t d = 0; d < documents.size(); ++d) {
    const Document& document = documents[d];
    if (!document.live) {
      continue;
    }
    std::fill(weighted.begin(), weighted.end(), 0.0);
    bool matched = false;
    for (std::size_t f = 0; f < k_field_count; ++f) {
      if (document.length[f] == 0 || !count_terms(document.lowered[f], terms, counts, normalized)) {
        continue;
      }
      const FieldParams& field = params.fields[f];
      const double norm = average_length[f] > 0
                              ? 1.0 - field.b + field.b * document.length[f] / average_length[f]
                              : 1.0;
      for (std::size_t t = 0; t < terms.size(); ++t) {
        if (counts[t] > 0) {
          weighted[t] += field.weight * counts[t] / norm;
          matched = true;
        }
      }
    }
    if (!matched) {
      continue;
    }
    for (std::size_t t = 0; t < terms.size(); ++t) {
      if (weighted[t] > 0) {
        ++document_frequency[t];
      }
    }
    matches.push_back({d, weighted});
  }

  // Pass 2: BM25 saturation and the inverse document frequency (the +1 keeps it positive for
  // a term that most documents hold).
  std::vector<double> idf(terms.size(), 0.0);
  for (std::size_t t = 0; t < terms.size(); ++t) {
    const double n = static_cast<double>(document_frequency[t]);
    idf[t] = std::log(1.0 + (static_cast<double>(live) - n + 0.5) / (n + 0.5));
  }
  std::vector<Ranked> ranked;
  ranked.reserve(matches.size());
  for (const Match& match : matches) {
    Ranked entry;
    entry.document = match.document;
    for (std::size_t t = 0; t < terms.size(); ++t) {
      const double tf = match.weighted[t];
      if (tf > 0) {
        entry.score += idf[t] * tf * (params.k1 + 1.0) / (params.k1 + tf);
        entry.terms.push_back(terms[t]);
      }
    }
    ranked.push_back(std::move(entry));
  }
  std::stable_sort(ranked.begin(), ranked.end(),
                   [](const Ranked& a, const Ranked& b) { return a.score > b.score; });
  return ranked;
}

}  // namespace gv::search
