// The duplicate score (component 4) for a whole vault: for each memory, the largest share of its
// keywords that one other memory also has. Declared in core/scoring/score.hpp.
//
// Comparing every pair costs N² and so does the obvious inverted index once some keywords are
// common (a project's name, `config`): a keyword held by a fifth of the memories puts a fifth of
// the vault in each of their candidate lists, and a keyword held by a fixed share of a growing
// vault makes the work grow with its square. Overlaps are split instead into common ("heavy")
// keywords and the rest ("light"):
//   overlap(s, o) = |light(s) ∩ light(o)| + |heavy(s) ∩ heavy(o)|
// Sets sharing a light keyword are found through the light keywords' postings, which are kept
// short, and scored exactly. Every other set shares only heavy keywords with s, so it scores at
// most the largest heavy overlap of s with any other memory. That one is read from a table of
// every subset of every memory's heavy keywords and how many memories hold it (a memory has a
// handful of heavy keywords, so a handful of subsets): the largest subset of heavy(s) that
// another memory holds. The best of the two is exactly the best over all pairs.
//
// How many keywords are heavy is chosen per vault: the fewest (at least 64) that keep the light
// postings' pair count within a small multiple of the keyword count, as long as almost every
// memory keeps at most k_max_tabled heavy keywords. A memory with more is "wide": it is compared
// with the other memories directly, which stays cheap while wide ones are rare.
//
// Keyword sets held by several memories are scored once (1 for each: each is the other's full
// overlap), a memory stops searching once another holds all its keywords, and a keyword held by
// one memory only is left out (nobody shares it).
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "core/scoring/score.hpp"

namespace gv::scoring {
namespace {

constexpr std::size_t k_min_heavy = 64;
constexpr std::size_t k_max_heavy = 65535;  // heavy ids are 16 bits
// At most this many heavy keywords per memory go into the subset table (2^8 subsets).
constexpr std::size_t k_max_tabled = 8;
// The light postings may hold this many pairs per keyword a memory has.
constexpr std::size_t k_light_pairs_per_keyword = 16;
// Heavy keywords are added only while at most one memory in this many becomes wide.
constexpr std::size_t k_wide_share = 100;

// Up to k_max_tabled heavy ids (each + 1, so 0 means "none"), ascending, packed 16 bits each.
struct Tuple {
  std::uint64_t low = 0;
  std::uint64_t high = 0;
  friend bool operator==(const Tuple&, const Tuple&) = default;
};

Tuple pack(const std::uint16_t* ids, std::size_t count, unsigned chosen) {
  Tuple tuple;
  unsigned slot = 0;
  for (std::size_t i = 0; i < count; ++i) {
    if ((chosen >> i) & 1U) {
      const std::uint64_t value = static_cast<std::uint64_t>(ids[i]) + 1;
      if (slot < 4) {
        tuple.low |= value << (16 * slot);
      } else {
        tuple.high |= value << (16 * (slot - 4));
      }
      ++slot;
    }
  }
  return tuple;
}

// splitmix64's finaliser: every input bit moves every output bit, so any slice of the result is a
// fair slot number.
std::uint64_t mix(std::uint64_t value) {
  value ^= value >> 30;
  value *= 0xBF58476D1CE4E5B9ULL;
  value ^= value >> 27;
  value *= 0x94D049BB133111EBULL;
  return value ^ (value >> 31);
}

// How many memories hold each tuple of heavy keywords: open addressing, keys never all-zero
// except the empty tuple, which is stored apart.
class TupleCounts {
 public:
  explicit TupleCounts(std::size_t expected) {
    std::size_t capacity = 16;
    while (capacity < expected * 2) {
      capacity *= 2;
    }
    m_keys.assign(capacity, Tuple{});
    m_counts.assign(capacity, 0);
  }

  void add(const Tuple& key, std::uint32_t count) {
    if (key == Tuple{}) {
      return;  // the empty subset is held by everybody and never looked up
    }
    if ((m_size + 1) * 2 > m_keys.size()) {
      grow();
    }
    const std::size_t slot = find_slot(key);
    if (m_keys[slot] == Tuple{}) {
      m_keys[slot] = key;
      ++m_size;
    }
    m_counts[slot] += count;
  }

  [[nodiscard]] std::uint32_t count(const Tuple& key) const {
    const std::size_t slot = find_slot(key);
    return m_keys[slot] == Tuple{} ? 0 : m_counts[slot];
  }

 private:
  [[nodiscard]] std::size_t find_slot(const Tuple& key) const {
    const std::size_t last = m_keys.size() - 1;
    std::size_t slot = static_cast<std::size_t>(mix(key.low ^ mix(key.high))) & last;
    while (!(m_keys[slot] == Tuple{}) && !(m_keys[slot] == key)) {
      slot = (slot + 1) & last;
    }
    return slot;
  }

  void grow() {
    std::vector<Tuple> keys = std::move(m_keys);
    std::vector<std::uint32_t> counts = std::move(m_counts);
    m_keys.assign(keys.size() * 2, Tuple{});
    m_counts.assign(keys.size() * 2, 0);
    for (std::size_t i = 0; i < keys.size(); ++i) {
      if (!(keys[i] == Tuple{})) {
        const std::size_t slot = find_slot(keys[i]);
        m_keys[slot] = keys[i];
        m_counts[slot] = counts[i];
      }
    }
  }

  std::vector<Tuple> m_keys;
  std::vector<std::uint32_t> m_counts;
  std::size_t m_size = 0;
};

// True when keyword_key(text) == text: no surrounding whitespace, no upper-case ASCII letter.
bool is_key(std::string_view text) {
  if (text.empty()) {
    return true;
  }
  const auto space = [](char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; };
  if (space(text.front()) || space(text.back())) {
    return false;
  }
  return std::none_of(text.begin(), text.end(), [](char c) { return c >= 'A' && c <= 'Z'; });
}

// |a ∩ b| for two ascending id lists.
std::uint32_t common(const std::uint16_t* a, std::size_t a_size, const std::uint16_t* b,
                     std::size_t b_size) {
  std::uint32_t count = 0;
  std::size_t i = 0;
  std::size_t j = 0;
  while (i < a_size && j < b_size) {
    if (a[i] == b[j]) {
      ++count;
      ++i;
      ++j;
    } else if (a[i] < b[j]) {
      ++i;
    } else {
      ++j;
    }
  }
  return count;
}

// The number of keywords to treat as heavy. `holders` is sorted, most held first.
std::size_t choose_heavy(const std::vector<std::uint32_t>& holders,
                         const std::vector<std::vector<std::uint32_t>>& sets_by_rank,
                         std::size_t slots) {
  // light_pairs[r]: the light postings' pair count when the r most held keywords are heavy.
  std::vector<std::uint64_t> light_pairs(holders.size() + 1, 0);
  for (std::size_t r = holders.size(); r-- > 0;) {
    const std::uint64_t held = holders[r] >= 2 ? holders[r] : 0;
    light_pairs[r] = light_pairs[r + 1] + held * held;
  }
  const auto wide_sets = [&](std::size_t heavy) {
    std::size_t wide = 0;
    for (const auto& ranks : sets_by_rank) {
      // Ranks are ascending, so the heavy ones come first.
      const auto end = std::lower_bound(ranks.begin(), ranks.end(), heavy);
      wide += static_cast<std::size_t>(end - ranks.begin()) > k_max_tabled ? 1 : 0;
    }
    return wide;
  };
  std::size_t heavy = std::min(k_min_heavy, holders.size());
  const std::size_t wide_limit = sets_by_rank.size() / k_wide_share;
  while (heavy < std::min(k_max_heavy, holders.size()) &&
         light_pairs[heavy] > k_light_pairs_per_keyword * slots) {
    const std::size_t next = std::min({heavy * 2, k_max_heavy, holders.size()});
    if (wide_sets(next) > std::max(wide_limit, wide_sets(heavy))) {
      break;
    }
    heavy = next;
  }
  return heavy;
}

}  // namespace

std::vector<double> duplicate_scores(const std::vector<const Memory*>& memories) {
  // Intern keyword keys to small integers; each memory becomes a sorted, repeat-free id list.
  // Most keywords are already keys (trimmed, lower case) and are looked up in place; the others
  // are normalised into `normalised`, whose strings do not move (a deque never relocates).
  std::unordered_map<std::string_view, std::uint32_t> keyword_ids;
  std::deque<std::string> normalised;
  std::vector<std::vector<std::uint32_t>> keyword_sets(memories.size());
  for (std::size_t i = 0; i < memories.size(); ++i) {
    auto& set = keyword_sets[i];
    set.reserve(memories[i]->keywords.size());
    for (const std::string& keyword : memories[i]->keywords) {
      std::string_view key = keyword;
      if (!is_key(key)) {
        normalised.push_back(keyword_key(keyword));
        key = normalised.back();
      }
      if (key.empty()) {
        continue;  // an empty keyword names nothing, so it neither matches nor counts in |K|
      }
      const auto next_id = static_cast<std::uint32_t>(keyword_ids.size());
      set.push_back(keyword_ids.try_emplace(key, next_id).first->second);
    }
    std::sort(set.begin(), set.end());
    set.erase(std::unique(set.begin(), set.end()), set.end());
  }
  const std::size_t keyword_count = keyword_ids.size();
  keyword_ids.clear();

  // Distinct keyword sets: memories holding the same set share one entry.
  std::vector<std::uint32_t> order(memories.size());
  for (std::size_t i = 0; i < order.size(); ++i) {
    order[i] = static_cast<std::uint32_t>(i);
  }
  std::sort(order.begin(), order.end(), [&](std::uint32_t a, std::uint32_t b) {
    return keyword_sets[a] < keyword_sets[b] || (keyword_sets[a] == keyword_sets[b] && a < b);
  });
  std::vector<std::uint32_t> set_of(memories.size());
  std::vector<std::uint32_t> first_memory;  // distinct set -> a memory holding it
  std::vector<std::uint32_t> multiplicity;  // distinct set -> memories holding it
  for (std::size_t n = 0; n < order.size(); ++n) {
    const std::uint32_t i = order[n];
    if (n == 0 || keyword_sets[i] != keyword_sets[order[n - 1]]) {
      first_memory.push_back(i);
      multiplicity.push_back(0);
    }
    set_of[i] = static_cast<std::uint32_t>(first_memory.size() - 1);
    ++multiplicity.back();
  }
  const std::size_t distinct = first_memory.size();

  // Keywords ranked by how many memories hold them (most first); sets rewritten as ranks.
  std::vector<std::uint32_t> holders_by_id(keyword_count, 0);
  std::size_t slots = 0;
  for (const auto& set : keyword_sets) {
    for (const std::uint32_t keyword : set) {
      ++holders_by_id[keyword];
      ++slots;
    }
  }
  std::vector<std::uint32_t> by_rank(holders_by_id.size());
  for (std::size_t k = 0; k < by_rank.size(); ++k) {
    by_rank[k] = static_cast<std::uint32_t>(k);
  }
  std::sort(by_rank.begin(), by_rank.end(), [&](std::uint32_t a, std::uint32_t b) {
    return holders_by_id[a] > holders_by_id[b] || (holders_by_id[a] == holders_by_id[b] && a < b);
  });
  std::vector<std::uint32_t> rank_of(by_rank.size());
  std::vector<std::uint32_t> holders(by_rank.size());
  for (std::size_t r = 0; r < by_rank.size(); ++r) {
    rank_of[by_rank[r]] = static_cast<std::uint32_t>(r);
    holders[r] = holders_by_id[by_rank[r]];
  }
  std::vector<std::vector<std::uint32_t>> sets(distinct);  // distinct set -> ascending ranks
  for (std::size_t d = 0; d < distinct; ++d) {
    for (const std::uint32_t keyword : keyword_sets[first_memory[d]]) {
      sets[d].push_back(rank_of[keyword]);
    }
    std::sort(sets[d].begin(), sets[d].end());
  }
  keyword_sets.clear();
  keyword_sets.shrink_to_fit();
  const std::size_t heavy_count = choose_heavy(holders, sets, slots);

  // Per distinct set, flat: its size, heavy ids (ranks below heavy_count, held by two or more)
  // and light keywords held by two or more memories.
  std::vector<std::uint32_t> size(distinct);
  std::vector<std::uint32_t> heavy_begin(distinct + 1, 0);
  std::vector<std::uint16_t> heavy;
  std::vector<std::uint32_t> light_begin(distinct + 1, 0);
  std::vector<std::uint32_t> light;
  for (std::size_t d = 0; d < distinct; ++d) {
    size[d] = static_cast<std::uint32_t>(sets[d].size());
    for (const std::uint32_t rank : sets[d]) {
      if (holders[rank] < 2) {
        continue;
      }
      if (rank < heavy_count) {
        heavy.push_back(static_cast<std::uint16_t>(rank));
      } else {
        light.push_back(rank);
      }
    }
    heavy_begin[d + 1] = static_cast<std::uint32_t>(heavy.size());
    light_begin[d + 1] = static_cast<std::uint32_t>(light.size());
    std::vector<std::uint32_t>().swap(sets[d]);
  }
  const auto heavy_size = [&](std::size_t d) { return heavy_begin[d + 1] - heavy_begin[d]; };

  // The subset table, and the wide sets kept aside.
  std::size_t subsets = 0;
  std::vector<std::uint32_t> wide;
  for (std::size_t d = 0; d < distinct; ++d) {
    if (heavy_size(d) > k_max_tabled) {
      wide.push_back(static_cast<std::uint32_t>(d));
    } else {
      subsets += (std::size_t{1} << heavy_size(d)) - heavy_size(d) - 1;
    }
  }
  TupleCounts containing(std::min<std::size_t>(subsets, std::size_t{1} << 26));
  for (std::size_t d = 0; d < distinct; ++d) {
    const std::size_t count = heavy_size(d);
    if (count > k_max_tabled) {
      continue;
    }
    // Subsets of one keyword are never looked up: a heavy keyword is held by two memories or
    // more, so a memory holding one always shares it with another.
    for (unsigned chosen = 1; chosen < (1U << count); ++chosen) {
      if ((chosen & (chosen - 1)) != 0) {
        containing.add(pack(heavy.data() + heavy_begin[d], count, chosen), multiplicity[d]);
      }
    }
  }

  // The light keywords' postings over distinct sets.
  std::vector<std::uint32_t> postings_begin(holders.size() + 1, 0);
  for (const std::uint32_t rank : light) {
    ++postings_begin[rank + 1];
  }
  for (std::size_t r = 0; r < holders.size(); ++r) {
    postings_begin[r + 1] += postings_begin[r];
  }
  std::vector<std::uint32_t> postings(light.size());
  {
    std::vector<std::uint32_t> fill(postings_begin.begin(), postings_begin.end() - 1);
    for (std::size_t d = 0; d < distinct; ++d) {
      for (std::uint32_t at = light_begin[d]; at < light_begin[d + 1]; ++at) {
        postings[fill[light[at]]++] = static_cast<std::uint32_t>(d);
      }
    }
  }

  std::vector<double> set_scores(distinct, 0.0);
  std::vector<std::uint32_t> shared(distinct, 0);
  std::vector<std::uint32_t> touched;
  for (std::size_t d = 0; d < distinct; ++d) {
    if (size[d] == 0) {
      continue;
    }
    if (multiplicity[d] > 1) {
      set_scores[d] = 1.0;
      continue;
    }
    const std::uint16_t* own = heavy.data() + heavy_begin[d];
    const std::uint32_t own_size = heavy_size(d);
    // Sets sharing a light keyword, scored exactly.
    std::uint32_t best = 0;
    for (std::uint32_t at = light_begin[d]; at < light_begin[d + 1]; ++at) {
      for (std::uint32_t p = postings_begin[light[at]]; p < postings_begin[light[at] + 1]; ++p) {
        if (++shared[postings[p]] == 1) {
          touched.push_back(postings[p]);
        }
      }
    }
    for (const std::uint32_t other : touched) {
      // The heavy part adds at most own_size: look it up only when that could beat `best`.
      if (other != d && shared[other] + own_size > best) {
        best =
            std::max(best, shared[other] + common(own, own_size, heavy.data() + heavy_begin[other],
                                                  heavy_size(other)));
      }
      shared[other] = 0;
    }
    touched.clear();
    // Every other set scores at most its heavy overlap: the largest subset of heavy(s) another
    // memory holds. One heavy keyword always is (see above); larger ones only matter when they
    // beat `best`.
    if (own_size > best && own_size > 0) {
      best = std::max<std::uint32_t>(best, 1);
      if (own_size <= k_max_tabled) {
        // This memory is in the table itself: another makes the count at least 2.
        for (unsigned chosen = (1U << own_size) - 1; chosen != 0 && best < own_size; --chosen) {
          const auto bits = static_cast<std::uint32_t>(__builtin_popcount(chosen));
          if (bits > best && containing.count(pack(own, own_size, chosen)) > 1) {
            best = bits;
          }
        }
        for (const std::uint32_t other : wide) {
          best = std::max(
              best, common(own, own_size, heavy.data() + heavy_begin[other], heavy_size(other)));
        }
      } else {
        for (std::size_t other = 0; other < distinct && best < own_size; ++other) {
          if (other != d) {
            best = std::max(
                best, common(own, own_size, heavy.data() + heavy_begin[other], heavy_size(other)));
          }
        }
      }
    }
    set_scores[d] = static_cast<double>(best) / static_cast<double>(size[d]);
  }

  std::vector<double> scores(memories.size(), 0.0);
  for (std::size_t i = 0; i < memories.size(); ++i) {
    scores[i] = set_scores[set_of[i]];
  }
  return scores;
}

}  // namespace gv::scoring
