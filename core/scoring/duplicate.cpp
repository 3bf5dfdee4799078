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
// most the largest heavy overlap of s with any other memory: the largest subset of heavy(s)
// that another memory holds too (a memory has a handful of heavy keywords, so a handful of
// subsets). The best of the two is exactly the best over all pairs.
//
// Pairs of heavy keywords are counted apart, in a directly indexed array of a few hundred
// kilobytes: they answer for two-keyword subsets outright, and a larger subset can only be held
// by another memory when each of its pairs is. So only subsets of three keywords or more whose
// every pair is shared are listed, each with its memory, built by growing shared pairs rather
// than by trying every subset: 0.6 million of them at 100,000 memories. The list is split by a
// hash of the subset into parts that each fit the first-level cache, and every part is counted
// on its own; one table for all of them was tens of megabytes and took a cache miss per subset
// (doc/performance.md).
//
// How many keywords are heavy is chosen per vault: the fewest (at least 64) that keep the light
// postings' pair count within a small multiple of the keyword count, as long as almost every
// memory keeps at most k_max_tabled heavy keywords. A memory with more is "wide": wide sets are
// compared with every set, 64 at a time, which stays cheap while wide ones are rare.
//
// The light pass is one sequential read of each posting list: a posting carries its set's heavy
// keywords and their 64-bit signature, and the memory's own heavy keywords sit in a bitmap, so a
// candidate's whole overlap is known the moment it is reached; no second pass over a candidate
// list, no random reads of another set's keywords. The signatures bound the heavy overlap, so
// most candidates are settled without counting it. An overlap is symmetric, so each pair is
// counted once, by the set that comes first, and raises the best of both: half the visits of
// counting it from each side.
//
// Keyword sets held by several memories score 1 (each is the other's full overlap), and a
// keyword held by one memory only is left out (nobody shares it).
#include <algorithm>
#include <array>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <memory>
#include <span>
#include <string>
#include <string_view>
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
// The light pass asks for the posting lists of the set this many places ahead.
constexpr std::size_t k_prefetch_ahead = 2;
// Subsets held by other memories are counted in parts of about this many, each part's table
// (twice as many 16-byte slots) well inside the first-level cache.
constexpr std::size_t k_part_size = 512;
constexpr unsigned k_max_part_bits = 16;

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
  // The heavy counts the loop may try, doubling, and how many sets each makes wide: counted for
  // all of them in one pass, and only once the loop needs them.
  std::vector<std::size_t> steps;
  const std::size_t most = std::min(k_max_heavy, holders.size());
  for (std::size_t heavy = std::min(k_min_heavy, most);; heavy = std::min(heavy * 2, most)) {
    steps.push_back(heavy);
    if (heavy >= most) {
      break;
    }
  }
  std::vector<std::size_t> wide_at;  // wide_at[step]: sets with more than k_max_tabled heavy ids
  const auto count_wide = [&] {
    // A set is wide at a step when its (k_max_tabled + 1)th smallest rank is below it: one
    // look per set finds the first such step, and every later step counts it too.
    wide_at.assign(steps.size(), 0);
    for (std::size_t d = 0; d < sets_by_rank.count(); ++d) {
      const std::span<const std::uint32_t> ranks = sets_by_rank.view(d);  // ascending
      if (ranks.size() <= k_max_tabled) {
        continue;
      }
      const auto first_wide = std::upper_bound(steps.begin(), steps.end(), ranks[k_max_tabled]);
      if (first_wide != steps.end()) {
        ++wide_at[static_cast<std::size_t>(first_wide - steps.begin())];
      }
    }
    for (std::size_t step = 1; step < steps.size(); ++step) {
      wide_at[step] += wide_at[step - 1];
    }
  };
  const std::size_t wide_limit = sets_by_rank.count() / k_wide_share;
  std::size_t step = 0;
  while (step + 1 < steps.size() && light_pairs[steps[step]] > k_light_pairs_per_keyword * slots) {
    if (wide_at.empty()) {
      count_wide();
    }
    if (wide_at[step + 1] > std::max(wide_limit, wide_at[step])) {
      break;
    }
    ++step;
  }
  return steps[step];
}

// For each distinct set, the size of the largest subset of three or more of its heavy keywords
// that another memory holds too; 0 when there is none. Every such subset whose pairs are all
// shared is listed with its set, the list is split by a hash of the subset into parts small
// enough for the cache, and each part is counted in a table of its own: one sequential pass over
// the list instead of a random probe into a table many times the cache for every subset.
std::vector<std::uint8_t> largest_held_subsets(const std::vector<std::uint16_t>& heavy,
                                               const std::vector<std::uint32_t>& heavy_begin,
                                               std::size_t distinct, const PairCounts& pairs,
                                               std::size_t subsets) {
  unsigned part_bits = 0;  // `subsets` bounds the list: parts of at most k_part_size, or fewer
  while ((subsets >> part_bits) > k_part_size && part_bits < k_max_part_bits) {
    ++part_bits;
  }
  const auto part_of = [&](const Tuple& tuple) -> std::size_t {
    return part_bits == 0 ? 0 : static_cast<std::size_t>(hash(tuple) >> (64 - part_bits));
  };
  std::vector<HeldTuple> listed;
  listed.reserve(subsets);  // only what is written is ever touched
  std::vector<std::uint32_t> part_begin((std::size_t{1} << part_bits) + 1, 0);
  SharedPairs shared_pairs;
  for (std::size_t d = 0; d < distinct; ++d) {
    const std::size_t count = heavy_begin[d + 1] - heavy_begin[d];
    if (count > k_max_tabled || count < 3) {
      continue;
    }
    const std::uint16_t* ids = heavy.data() + heavy_begin[d];
    shared_pairs.load(pairs, ids, count);
    shared_pairs.for_each_shared_subset(ids, count, [&](const Tuple& tuple) {
      listed.push_back(HeldTuple{tuple.low, tuple.high, static_cast<std::uint32_t>(d)});
      ++part_begin[part_of(tuple) + 1];
    });
  }
  for (std::size_t part = 1; part < part_begin.size(); ++part) {
    part_begin[part] += part_begin[part - 1];
  }
  // Written once each, so not zeroed first.
  const std::unique_ptr<HeldTuple[]> parted(new HeldTuple[listed.size()]);
  {
    std::vector<std::uint32_t> fill(part_begin.begin(), part_begin.end() - 1);
    for (const HeldTuple& held : listed) {
      parted[fill[part_of(held.tuple())]++] = held;
    }
  }
  std::vector<HeldTuple>().swap(listed);

  // A tuple's count is the number of distinct sets that hold it: more than one means another
  // memory does. A set held by several memories scores 1 whatever its subsets, so it counts once.
  std::vector<std::uint8_t> largest(distinct, 0);
  PartCounts counts;
  std::vector<std::uint32_t> slot_of;  // per tuple of the part, its slot in `counts`
  for (std::size_t part = 0; part + 1 < part_begin.size(); ++part) {
    const HeldTuple* first = parted.get() + part_begin[part];
    const std::size_t size = part_begin[part + 1] - part_begin[part];
    counts.prepare(size);
    slot_of.resize(size);
    for (std::size_t i = 0; i < size; ++i) {
      slot_of[i] = counts.add(first[i].tuple());
    }
    for (std::size_t i = 0; i < size; ++i) {
      if (counts.count_at(slot_of[i]) > 1) {
        const std::uint32_t set = first[i].set;
        largest[set] = std::max(largest[set], first[i].tuple().ids());
      }
    }
    for (const std::uint32_t slot : slot_of) {
      counts.empty(slot);
    }
  }
  return largest;
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
  // Distinct sets are numbered in memory order, so that every later pass over them reads the
  // memories' lists in the order they sit: a table from a set's hash to its number, the first
  // memory's list compared in full when two hashes match.
  std::vector<std::uint32_t> set_of(memories.size());
  std::vector<std::uint32_t> first_memory;  // distinct set -> the first memory holding it
  std::vector<std::uint32_t> multiplicity;  // distinct set -> memories holding it
  {
    struct Numbered {
      std::uint64_t hash = 0;
      std::uint32_t set = 0;  // its number + 1; 0 marks an empty slot
    };
    const std::size_t capacity = std::bit_ceil(std::max<std::size_t>(16, memories.size() * 2));
    std::vector<Numbered> numbered(capacity);
    for (std::size_t i = 0; i < memories.size(); ++i) {
      std::size_t at = static_cast<std::size_t>(set_hash[i]) & (capacity - 1);
      while (numbered[at].set != 0 &&
             (numbered[at].hash != set_hash[i] ||
              keyword_sets.view(first_memory[numbered[at].set - 1]) != keyword_sets.view(i))) {
        at = (at + 1) & (capacity - 1);
      }
      if (numbered[at].set == 0) {
        first_memory.push_back(static_cast<std::uint32_t>(i));
        multiplicity.push_back(0);
        numbered[at] = Numbered{set_hash[i], static_cast<std::uint32_t>(first_memory.size())};
      }
      set_of[i] = numbered[at].set - 1;
      ++multiplicity[set_of[i]];
    }
  }
  const std::size_t distinct = first_memory.size();
  std::vector<std::uint64_t>().swap(set_hash);

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

  // The pair counts, the subsets other memories hold, and the wide sets kept aside.
  std::vector<std::uint32_t> wide;
  PairCounts pairs(heavy_count);
  std::size_t subsets = 0;  // of three keywords or more, before the pair test
  for (std::size_t d = 0; d < distinct; ++d) {
    const std::size_t count = heavy_size(d);
    if (count > k_max_tabled) {
      wide.push_back(static_cast<std::uint32_t>(d));
      continue;
    }
    pairs.add(heavy.data() + heavy_begin[d], count, multiplicity[d]);
    subsets += (std::size_t{1} << count) - 1 - count - count * (count - 1) / 2;
  }
  const std::vector<std::uint8_t> largest_held =
      largest_held_subsets(heavy, heavy_begin, distinct, pairs, subsets);

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
      posting.signature = signature(heavy.data() + heavy_begin[d], heavy_size(d));
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
    // Per set o, side by side so that a visit reads one place: while d is walked, the light
    // keywords o shares with d (`shared`, valid when `walker` is d + 1), and o's best so far.
    struct Seen {
      std::uint32_t walker = 0;
      std::uint32_t shared = 0;
      std::uint32_t best = 0;
    };
    std::vector<Seen> seen(distinct);
    for (std::size_t d = 0; d < distinct; ++d) {
      const std::uint16_t* own = heavy.data() + heavy_begin[d];
      const std::uint32_t own_size = heavy_size(d);
      own_bits.assign(own, own_size, true);
      std::uint32_t own_best = seen[d].best;
      // Each id of another set that d holds too sets a bit of both signatures, and two such ids
      // share a bit only if two of d's ids do: so the common bits, plus the ids d loses to such
      // collisions, bound the heavy overlap from above.
      const std::uint64_t own_signature = signature(own, own_size);
      const std::uint32_t own_collisions = own_size - bit_count(own_signature);
      const auto walker = static_cast<std::uint32_t>(d + 1);
      // The lists this walk reads start at scattered places: ask for the starts two sets ahead,
      // so that they are on their way while this set's lists are read.
      if (d + k_prefetch_ahead < distinct) {
        const std::size_t ahead = d + k_prefetch_ahead;
        for (std::uint32_t at = light_begin[ahead]; at < light_begin[ahead + 1]; ++at) {
          const char* start = reinterpret_cast<const char*>(postings.data() + light_at[at] + 1);
          __builtin_prefetch(start);
          __builtin_prefetch(start + 64);
        }
      }
      for (std::uint32_t at = light_begin[d]; at < light_begin[d + 1]; ++at) {
        const Posting* end = postings.data() + postings_begin[light[at] + 1];
        for (const Posting* posting = postings.data() + light_at[at] + 1; posting != end;
             ++posting) {
          Seen& other = seen[posting->set];
          other.shared = other.walker == walker ? other.shared + 1 : 1;
          other.walker = walker;
          const std::uint32_t light_shared = other.shared;
          // The heavy part adds at most the smaller heavy set and at most what the signatures
          // allow: count it only when that could beat the best of either.
          const std::uint32_t heavy_bound = std::min<std::uint32_t>(
              {own_size, posting->heavy_count,
               bit_count(own_signature & posting->signature) + own_collisions});
          std::uint32_t& other_best = other.best;
          if (light_shared + heavy_bound > own_best || light_shared + heavy_bound > other_best) {
            const std::uint32_t shared =
                light_shared + (heavy_bound == 0
                                    ? 0
                                    : own_bits.count_in(heavy_of(*posting), posting->heavy_count));
            own_best = std::max(own_best, shared);
            other_best = std::max(other_best, shared);
          }
        }
      }
      seen[d].best = own_best;
      own_bits.assign(own, own_size, false);
    }
    for (std::size_t d = 0; d < distinct; ++d) {
      best[d] = seen[d].best;
    }
  }

  // Wide sets are compared with every set, both ways, 64 at a time: mask[k] has bit w when wide
  // set w holds heavy keyword k, so one read of a set's heavy ids counts its overlap with all 64.
  // A heavy overlap never exceeds the whole overlap, so it can only raise a best to the truth.
  {
    std::vector<std::uint64_t> mask(heavy_count, 0);
    std::array<std::uint32_t, 64> overlap{};
    for (std::size_t first = 0; first < wide.size(); first += 64) {
      const std::size_t last = std::min(wide.size(), first + 64);
      std::fill(mask.begin(), mask.end(), 0);
      for (std::size_t w = first; w < last; ++w) {
        for (std::uint32_t at = heavy_begin[wide[w]]; at < heavy_begin[wide[w] + 1]; ++at) {
          mask[heavy[at]] |= std::uint64_t{1} << (w - first);
        }
      }
      for (std::size_t d = 0; d < distinct; ++d) {
        std::uint64_t met = 0;
        for (std::uint32_t at = heavy_begin[d]; at < heavy_begin[d + 1]; ++at) {
          met |= mask[heavy[at]];
          for (std::uint64_t bits = mask[heavy[at]]; bits != 0; bits &= bits - 1) {
            ++overlap[static_cast<std::size_t>(__builtin_ctzll(bits))];
          }
        }
        for (std::uint64_t bits = met; bits != 0; bits &= bits - 1) {
          const auto w = static_cast<std::size_t>(__builtin_ctzll(bits));
          const std::uint32_t shared = overlap[w];
          overlap[w] = 0;
          if (wide[first + w] != d) {
            best[d] = std::max(best[d], shared);
            best[wide[first + w]] = std::max(best[wide[first + w]], shared);
          }
        }
      }
    }
  }

  // Every other set scores at most its heavy overlap: the largest subset of heavy(s) another
  // memory holds. One heavy keyword always is (it is heavy only when two memories or more hold
  // it), a pair is when the pair counts say so, and larger subsets were counted above.
  std::vector<double> set_scores(distinct, 0.0);
  SharedPairs shared_pairs;
  for (std::size_t d = 0; d < distinct; ++d) {
    if (size[d] == 0) {
      continue;
    }
    if (multiplicity[d] > 1) {
      set_scores[d] = 1.0;
      continue;
    }
    std::uint32_t best_d = best[d];
    const std::uint32_t own_size = heavy_size(d);
    if (own_size > best_d) {
      best_d = std::max<std::uint32_t>({best_d, 1, largest_held[d]});
      if (best_d < 2 && own_size <= k_max_tabled) {
        shared_pairs.load(pairs, heavy.data() + heavy_begin[d], own_size);
        best_d = shared_pairs.any() ? 2 : best_d;
      }
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
