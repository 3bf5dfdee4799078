// The duplicate score (component 4) for a whole vault: for each memory, the largest share of its
// keywords that one other memory also has. Declared in core/scoring/score.hpp.
//
// Comparing every pair costs N² and so does the obvious inverted index once a few keywords are
// everywhere (a project's name, `config`): a keyword held by a fifth of the memories puts a fifth
// of the vault in every one of their candidate lists. The overlap of two keyword sets is split
// instead into the part made of the 64 most common keywords ("heavy", a bit mask per set) and
// the rest ("light"):
//   overlap(s, o) = |light(s) ∩ light(o)| + popcount(heavy(s) & heavy(o))
// Sets sharing a light keyword are found through the light keywords' postings, which are short,
// and scored exactly. Every other set shares only heavy keywords with s, so it scores at most
// the largest heavy overlap of s with any other memory; that is read from a table of every
// subset of every heavy mask and how many memories hold it (a set has a handful of heavy
// keywords, so a handful of subsets), by looking up the subsets of heavy(s). The best of the
// two is exactly the best over all pairs. Keyword sets held by several memories are scored
// once (they score 1: each is the other's full overlap), and a keyword held by one memory only
// is dropped from the search (it can be shared with nobody).
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

#include "core/scoring/score.hpp"

namespace gv::scoring {
namespace {

constexpr std::size_t k_heavy_keywords = 64;
// A set with more heavy keywords than this has too many subsets to list (2^n); the few such
// sets are compared with every query directly instead.
constexpr int k_max_listed_heavy = 12;

// How many memories hold each heavy-keyword subset: an open-addressing table keyed by mask.
class MaskCounts {
 public:
  explicit MaskCounts(std::size_t expected) {
    std::size_t capacity = 16;
    while (capacity < expected * 2) {
      capacity *= 2;
    }
    m_keys.assign(capacity, k_empty);
    m_counts.assign(capacity, 0);
  }

  void add(std::uint64_t mask, std::uint32_t count) {
    if ((m_size + 1) * 2 > m_keys.size()) {
      grow();
    }
    std::size_t slot = find_slot(mask);
    if (m_keys[slot] == k_empty) {
      m_keys[slot] = mask;
      ++m_size;
    }
    m_counts[slot] += count;
  }

  [[nodiscard]] std::uint32_t count(std::uint64_t mask) const {
    const std::size_t slot = find_slot(mask);
    return m_keys[slot] == k_empty ? 0 : m_counts[slot];
  }

 private:
  // No keyword set has all 64 heavy keywords and the next one: a mask of all ones is never a
  // key of a listed subset (those have at most k_max_listed_heavy bits).
  static constexpr std::uint64_t k_empty = ~std::uint64_t{0};

  [[nodiscard]] std::size_t find_slot(std::uint64_t mask) const {
    const std::size_t last = m_keys.size() - 1;
    std::size_t slot = static_cast<std::size_t>((mask * 0x9E3779B97F4A7C15ULL) >> 20) & last;
    while (m_keys[slot] != k_empty && m_keys[slot] != mask) {
      slot = (slot + 1) & last;
    }
    return slot;
  }

  void grow() {
    std::vector<std::uint64_t> keys = std::move(m_keys);
    std::vector<std::uint32_t> counts = std::move(m_counts);
    m_keys.assign(keys.size() * 2, k_empty);
    m_counts.assign(keys.size() * 2, 0);
    for (std::size_t i = 0; i < keys.size(); ++i) {
      if (keys[i] != k_empty) {
        const std::size_t slot = find_slot(keys[i]);
        m_keys[slot] = keys[i];
        m_counts[slot] = counts[i];
      }
    }
  }

  std::vector<std::uint64_t> m_keys;
  std::vector<std::uint32_t> m_counts;
  std::size_t m_size = 0;
};

// One distinct keyword set.
struct KeywordSet {
  std::uint32_t size = 0;            // |K|, every keyword counted
  std::uint32_t memories = 0;        // how many memories hold exactly this set
  std::uint64_t heavy = 0;           // its heavy keywords, one bit each
  std::vector<std::uint32_t> light;  // its light keywords held by another memory too
};

// std::popcount becomes a library call unless the build targets a CPU with POPCNT; this is the
// branch-free count it would inline.
int bits(std::uint64_t mask) {
  mask -= (mask >> 1) & 0x5555555555555555ULL;
  mask = (mask & 0x3333333333333333ULL) + ((mask >> 2) & 0x3333333333333333ULL);
  mask = (mask + (mask >> 4)) & 0x0F0F0F0F0F0F0F0FULL;
  return static_cast<int>((mask * 0x0101010101010101ULL) >> 56);
}

}  // namespace

std::vector<double> duplicate_scores(const std::vector<const Memory*>& memories) {
  // Intern keyword keys to small integers; each memory becomes a sorted, repeat-free id list.
  std::unordered_map<std::string, std::uint32_t> keyword_ids;
  std::vector<std::vector<std::uint32_t>> keyword_sets(memories.size());
  for (std::size_t i = 0; i < memories.size(); ++i) {
    auto& set = keyword_sets[i];
    set.reserve(memories[i]->keywords.size());
    for (const std::string& keyword : memories[i]->keywords) {
      std::string key = keyword_key(keyword);
      if (key.empty()) {
        continue;  // an empty keyword names nothing, so it neither matches nor counts in |K|
      }
      const auto next_id = static_cast<std::uint32_t>(keyword_ids.size());
      set.push_back(keyword_ids.try_emplace(std::move(key), next_id).first->second);
    }
    std::sort(set.begin(), set.end());
    set.erase(std::unique(set.begin(), set.end()), set.end());
  }

  // How many memories hold each keyword; the most common ones (held by two or more) are heavy.
  std::vector<std::uint32_t> holders(keyword_ids.size(), 0);
  for (const auto& set : keyword_sets) {
    for (const std::uint32_t keyword : set) {
      ++holders[keyword];
    }
  }
  std::vector<std::uint32_t> by_holders(keyword_ids.size());
  for (std::size_t k = 0; k < by_holders.size(); ++k) {
    by_holders[k] = static_cast<std::uint32_t>(k);
  }
  const std::size_t heavy_count = std::min(k_heavy_keywords, by_holders.size());
  std::partial_sort(by_holders.begin(),
                    by_holders.begin() + static_cast<std::ptrdiff_t>(heavy_count), by_holders.end(),
                    [&](std::uint32_t a, std::uint32_t b) {
                      return holders[a] > holders[b] || (holders[a] == holders[b] && a < b);
                    });
  constexpr int k_light = -1;
  std::vector<int> heavy_bit(keyword_ids.size(), k_light);
  for (std::size_t b = 0; b < heavy_count && holders[by_holders[b]] >= 2; ++b) {
    heavy_bit[by_holders[b]] = static_cast<int>(b);
  }

  // Distinct keyword sets: memories holding the same set share one entry.
  std::vector<std::uint32_t> order(memories.size());
  for (std::size_t i = 0; i < order.size(); ++i) {
    order[i] = static_cast<std::uint32_t>(i);
  }
  std::sort(order.begin(), order.end(), [&](std::uint32_t a, std::uint32_t b) {
    return keyword_sets[a] < keyword_sets[b] || (keyword_sets[a] == keyword_sets[b] && a < b);
  });
  std::vector<std::uint32_t> set_of(memories.size());
  std::vector<KeywordSet> sets;
  for (std::size_t n = 0; n < order.size(); ++n) {
    const std::uint32_t i = order[n];
    if (n == 0 || keyword_sets[i] != keyword_sets[order[n - 1]]) {
      KeywordSet& set = sets.emplace_back();
      set.size = static_cast<std::uint32_t>(keyword_sets[i].size());
      for (const std::uint32_t keyword : keyword_sets[i]) {
        if (heavy_bit[keyword] != k_light) {
          set.heavy |= std::uint64_t{1} << heavy_bit[keyword];
        } else if (holders[keyword] >= 2) {
          set.light.push_back(keyword);
        }
      }
    }
    set_of[i] = static_cast<std::uint32_t>(sets.size() - 1);
    ++sets.back().memories;
  }
  keyword_sets.clear();
  keyword_sets.shrink_to_fit();

  // Memories per heavy mask, then per subset of a heavy mask (the masks with few bits), and the
  // masks with many bits kept aside.
  std::unordered_map<std::uint64_t, std::uint32_t> per_mask;
  for (const KeywordSet& set : sets) {
    per_mask[set.heavy] += set.memories;
  }
  std::size_t listed = 0;
  for (const auto& [mask, count] : per_mask) {
    listed += bits(mask) <= k_max_listed_heavy ? std::size_t{1} << bits(mask) : 0;
  }
  MaskCounts containing(listed);
  std::vector<std::pair<std::uint64_t, std::uint32_t>> wide;  // masks with too many bits to list
  for (const auto& [mask, count] : per_mask) {
    if (bits(mask) > k_max_listed_heavy) {
      wide.emplace_back(mask, count);
      continue;
    }
    for (std::uint64_t subset = mask;; subset = (subset - 1) & mask) {
      containing.add(subset, count);
      if (subset == 0) {
        break;
      }
    }
  }
  std::sort(wide.begin(), wide.end());

  // The light keywords' postings over distinct sets.
  std::vector<std::vector<std::uint32_t>> postings(holders.size());
  for (std::size_t d = 0; d < sets.size(); ++d) {
    for (const std::uint32_t keyword : sets[d].light) {
      postings[keyword].push_back(static_cast<std::uint32_t>(d));
    }
  }

  std::vector<double> set_scores(sets.size(), 0.0);
  std::vector<std::uint32_t> shared(sets.size(), 0);
  std::vector<std::uint32_t> touched;
  const std::vector<std::uint32_t> no_keywords;
  for (std::size_t d = 0; d < sets.size(); ++d) {
    const KeywordSet& set = sets[d];
    if (set.size == 0) {
      continue;
    }
    if (set.memories > 1) {
      set_scores[d] = 1.0;
      continue;
    }
    // The best heavy overlap with another memory: the largest listed subset of heavy(s) that
    // another memory holds (this memory is counted in the table unless its mask is wide), and
    // the wide masks directly.
    int best = 0;
    const int own_bits = bits(set.heavy);
    const std::uint32_t own = own_bits <= k_max_listed_heavy ? 1 : 0;
    if (own_bits <= k_max_listed_heavy) {
      for (std::uint64_t subset = set.heavy; subset != 0 && best < own_bits;
           subset = (subset - 1) & set.heavy) {
        if (bits(subset) > best && containing.count(subset) > own) {
          best = bits(subset);
        }
      }
    } else {
      // No listed subset can hold more than k_max_listed_heavy of its bits; look at all masks.
      for (const auto& [mask, count] : per_mask) {
        if (mask != set.heavy || count > 1) {
          best = std::max(best, bits(set.heavy & mask));
        }
      }
    }
    for (const auto& [mask, count] : wide) {
      if (mask != set.heavy || count > 1) {
        best = std::max(best, bits(set.heavy & mask));
      }
    }
    // Sets sharing a light keyword, scored exactly; no need once another memory holds them all.
    for (const std::uint32_t keyword :
         best < static_cast<int>(set.size) ? set.light : no_keywords) {
      for (const std::uint32_t other : postings[keyword]) {
        if (++shared[other] == 1) {
          touched.push_back(other);
        }
      }
    }
    for (const std::uint32_t other : touched) {
      if (other != d) {
        best =
            std::max(best, static_cast<int>(shared[other]) + bits(set.heavy & sets[other].heavy));
      }
      shared[other] = 0;
    }
    touched.clear();
    set_scores[d] = static_cast<double>(best) / static_cast<double>(set.size);
  }

  std::vector<double> scores(memories.size(), 0.0);
  for (std::size_t i = 0; i < memories.size(); ++i) {
    scores[i] = set_scores[set_of[i]];
  }
  return scores;
}

}  // namespace gv::scoring
