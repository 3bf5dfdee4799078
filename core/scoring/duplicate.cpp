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
// The light pass is one sequential read of each posting list: a posting carries its set's heavy
// keywords, and the memory's own heavy keywords sit in a bitmap, so a candidate's whole overlap
// is known the moment it is reached; no second pass over a candidate list, no random reads of
// another set's keywords. An overlap is symmetric, so each pair is counted once, by the set
// that comes first, and raises the best of both: half the visits of counting it from each side.
//
// Keyword sets held by several memories score 1 (each is the other's full overlap), a memory's
// subset lookups stop once another holds all its heavy keywords, and a keyword held by one
// memory only is left out (nobody shares it).
#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <deque>
#include <functional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/scoring/duplicate_tables.hpp"
#include "core/scoring/score.hpp"

namespace gv::scoring {
namespace {

using namespace duplicate_tables;  // NOLINT(google-build-using-namespace): its own tables

constexpr std::size_t k_min_heavy = 64;
// The light postings may hold this many pairs per keyword a memory has.
constexpr std::size_t k_light_pairs_per_keyword = 16;
// Heavy keywords are added only while at most one memory in this many becomes wide.
constexpr std::size_t k_wide_share = 100;

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

// The number of keywords to treat as heavy. `holders` is sorted, most held first.
std::size_t choose_heavy(const std::vector<std::uint32_t>& holders, const FlatSets& sets_by_rank,
                         std::size_t slots) {
  // light_pairs[r]: the light postings' pair count when the r most held keywords are heavy.
  std::vector<std::uint64_t> light_pairs(holders.size() + 1, 0);
  for (std::size_t r = holders.size(); r-- > 0;) {
    const std::uint64_t held = holders[r] >= 2 ? holders[r] : 0;
    light_pairs[r] = light_pairs[r + 1] + held * held;
  }
  const auto wide_sets = [&](std::size_t heavy) {
    std::size_t wide = 0;
    for (std::size_t d = 0; d < sets_by_rank.count(); ++d) {
      const std::span<const std::uint32_t> ranks = sets_by_rank.view(d);
      // Ranks are ascending, so the heavy ones come first.
      const auto end = std::lower_bound(ranks.begin(), ranks.end(), heavy);
      wide += static_cast<std::size_t>(end - ranks.begin()) > k_max_tabled ? 1 : 0;
    }
    return wide;
  };
  std::size_t heavy = std::min(k_min_heavy, holders.size());
  const std::size_t wide_limit = sets_by_rank.count() / k_wide_share;
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
  // Intern keyword keys to small integers; each memory becomes a sorted, repeat-free id list,
  // all of them in one array. Most keywords are already keys (trimmed, lower case) and are looked
  // up in place; the others are normalised into `normalised`, whose strings do not move (a deque
  // never relocates).
  std::size_t keyword_slots = 0;
  for (const Memory* memory : memories) {
    keyword_slots += memory->keywords.size();
  }
  KeywordIds keyword_ids;
  std::deque<std::string> normalised;
  FlatSets keyword_sets(memories.size(), keyword_slots);
  for (const Memory* memory : memories) {
    for (const std::string& keyword : memory->keywords) {
      std::string_view key = keyword;
      if (!is_key(key)) {
        normalised.push_back(keyword_key(keyword));
        key = normalised.back();
      }
      if (key.empty()) {
        continue;  // an empty keyword names nothing, so it neither matches nor counts in |K|
      }
      keyword_sets.push(keyword_ids.intern(key));
    }
    keyword_sets.close_sorted();
  }
  const std::size_t keyword_count = keyword_ids.size();
  keyword_ids = KeywordIds();

  // Distinct keyword sets: memories holding the same set share one entry. Sets are grouped by a
  // hash of their ids and compared in full only when two hashes are equal.
  std::vector<std::uint64_t> set_hash(memories.size());
  for (std::size_t i = 0; i < memories.size(); ++i) {
    std::uint64_t hash = keyword_sets.size(i);
    for (const std::uint32_t keyword : keyword_sets.view(i)) {
      hash = mix(hash ^ keyword) + keyword;
    }
    set_hash[i] = hash;
  }
  std::vector<std::uint32_t> order(memories.size());
  for (std::size_t i = 0; i < order.size(); ++i) {
    order[i] = static_cast<std::uint32_t>(i);
  }
  std::sort(order.begin(), order.end(), [&](std::uint32_t a, std::uint32_t b) {
    if (set_hash[a] != set_hash[b]) {
      return set_hash[a] < set_hash[b];
    }
    const auto view_a = keyword_sets.view(a);
    const auto view_b = keyword_sets.view(b);
    if (view_a != view_b) {
      return std::lexicographical_compare(view_a.begin(), view_a.end(), view_b.begin(),
                                          view_b.end());
    }
    return a < b;
  });
  std::vector<std::uint32_t> set_of(memories.size());
  std::vector<std::uint32_t> first_memory;  // distinct set -> a memory holding it
  std::vector<std::uint32_t> multiplicity;  // distinct set -> memories holding it
  for (std::size_t n = 0; n < order.size(); ++n) {
    const std::uint32_t i = order[n];
    if (n == 0 || set_hash[i] != set_hash[order[n - 1]] ||
        keyword_sets.view(i) != keyword_sets.view(order[n - 1])) {
      first_memory.push_back(i);
      multiplicity.push_back(0);
    }
    set_of[i] = static_cast<std::uint32_t>(first_memory.size() - 1);
    ++multiplicity.back();
  }
  const std::size_t distinct = first_memory.size();
  std::vector<std::uint64_t>().swap(set_hash);
  std::vector<std::uint32_t>().swap(order);

  // Keywords ranked by how many memories hold them (most first); sets rewritten as ranks.
  std::vector<std::uint32_t> holders_by_id(keyword_count, 0);
  for (const std::uint32_t keyword : keyword_sets.all()) {
    ++holders_by_id[keyword];
  }
  const std::size_t slots = keyword_sets.all().size();
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
  FlatSets sets(distinct, slots);  // distinct set -> ascending ranks
  for (std::size_t d = 0; d < distinct; ++d) {
    for (const std::uint32_t keyword : keyword_sets.view(first_memory[d])) {
      sets.push(rank_of[keyword]);
    }
    sets.close_sorted();
  }
  keyword_sets = FlatSets(0, 0);
  const std::size_t heavy_count = choose_heavy(holders, sets, slots);

  // Per distinct set, flat: its size, heavy ids (ranks below heavy_count, held by two or more)
  // and light keywords held by two or more memories.
  std::vector<std::uint32_t> size(distinct);
  std::vector<std::uint32_t> heavy_begin(distinct + 1, 0);
  std::vector<std::uint16_t> heavy;
  std::vector<std::uint32_t> light_begin(distinct + 1, 0);
  std::vector<std::uint32_t> light;
  for (std::size_t d = 0; d < distinct; ++d) {
    size[d] = static_cast<std::uint32_t>(sets.size(d));
    for (const std::uint32_t rank : sets.view(d)) {
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
  }
  sets = FlatSets(0, 0);
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
  // Sized for the subsets, not twice them: repeated subsets leave the distinct ones well under
  // half, and the table grows if they are not.
  TupleCounts containing(std::min<std::size_t>(subsets, std::size_t{1} << 26));
  std::vector<Tuple> batch;                              // one memory's subsets
  std::vector<std::pair<Tuple, std::uint32_t>> lookups;  // ... and their sizes
  for (std::size_t d = 0; d < distinct; ++d) {
    const std::size_t count = heavy_size(d);
    if (count > k_max_tabled) {
      continue;
    }
    // Subsets of one keyword are never looked up: a heavy keyword is held by two memories or
    // more, so a memory holding one always shares it with another.
    batch.clear();
    for (unsigned chosen = 1; chosen < (1U << count); ++chosen) {
      if ((chosen & (chosen - 1)) != 0) {
        batch.push_back(pack(heavy.data() + heavy_begin[d], count, chosen));
        containing.prefetch(batch.back());
      }
    }
    for (const Tuple& tuple : batch) {
      containing.add(tuple, multiplicity[d]);
    }
  }

  // The light keywords' postings over distinct sets, each with its set's heavy keywords.
  std::vector<std::uint32_t> postings_begin(holders.size() + 1, 0);
  for (const std::uint32_t rank : light) {
    ++postings_begin[rank + 1];
  }
  for (std::size_t r = 0; r < holders.size(); ++r) {
    postings_begin[r + 1] += postings_begin[r];
  }
  // Filled in set order, so each list is sorted by set; light_at[at] is where the set that owns
  // light slot `at` sits in that keyword's list.
  std::vector<Posting> postings(light.size());
  std::vector<std::uint32_t> light_at(light.size());
  {
    std::vector<std::uint32_t> fill(postings_begin.begin(), postings_begin.end() - 1);
    for (std::size_t d = 0; d < distinct; ++d) {
      Posting posting;
      posting.set = static_cast<std::uint32_t>(d);
      posting.heavy_count = static_cast<std::uint16_t>(heavy_size(d));  // at most k_max_heavy
      if (heavy_size(d) <= k_max_tabled) {
        std::copy_n(heavy.data() + heavy_begin[d], heavy_size(d), posting.heavy.begin());
      }
      for (std::uint32_t at = light_begin[d]; at < light_begin[d + 1]; ++at) {
        light_at[at] = fill[light[at]];
        postings[fill[light[at]]++] = posting;
      }
    }
  }
  const auto heavy_of = [&](const Posting& posting) {
    return posting.heavy_count <= k_max_tabled ? posting.heavy.data()
                                               : heavy.data() + heavy_begin[posting.set];
  };

  // The light pass, each pair counted once (see the top): set d walks only the part of its lists
  // after itself. A set's count of light keywords shared with d only grows as d's lists are
  // walked, so the best over every visit is the best over the final counts. best[d] ends as the
  // largest overlap of d with any set it shares a light keyword with.
  std::vector<std::uint32_t> best(distinct, 0);
  HeavyBits own_bits(heavy_count);  // the heavy keywords of the set being scored
  {
    // marks[o]: (d + 1) << 32 | the light keywords o shares with d, while d is walked.
    std::vector<std::uint64_t> marks(distinct, 0);
    for (std::size_t d = 0; d < distinct; ++d) {
      const std::uint16_t* own = heavy.data() + heavy_begin[d];
      const std::uint32_t own_size = heavy_size(d);
      own_bits.assign(own, own_size, true);
      std::uint32_t own_best = best[d];
      const std::uint64_t stamp = static_cast<std::uint64_t>(d + 1) << 32U;
      for (std::uint32_t at = light_begin[d]; at < light_begin[d + 1]; ++at) {
        const Posting* end = postings.data() + postings_begin[light[at] + 1];
        for (const Posting* posting = postings.data() + light_at[at] + 1; posting != end;
             ++posting) {
          std::uint64_t& mark = marks[posting->set];
          mark = (mark & ~std::uint64_t{0xFFFFFFFF}) == stamp ? mark + 1 : stamp | 1U;
          const auto light_shared = static_cast<std::uint32_t>(mark);
          // The heavy part adds at most the smaller heavy set: count it only when that could
          // beat the best of either.
          const std::uint32_t bound =
              light_shared + std::min<std::uint32_t>(own_size, posting->heavy_count);
          std::uint32_t& other_best = best[posting->set];
          if (bound > own_best || bound > other_best) {
            const std::uint32_t shared =
                light_shared + own_bits.count_in(heavy_of(*posting), posting->heavy_count);
            own_best = std::max(own_best, shared);
            other_best = std::max(other_best, shared);
          }
        }
      }
      best[d] = own_best;
      own_bits.assign(own, own_size, false);
    }
  }

  std::vector<double> set_scores(distinct, 0.0);
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
    std::uint32_t best_d = best[d];
    // Every other set scores at most its heavy overlap: the largest subset of heavy(s) another
    // memory holds. One heavy keyword always is (see above); larger ones only matter when they
    // beat the light pass's best.
    if (own_size > best_d && own_size > 0) {
      own_bits.assign(own, own_size, true);
      best_d = std::max<std::uint32_t>(best_d, 1);
      if (own_size <= k_max_tabled) {
        // This memory is in the table itself: another makes the count at least 2.
        lookups.clear();
        for (unsigned chosen = (1U << own_size) - 1; chosen != 0; --chosen) {
          const auto bits = static_cast<std::uint32_t>(__builtin_popcount(chosen));
          if (bits > best_d) {
            lookups.emplace_back(pack(own, own_size, chosen), bits);
            containing.prefetch(lookups.back().first);
          }
        }
        for (const auto& [tuple, bits] : lookups) {
          if (bits > best_d && containing.count(tuple) > 1) {
            best_d = bits;
            if (best_d == own_size) {
              break;
            }
          }
        }
        for (const std::uint32_t other : wide) {
          best_d = std::max(
              best_d, own_bits.count_in(heavy.data() + heavy_begin[other], heavy_size(other)));
        }
      } else {
        for (std::size_t other = 0; other < distinct && best_d < own_size; ++other) {
          if (other != d) {
            best_d = std::max(
                best_d, own_bits.count_in(heavy.data() + heavy_begin[other], heavy_size(other)));
          }
        }
      }
      own_bits.assign(own, own_size, false);
    }
    set_scores[d] = static_cast<double>(best_d) / static_cast<double>(size[d]);
  }

  std::vector<double> scores(memories.size(), 0.0);
  for (std::size_t i = 0; i < memories.size(); ++i) {
    scores[i] = set_scores[set_of[i]];
  }
  return scores;
}

}  // namespace gv::scoring
