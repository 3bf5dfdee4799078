#include "core/search/postings.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>

namespace gv::search {

namespace {

// BM25's inverse document frequency of a term `holding` of `live` documents hold.
double idf_of(double live, double holding) {
  return std::log(1.0 + (live - holding + 0.5) / (holding + 0.5));
}

// One posting's share of a document's term frequency: its count at its field's weight, over
// the field's length normalisation.
double occurrence_weight(const FieldParams& field, std::uint32_t count, std::uint32_t length,
                         double average_length) {
  const double norm = average_length > 0 ? 1.0 - field.b + field.b * length / average_length : 1.0;
  return field.weight * count / norm;
}

}  // namespace

std::vector<Ranked> rank_postings(const PostingView& view, const std::vector<std::string>& terms,
                                  const RankingParams& params, std::span<const double> weights) {
  if (terms.empty() || view.live == 0) {
    return {};
  }
  std::array<double, k_field_count> average_length{};
  for (std::size_t f = 0; f < k_field_count; ++f) {
    average_length[f] = view.total_length[f] / static_cast<double>(view.live);
  }
  const auto is_dead = [&](std::uint32_t document) {
    return view.dead != nullptr && (*view.dead)[document];
  };

  // Pass 1: the weighted, length-normalised term frequency of every matching document, summed
  // over its fields in field order, as rank() sums them.
  const std::size_t term_count = terms.size();
  std::vector<double> weighted;  // by matched document, then term
  std::vector<std::uint32_t> slot_of(view.documents, std::numeric_limits<std::uint32_t>::max());
  std::vector<std::uint32_t> matched;  // documents, in the order first met
  for (std::size_t t = 0; t < term_count && t < view.terms.size(); ++t) {
    for (const Posting& posting : view.terms[t]) {
      if (posting.document >= view.documents || posting.field >= k_field_count ||
          is_dead(posting.document)) {
        continue;
      }
      std::uint32_t& slot = slot_of[posting.document];
      if (slot == std::numeric_limits<std::uint32_t>::max()) {
        slot = static_cast<std::uint32_t>(matched.size());
        matched.push_back(posting.document);
        weighted.resize(weighted.size() + term_count, 0.0);
      }
      weighted[slot * term_count + t] +=
          occurrence_weight(params.fields[posting.field], posting.count,
                            view.lengths[posting.document * view.stride + posting.field],
                            average_length[posting.field]);
    }
  }
  std::sort(matched.begin(), matched.end());  // document order, as rank() visits them

  std::vector<std::size_t> document_frequency(term_count, 0);
  for (const std::uint32_t document : matched) {
    for (std::size_t t = 0; t < term_count; ++t) {
      if (weighted[slot_of[document] * term_count + t] > 0) {
        ++document_frequency[t];
      }
    }
  }
  // Pass 2: BM25 saturation and the inverse document frequency.
  // A term no document holds weighs as much as the rarest can: a task word the vault has never
  // seen is part of what the task is about, and counts against every document's coverage.
  std::vector<double> idf(term_count, 0.0);
  double query_mass = 0.0;
  for (std::size_t t = 0; t < term_count; ++t) {
    const double n = static_cast<double>(document_frequency[t]);
    idf[t] = idf_of(static_cast<double>(view.live), n);
    // Coverage counts the query's own terms (weight 1), not the expansion's.
    if (weights.empty() || weights[t] >= 1.0) {
      query_mass += idf[t];
    }
  }
  std::vector<Ranked> ranked;
  ranked.reserve(matched.size());
  for (const std::uint32_t document : matched) {
    Ranked entry;
    entry.document = document;
    double held = 0.0;
    for (std::size_t t = 0; t < term_count; ++t) {
      const double tf = weighted[slot_of[document] * term_count + t];
      if (tf > 0) {
        const double weight = weights.empty() ? 1.0 : weights[t];
        entry.score += weight * idf[t] * tf * (params.k1 + 1.0) / (params.k1 + tf);
        if (weight >= 1.0) {
          held += idf[t];
        }
        entry.terms.push_back(terms[t]);
      }
    }
    entry.coverage = query_mass > 0 ? held / query_mass : 0.0;
    ranked.push_back(std::move(entry));
  }
  std::stable_sort(ranked.begin(), ranked.end(),
                   [](const Ranked& a, const Ranked& b) { return a.score > b.score; });
  return ranked;
}

std::vector<Scored> top_postings(const PostingView& view, const RankingParams& params,
                                 std::size_t k, std::vector<double>& scratch) {
  std::vector<Scored> top;
  if (k == 0 || view.live == 0) {
    return top;
  }
  scratch.resize(std::max(scratch.size(), view.documents), 0.0);
  std::array<double, k_field_count> average_length{};
  for (std::size_t f = 0; f < k_field_count; ++f) {
    average_length[f] = view.total_length[f] / static_cast<double>(view.live);
  }
  std::vector<std::uint32_t> touched;
  // Term by term: a term's postings run by document, so each document's weighted frequency is
  // complete when the next document starts, and is saturated then, as rank_postings does.
  for (const std::span<const Posting> postings : view.terms) {
    const double n = static_cast<double>(count_documents(postings, view.dead));
    if (n == 0) {
      continue;
    }
    const double idf = idf_of(static_cast<double>(view.live), n);
    const auto add = [&](std::uint32_t document, double tf) {
      if (tf <= 0) {
        return;
      }
      if (scratch[document] == 0.0) {
        touched.push_back(document);
      }
      scratch[document] += idf * tf * (params.k1 + 1.0) / (params.k1 + tf);
    };
    std::uint32_t current = std::numeric_limits<std::uint32_t>::max();
    double tf = 0.0;
    for (const Posting& posting : postings) {
      if (posting.document >= view.documents || posting.field >= k_field_count ||
          (view.dead != nullptr && (*view.dead)[posting.document])) {
        continue;
      }
      if (posting.document != current) {
        if (current != std::numeric_limits<std::uint32_t>::max()) {
          add(current, tf);
        }
        current = posting.document;
        tf = 0.0;
      }
      tf += occurrence_weight(params.fields[posting.field], posting.count,
                              view.lengths[posting.document * view.stride + posting.field],
                              average_length[posting.field]);
    }
    if (current != std::numeric_limits<std::uint32_t>::max()) {
      add(current, tf);
    }
  }
  top.reserve(touched.size());
  for (const std::uint32_t document : touched) {
    top.push_back({document, scratch[document]});
    scratch[document] = 0.0;
  }
  const auto better = [](const Scored& a, const Scored& b) {
    return a.score != b.score ? a.score > b.score : a.document < b.document;
  };
  if (top.size() > k) {
    std::partial_sort(top.begin(), top.begin() + static_cast<std::ptrdiff_t>(k), top.end(), better);
    top.resize(k);
  } else {
    std::sort(top.begin(), top.end(), better);
  }
  return top;
}

std::size_t count_documents(std::span<const Posting> postings, const std::vector<bool>* dead) {
  std::size_t count = 0;
  std::uint32_t last = std::numeric_limits<std::uint32_t>::max();
  for (const Posting& posting : postings) {
    if (posting.document != last &&
        (dead == nullptr || posting.document >= dead->size() || !(*dead)[posting.document])) {
      ++count;
    }
    last = posting.document;
  }
  return count;
}

namespace {

// FNV-1a: terms are short, and a byte at a time is as fast as anything for them.
std::uint64_t term_hash(std::string_view term) {
  std::uint64_t hash = 14695981039346656037ULL;
  for (const char c : term) {
    hash = (hash ^ static_cast<unsigned char>(c)) * 1099511628211ULL;
  }
  return hash;
}

}  // namespace

std::uint32_t InvertedIndex::term_id(std::string_view term) {
  const std::uint64_t hash = term_hash(term);
  if (!m_slots.empty()) {
    const std::size_t mask = m_slots.size() - 1;
    for (std::size_t slot = hash & mask;; slot = (slot + 1) & mask) {
      const std::uint32_t held = m_slots[slot];
      if (held == 0) {
        break;
      }
      if (m_hashes[held - 1] == hash && m_terms[held - 1] == term) {
        return held - 1;
      }
    }
  }
  const auto id = static_cast<std::uint32_t>(m_terms.size());
  m_terms.emplace_back(term);
  m_hashes.push_back(hash);
  m_postings.emplace_back();
  // At most half full, so probes stay short; growing re-inserts every id.
  if ((m_terms.size() + 1) * 2 > m_slots.size()) {
    m_slots.assign(std::max<std::size_t>(1024, m_slots.size() * 2), 0);
    const std::size_t mask = m_slots.size() - 1;
    for (std::uint32_t held = 0; held < m_terms.size(); ++held) {
      std::size_t slot = m_hashes[held] & mask;
      while (m_slots[slot] != 0) {
        slot = (slot + 1) & mask;
      }
      m_slots[slot] = held + 1;
    }
  } else {
    const std::size_t mask = m_slots.size() - 1;
    std::size_t slot = hash & mask;
    while (m_slots[slot] != 0) {
      slot = (slot + 1) & mask;
    }
    m_slots[slot] = id + 1;
  }
  return id;
}

std::optional<std::uint32_t> InvertedIndex::find_term(std::string_view term) const {
  if (m_slots.empty()) {
    return std::nullopt;
  }
  const std::uint64_t hash = term_hash(term);
  const std::size_t mask = m_slots.size() - 1;
  for (std::size_t slot = hash & mask;; slot = (slot + 1) & mask) {
    const std::uint32_t held = m_slots[slot];
    if (held == 0) {
      return std::nullopt;
    }
    if (m_hashes[held - 1] == hash && m_terms[held - 1] == term) {
      return held - 1;
    }
  }
}

std::vector<Posting>& InvertedIndex::postings_of(std::string_view term) {
  return m_postings[term_id(term)];
}

std::uint32_t InvertedIndex::add(const std::array<std::string_view, k_field_count>& fields) {
  // Each word becomes its term id and field in one number; sorting those numbers groups a
  // term's occurrences by field, so the counts come out in one pass without a map per document.
  // A field's length counts its tokens: a compound (`max_time`) is one word of the text,
  // however many terms it gives.
  std::array<std::uint32_t, k_field_count> lengths{};
  m_scratch.clear();
  for (std::size_t f = 0; f < k_field_count; ++f) {
    for_each_token(fields[f], [&](std::string_view token, std::size_t) {
      ++lengths[f];
      for (const std::string_view term : m_analyzer.terms_of(token)) {
        m_scratch.push_back(static_cast<std::uint64_t>(term_id(term)) << 3 | f);
      }
    });
  }
  std::sort(m_scratch.begin(), m_scratch.end());
  const std::uint32_t id = add_saved(lengths);
  for (std::size_t i = 0; i < m_scratch.size();) {
    std::size_t j = i;
    while (j < m_scratch.size() && m_scratch[j] == m_scratch[i]) {
      ++j;
    }
    const auto count = static_cast<std::uint16_t>(std::min<std::size_t>(j - i, 65535));
    m_postings[m_scratch[i] >> 3].push_back(
        {id, static_cast<std::uint16_t>(m_scratch[i] & 7U), count});
    i = j;
  }
  return id;
}

std::array<std::uint32_t, k_field_count> InvertedIndex::lengths(std::uint32_t document) const {
  std::array<std::uint32_t, k_field_count> out{};
  std::copy_n(m_lengths.begin() + static_cast<std::ptrdiff_t>(document * k_field_count),
              k_field_count, out.begin());
  return out;
}

std::uint32_t InvertedIndex::add_saved(const std::array<std::uint32_t, k_field_count>& lengths) {
  const auto id = static_cast<std::uint32_t>(m_dead.size());
  m_lengths.insert(m_lengths.end(), lengths.begin(), lengths.end());
  m_dead.push_back(false);
  for (std::size_t f = 0; f < k_field_count; ++f) {
    m_total_length[f] += lengths[f];
  }
  return id;
}

void InvertedIndex::add_postings(std::string_view term, const std::vector<Posting>& postings) {
  std::vector<Posting>& list = postings_of(term);
  list.insert(list.end(), postings.begin(), postings.end());
}

void InvertedIndex::remove(std::uint32_t document) {
  if (document >= m_dead.size() || m_dead[document]) {
    return;
  }
  m_dead[document] = true;
  ++m_dead_count;
  for (std::size_t f = 0; f < k_field_count; ++f) {
    m_total_length[f] -= m_lengths[document * k_field_count + f];
  }
}

std::vector<std::uint32_t> InvertedIndex::compact() {
  std::vector<std::uint32_t> order;
  order.reserve(live());
  for (std::uint32_t d = 0; d < m_dead.size(); ++d) {
    if (!m_dead[d]) {
      order.push_back(d);
    }
  }
  std::vector<std::uint32_t> renumbered(m_dead.size(), std::numeric_limits<std::uint32_t>::max());
  for (std::size_t i = 0; i < order.size(); ++i) {
    renumbered[order[i]] = static_cast<std::uint32_t>(i);
  }
  reorder(order);
  return renumbered;
}

void InvertedIndex::reorder(const std::vector<std::uint32_t>& order) {
  constexpr std::uint32_t k_gone = std::numeric_limits<std::uint32_t>::max();
  std::vector<std::uint32_t> renumbered(m_dead.size(), k_gone);
  std::vector<std::uint32_t> lengths;
  lengths.reserve(order.size() * k_field_count);
  m_total_length = {};
  for (std::size_t i = 0; i < order.size(); ++i) {
    const std::uint32_t d = order[i];
    renumbered[d] = static_cast<std::uint32_t>(i);
    for (std::size_t f = 0; f < k_field_count; ++f) {
      const std::uint32_t length = m_lengths[d * k_field_count + f];
      lengths.push_back(length);
      m_total_length[f] += length;
    }
  }
  for (std::vector<Posting>& postings : m_postings) {
    std::size_t kept = 0;
    for (const Posting& posting : postings) {
      if (renumbered[posting.document] != k_gone) {
        postings[kept] = posting;
        postings[kept].document = renumbered[posting.document];
        ++kept;
      }
    }
    postings.resize(kept);
  }
  m_lengths = std::move(lengths);
  m_dead.assign(order.size(), false);
  m_dead_count = 0;
}

std::vector<Ranked> InvertedIndex::rank(const std::vector<std::string>& terms,
                                        const RankingParams& params,
                                        std::span<const double> weights) const {
  return rank_postings(view_of(terms), terms, params, weights);
}

std::vector<Scored> InvertedIndex::top(const std::vector<std::string>& terms,
                                       const RankingParams& params, std::size_t k,
                                       std::vector<double>& scratch) const {
  return top_postings(view_of(terms), params, k, scratch);
}

PostingView InvertedIndex::view_of(const std::vector<std::string>& terms) const {
  PostingView view;
  for (const std::string& term : terms) {
    const std::optional<std::uint32_t> id = find_term(term);
    view.terms.push_back(id ? std::span<const Posting>(m_postings[*id])
                            : std::span<const Posting>{});
  }
  view.documents = size();
  view.live = live();
  view.total_length = m_total_length;
  view.lengths = m_lengths.data();
  view.stride = k_field_count;
  view.dead = &m_dead;
  return view;
}

std::size_t InvertedIndex::document_frequency(std::string_view term) const {
  const std::optional<std::uint32_t> id = find_term(term);
  return id ? count_documents(m_postings[*id], &m_dead) : 0;
}

std::vector<std::pair<std::string_view, std::span<const Posting>>> InvertedIndex::sorted_terms()
    const {
  std::vector<std::pair<std::string_view, std::span<const Posting>>> out;
  for (std::size_t id = 0; id < m_terms.size(); ++id) {
    if (!m_postings[id].empty()) {
      out.emplace_back(m_terms[id], m_postings[id]);
    }
  }
  std::sort(out.begin(), out.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  return out;
}

}  // namespace gv::search
