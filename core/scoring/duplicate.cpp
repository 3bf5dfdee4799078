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
// by another memory when each of its pairs is, just as one of four or more only when each of its
// triples is. So the triples whose pairs are all shared are listed first, each with its memory,
// built by growing shared pairs rather than by trying every subset (0.43 million at 100,000
// memories), and counted; then the subsets of four or more whose triples are all shared (18,000
// where 233,000 have all their pairs shared). Each list is split by a hash of the subset into
// parts that each fit the first-level cache, and every part is counted on its own; one table for
// all of them was tens of megabytes and took a cache miss per subset (doc/performance.md).
//
// How many keywords are heavy is chosen per vault: 64 while the light postings' pair count stays
// within a small multiple of the keyword count, else the count that leaves the least work, from
// the light pairs, the subsets and the wide sets it would make, each weighed by its measured cost.
// A memory with more than k_max_tabled heavy keywords is "wide": wide sets are compared with
// every set, 64 at a time, which stays cheap while wide ones are rare.
//
// The light pass is one sequential read of each posting list: a posting carries its set's heavy
// keywords and their 64-bit signature, and the memory's own heavy keywords sit in a bitmap, so a
// candidate's whole overlap is known the moment it is reached; no second pass over a candidate
// list, no random reads of another set's keywords. The signatures bound the heavy overlap, so
// most candidates are settled without counting it. An overlap is symmetric, so each pair is
// counted once, by the set that comes first, and raises the best of both: half the visits of
// counting it from each side. The light pass and the subsets share no table they write, so on a
// large vault the light pass runs on a second core while the subsets are counted, and the first
// core joins it once the subsets are done.
//
// Keyword sets held by several memories score 1 (each is the other's full overlap), and a
// keyword held by one memory only is left out (nobody shares it).
#include <algorithm>
#include <array>
#include <atomic>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <exception>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <system_error>
#include <thread>
#include <vector>

#include "core/scoring/duplicate_tables.hpp"
#include "core/scoring/score.hpp"

namespace gv::scoring {
namespace {

using namespace duplicate_tables;  // NOLINT(google-build-using-namespace): its own tables

constexpr std::size_t k_min_heavy = 64;
// With k_min_heavy heavy keywords, light postings holding at most this many pairs per keyword a
// memory has are kept as they are.
constexpr std::size_t k_light_pairs_per_keyword = 16;
// What a unit of each kind of work cost, in tenths of a nanosecond, measured at 100,000 memories
// by forcing heavy counts from 768 to 1,536 (doc/performance.md): a pair of a light keyword's
// holders, a subset of three heavy keywords or more before the pair test, and one heavy keyword
// read by a block of 64 wide sets (measured again once those were counted in bit planes).
constexpr std::uint64_t k_cost_light_pair = 22;
constexpr std::uint64_t k_cost_subset = 64;
constexpr std::uint64_t k_cost_wide_read = 24;
// The pair counts, a byte per pair of heavy keywords, are kept well inside the second-level cache
// (1 MB here): past it, every pair looked up while listing subsets misses. At 100,000 memories
// 1,338 heavy keywords (0.9 MB of pairs) took 88.6 ms, 1,448 (1 MB) 91.1 ms, 1,797 118 ms.
constexpr std::size_t k_pair_bytes = std::size_t{896} << 10;
// The most heavy keywords whose pair counts fit in k_pair_bytes.
constexpr std::size_t k_most_paired = [] {
  std::size_t heavy = 2;
  while ((heavy + 1) * heavy / 2 <= k_pair_bytes) {
    ++heavy;
  }
  return heavy;
}();
// k_subsets_of[k]: the subsets of three or more of k keywords; k_triples_of[k], of three.
constexpr std::array<std::int64_t, k_max_tabled + 1> k_subsets_of{0, 0, 0, 1, 5, 16, 42, 99, 219};
constexpr std::array<std::int64_t, k_max_tabled + 1> k_triples_of{0, 0, 0, 1, 4, 10, 20, 35, 56};
// A triple of heavy ids a < b < c as one number for HeldTriple: heavy ids are below
// k_most_paired, whose cube fits in 32 bits. Never 0, since c is at least 2.
constexpr std::uint32_t triple_key(std::uint32_t a, std::uint32_t b, std::uint32_t c) {
  return static_cast<std::uint32_t>((a * k_most_paired + b) * k_most_paired + c);
}
static_assert(k_most_paired * k_most_paired * k_most_paired <= std::size_t{1} << 32,
              "a triple of heavy ids must fit 32 bits");
// A listed triple's holder is its set's number times 64 plus its place among the set's triples,
// below HeldTuples' 2^31: this many distinct keyword sets, far more than a vault that fits in
// memory has.
constexpr std::size_t k_most_sets = std::size_t{1} << 25;
// The light pass asks for the posting lists of the set this many places ahead.
constexpr std::size_t k_prefetch_ahead = 2;
// Memories are numbered this many after the table slot they start at is asked for.
constexpr std::size_t k_group_ahead = 8;

// The light pass and the subsets run side by side when each has at least this much work: visits
// of the light pass, or subsets listed at most. Either is about 5 to 20 ns here, so this is a
// millisecond or more a side, where starting the second thread took 0.5 to 0.8 ms.
constexpr std::size_t k_side_by_side_work = 100'000;

// The visits the light pass makes: each pair of a light keyword's postings once.
std::size_t light_visits(const std::vector<std::uint32_t>& postings_begin) {
  std::size_t visits = 0;
  for (std::size_t r = 0; r + 1 < postings_begin.size(); ++r) {
    const std::size_t length = postings_begin[r + 1] - postings_begin[r];
    visits += length * (length - 1) / 2;
  }
  return visits;
}

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

// The number of keywords to treat as heavy: k_min_heavy when the light postings are short
// already, else, of the counts from k_min_heavy up, each a quarter more than the last, the one
// that leaves the least work. More heavy keywords shorten the light postings but give each memory
// more heavy subsets, and more memories go wide; each kind of work is weighed by what a unit of
// it cost at 100,000 memories (doc/performance.md). `holders` is sorted, most held first;
// `sets_by_rank` holds ascending ranks.
std::size_t choose_heavy(const std::vector<std::uint32_t>& holders, const FlatSets& sets_by_rank,
                         std::size_t slots) {
  const std::size_t most = std::min({k_max_heavy, k_most_paired, holders.size()});
  std::vector<std::size_t> steps;
  for (std::size_t heavy = std::min(k_min_heavy, most);;
       heavy = std::min(heavy + heavy / 4, most)) {
    steps.push_back(heavy);
    if (heavy >= most) {
      break;
    }
  }
  // Per step, the pairs of a light keyword's holders (the light pass visits each once).
  std::vector<std::uint64_t> light_pairs(steps.size());
  {
    std::uint64_t pairs = 0;
    std::size_t rank = holders.size();
    for (std::size_t step = steps.size(); step-- > 0;) {
      for (; rank > steps[step]; --rank) {
        const std::uint64_t held = holders[rank - 1] >= 2 ? holders[rank - 1] : 0;
        pairs += held * held;
      }
      light_pairs[step] = pairs;
    }
  }
  // Light postings this short cost little next to the rest: the fewest heavy keywords will do.
  if (light_pairs[0] <= k_light_pairs_per_keyword * slots) {
    return steps[0];
  }
  // step_of[r]: the first step at which rank r is heavy.
  std::vector<std::uint8_t> step_of(most);
  for (std::size_t r = 0, step = 0; r < most; ++r) {
    while (steps[step] <= r) {
      ++step;
    }
    step_of[r] = static_cast<std::uint8_t>(step);
  }
  // Per step, the subsets of three heavy keywords or more the tabled sets have and the number of
  // wide sets, as changes from the step before: a set's i-th smallest rank turns heavy at one
  // step, and from there on it has i + 1 heavy keywords.
  std::vector<std::int64_t> subsets(steps.size(), 0);
  std::vector<std::int64_t> wide(steps.size(), 0);
  for (std::size_t d = 0; d < sets_by_rank.count(); ++d) {
    const std::span<const std::uint32_t> ranks = sets_by_rank.view(d);
    const std::size_t look = std::min(ranks.size(), k_max_tabled + 1);
    for (std::size_t i = 0; i < look && ranks[i] < most; ++i) {
      const std::size_t step = step_of[ranks[i]];
      if (i < k_max_tabled) {
        subsets[step] += k_subsets_of[i + 1] - k_subsets_of[i];
      } else {
        subsets[step] -= k_subsets_of[k_max_tabled];
        ++wide[step];
      }
    }
  }
  // A block of 64 wide sets reads every heavy keyword of every set.
  std::uint64_t heavy_slots = 0;
  std::int64_t subsets_here = 0;
  std::int64_t wide_here = 0;
  std::size_t best_step = 0;
  std::uint64_t best_cost = 0;
  for (std::size_t step = 0, rank = 0; step < steps.size(); ++step) {
    for (; rank < steps[step]; ++rank) {
      heavy_slots += holders[rank];
    }
    subsets_here += subsets[step];
    wide_here += wide[step];
    const std::uint64_t wide_blocks = (static_cast<std::uint64_t>(wide_here) + 63) / 64;
    const std::uint64_t cost = k_cost_light_pair * light_pairs[step] +
                               k_cost_subset * static_cast<std::uint64_t>(subsets_here) +
                               k_cost_wide_read * wide_blocks * heavy_slots;
    if (step == 0 || cost < best_cost) {
      best_step = step;
      best_cost = cost;
    }
  }
  return steps[best_step];
}

// Upper bounds on what largest_held_subsets lists: the tabled sets' subsets of three heavy
// keywords, and of four or more, before any test.
struct SubsetBounds {
  std::size_t triples = 0;
  std::size_t larger = 0;
};

// For each distinct set of at most k_max_tabled heavy keywords, the size of the largest subset of
// two or more of them that another memory holds too; 0 when there is none. A pair is looked up in
// the pair counts. Larger subsets are counted in two rounds (see the top): every triple whose
// pairs are all shared, then every subset of four or more whose triples are all shared. Each
// round is a HeldTuples list counted in parts.
std::vector<std::uint8_t> largest_held_subsets(const std::vector<std::uint16_t>& heavy,
                                               const std::vector<std::uint32_t>& heavy_begin,
                                               std::size_t distinct, const PairCounts& pairs,
                                               const SubsetBounds& bounds) {
  if (distinct > k_most_sets) {
    throw std::length_error("duplicate scoring handles at most " + std::to_string(k_most_sets) +
                            " distinct keyword sets; this vault has " + std::to_string(distinct));
  }
  std::vector<std::uint8_t> largest(distinct, 0);

  // The triples, each listed with its set and its place among the set's triples (triple_index)
  // as one holder, d * 64 + place; shared[d] gets the bit of each of d's triples another set
  // holds too.
  std::vector<std::uint64_t> shared(distinct, 0);
  {
    HeldTuples<HeldTriple> triples(bounds.triples);
    SharedPairs shared_pairs;
    for (std::size_t d = 0; d < distinct; ++d) {
      const std::size_t count = heavy_begin[d + 1] - heavy_begin[d];
      if (count < 2 || count > k_max_tabled) {
        continue;
      }
      const std::uint16_t* ids = heavy.data() + heavy_begin[d];
      shared_pairs.load(pairs, ids, count);
      largest[d] = shared_pairs.any() ? 2 : 0;
      shared_pairs.for_each_shared_triple(count, [&](unsigned i, unsigned j, unsigned k) {
        triples.push(triple_key(ids[i], ids[j], ids[k]),
                     static_cast<std::uint32_t>(d << 6U | triple_index(i, j, k)));
      });
    }
    triples.count([&](std::uint32_t holder, std::uint32_t /*triple*/) {
      shared[holder >> 6U] |= std::uint64_t{1} << (holder & 63U);
    });
  }

  // The subsets of four or more, from each set's triples held elsewhere. In both rounds a key two
  // distinct sets list is held by another memory for both; a set held by several memories scores
  // 1 whatever its subsets, so it is one holder.
  // Each list reserves its own bound, which is address space until written: 18,000 of 767,000
  // larger subsets are listed at 100,000 memories, but with a small vocabulary 603,000 of 623,000.
  HeldTuples<HeldTuple> larger(bounds.larger);
  SharedTriples shared_triples;
  for (std::size_t d = 0; d < distinct; ++d) {
    if (shared[d] == 0) {
      continue;
    }
    largest[d] = 3;
    if (bit_count(shared[d]) < 4) {
      continue;  // four ids have four triples
    }
    shared_triples.for_each_shared_subset(
        shared[d], heavy.data() + heavy_begin[d],
        [&](const Tuple& tuple) { larger.push(tuple, static_cast<std::uint32_t>(d)); });
  }
  larger.count([&](std::uint32_t set, const Tuple& tuple) {
    largest[set] = std::max(largest[set], tuple.ids());
  });
  return largest;
}

}  // namespace

std::vector<double> duplicate_scores(const std::vector<const Memory*>& memories,
                                     SideBySide side_by_side) {
  // Intern keyword keys to small integers; each memory becomes a sorted, repeat-free id list,
  // all of them in one array. Most keywords are already keys (trimmed, lower case) and are looked
  // up in place; the others are normalised into `normalised`, whose strings do not move (a deque
  // never relocates). The id list is sized for eight keywords a memory and grows if it must:
  // counting them first would read every memory once more.
  const std::size_t keyword_slots = memories.size() * 8;
  KeywordIds keyword_ids;
  std::deque<std::string> normalised;
  FlatSets keyword_sets(memories.size(), keyword_slots);
  {
    // A memory's keys are probed while the memory before it is interned, so that the table slots
    // they start at are on their way from memory meanwhile: once the table outgrows the
    // second-level cache (tens of thousands of distinct keywords), a probe is otherwise a miss
    // each key waits for in turn.
    std::vector<KeywordIds::Probe> coming;
    std::vector<KeywordIds::Probe> current;
    const auto probe = [&](const Memory& memory) {
      coming.clear();
      for (const std::string& keyword : memory.keywords) {
        std::string_view key = keyword;
        if (!is_key(key)) {
          normalised.push_back(keyword_key(keyword));
          key = normalised.back();
        }
        if (key.empty()) {
          continue;  // an empty keyword names nothing, so it neither matches nor counts in |K|
        }
        coming.push_back(keyword_ids.probe(key));
        keyword_ids.prefetch(coming.back());
      }
    };
    if (!memories.empty()) {
      probe(*memories.front());
    }
    for (std::size_t i = 0; i < memories.size(); ++i) {
      std::swap(current, coming);
      if (i + 1 < memories.size()) {
        probe(*memories[i + 1]);
      }
      // The memories themselves are scattered over the heap: ask for the keyword list of the
      // memory probed next time round, and for the memory after it, whose list is asked for then.
      if (i + 3 < memories.size()) {
        __builtin_prefetch(&memories[i + 3]->keywords);
        const std::vector<std::string>& keywords = memories[i + 2]->keywords;
        const char* first = reinterpret_cast<const char*>(keywords.data());
        const char* last = reinterpret_cast<const char*>(keywords.data() + keywords.size());
        for (const char* line = first; line < last; line += 64) {
          __builtin_prefetch(line);
        }
      }
      for (const KeywordIds::Probe& key : current) {
        keyword_sets.push(keyword_ids.intern(key));
      }
      keyword_sets.close_sorted();
    }
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
      // The table is several times the second-level cache once there are tens of thousands of
      // memories: ask for the slot a later memory starts at while this one is placed.
      if (i + k_group_ahead < memories.size()) {
        __builtin_prefetch(numbered.data() + (set_hash[i + k_group_ahead] & (capacity - 1)));
      }
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

  // Keywords ranked by how many memories hold them (most first); sets rewritten as ranks. What
  // only one step needs is let go when it is done, here and below, and lists get their room once
  // instead of doubling, so that the scoring holds less at its peak (doc/performance.md).
  const std::size_t slots = keyword_sets.all().size();
  std::vector<std::uint32_t> holders(keyword_count);
  FlatSets sets(distinct, slots);  // distinct set -> ascending ranks
  {
    std::vector<std::uint32_t> holders_by_id(keyword_count, 0);
    for (const std::uint32_t keyword : keyword_sets.all()) {
      ++holders_by_id[keyword];
    }
    // Most held first, ties in id order: counted into place by holders rather than sorted, since
    // a count of holders is at most the count of memories.
    std::vector<std::uint32_t> by_rank(keyword_count);
    {
      const std::uint32_t most =
          keyword_count == 0 ? 0 : *std::max_element(holders_by_id.begin(), holders_by_id.end());
      std::vector<std::uint32_t> place(std::size_t{most} + 2, 0);  // by holders, most first
      for (const std::uint32_t held : holders_by_id) {
        ++place[most - held + 1];
      }
      for (std::size_t at = 1; at < place.size(); ++at) {
        place[at] += place[at - 1];
      }
      for (std::size_t k = 0; k < keyword_count; ++k) {
        by_rank[place[most - holders_by_id[k]]++] = static_cast<std::uint32_t>(k);
      }
    }
    std::vector<std::uint32_t> rank_of(keyword_count);
    for (std::size_t r = 0; r < by_rank.size(); ++r) {
      rank_of[by_rank[r]] = static_cast<std::uint32_t>(r);
      holders[r] = holders_by_id[by_rank[r]];
    }
    for (std::size_t d = 0; d < distinct; ++d) {
      for (const std::uint32_t keyword : keyword_sets.view(first_memory[d])) {
        sets.push(rank_of[keyword]);
      }
      sets.close_sorted();
    }
  }
  keyword_sets = FlatSets(0, 0);
  std::vector<std::uint32_t>().swap(first_memory);
  const std::size_t heavy_count = choose_heavy(holders, sets, slots);

  // Per distinct set, flat: its size, heavy ids (ranks below heavy_count, held by two or more)
  // and light keywords held by two or more memories.
  // A keyword's holders are memories, so they bound its slots among the distinct sets from above
  // (equal when no two memories share a set): room is made once, not doubled as they fill.
  std::vector<std::uint32_t> size(distinct);
  std::vector<std::uint32_t> heavy_begin(distinct + 1, 0);
  std::vector<std::uint16_t> heavy;
  std::vector<std::uint32_t> light_begin(distinct + 1, 0);
  std::vector<std::uint32_t> light;
  {
    std::size_t heavy_slots = 0;
    std::size_t light_slots = 0;
    for (std::size_t rank = 0; rank < holders.size() && holders[rank] >= 2; ++rank) {
      (rank < heavy_count ? heavy_slots : light_slots) += holders[rank];
    }
    heavy.reserve(heavy_slots);
    light.reserve(light_slots);
  }
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
  // walked, so the best over every visit is the best over the final counts. Each set's `best`
  // ends as its largest overlap with any set it shares a light keyword with.
  //
  // Per set o, side by side so that a visit reads one place: while d is walked, the light
  // keywords o shares with d (`shared`, valid when `walker` is d + 1), and o's best so far.
  //
  // The walks are taken in runs of consecutive sets from a shared counter, so that two threads
  // can share the pass (below): each keeps its own `seen` and its own bitmap, and a set's best is
  // the larger of the two. A pair is still visited once, by whichever thread walks its first set;
  // the bests either thread skips with are its own, never above the truth, so it skips no less
  // safely than one thread would.
  struct Seen {
    std::uint32_t walker = 0;
    std::uint32_t shared = 0;
    std::uint32_t best = 0;
  };
  // Fine enough that the thread that finishes first waits at most one run for the other: at
  // 100,000 memories a run is about 0.2 ms of walks on average.
  const std::size_t run_length = std::max<std::size_t>(1, distinct / 128);
  std::atomic<std::size_t> next_run{0};
  // One set's walk. Writes `seen` and `own_bits` only, and allocates nothing: it may run on a
  // thread of its own, whose first allocation would open a heap of small pages beside the
  // process's huge ones.
  const auto walk = [&](std::size_t d, std::vector<Seen>& seen, HeavyBits& own_bits) {
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
      for (const Posting* posting = postings.data() + light_at[at] + 1; posting != end; ++posting) {
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
              light_shared +
              (heavy_bound == 0 ? 0 : own_bits.count_in(heavy_of(*posting), posting->heavy_count));
          own_best = std::max(own_best, shared);
          other_best = std::max(other_best, shared);
        }
      }
    }
    seen[d].best = own_best;
    own_bits.assign(own, own_size, false);
  };
  const auto light_pass = [&](std::vector<Seen>& seen, HeavyBits& own_bits) {
    for (std::size_t first = next_run.fetch_add(run_length, std::memory_order_relaxed);
         first < distinct; first = next_run.fetch_add(run_length, std::memory_order_relaxed)) {
      for (std::size_t d = first; d < std::min(distinct, first + run_length); ++d) {
        walk(d, seen, own_bits);
      }
    }
  };

  // The wide sets kept aside, and how many subsets the others could list.
  std::vector<std::uint32_t> wide;
  SubsetBounds bounds;
  for (std::size_t d = 0; d < distinct; ++d) {
    const std::size_t count = heavy_size(d);
    if (count > k_max_tabled) {
      wide.push_back(static_cast<std::uint32_t>(d));
      continue;
    }
    bounds.triples += static_cast<std::size_t>(k_triples_of[count]);
    bounds.larger += static_cast<std::size_t>(k_subsets_of[count] - k_triples_of[count]);
  }

  // The pair counts and the subsets other memories hold. The light pass and the subsets read the
  // same tables and each writes its own, so where both are large they run side by side, the light
  // pass on a second core: at 100,000 memories each takes tens of milliseconds, and the subsets
  // grow faster than the vault. The subsets take about half as long, so this thread then walks
  // the runs the other has not reached, in tables of its own (doc/performance.md, "The light
  // pass beside the subsets").
  std::vector<Seen> seen(distinct);
  HeavyBits own_bits(heavy_count);  // the heavy keywords of the set being walked
  std::vector<Seen> seen_here;      // this thread's tables, when the pass is shared
  std::vector<std::uint8_t> largest_held;
  std::exception_ptr beside_failed;  // thrown here once the thread is joined
  {
    // Joined on the way out, also when the subsets throw (what std::jthread does; libc++ has
    // jthread only from LLVM 18).
    struct Joined {
      std::thread thread;
      Joined() = default;
      Joined(const Joined&) = delete;
      Joined& operator=(const Joined&) = delete;
      ~Joined() {
        if (thread.joinable()) {
          thread.join();
        }
      }
    } beside;
    if (side_by_side == SideBySide::always ||
        (side_by_side == SideBySide::when_worth_it &&
         std::min(light_visits(postings_begin), bounds.triples + bounds.larger) >=
             k_side_by_side_work &&
         std::thread::hardware_concurrency() > 1)) {
      try {
        beside.thread = std::thread([&] {
          // An exception leaving a thread's function would end the process.
          try {
            light_pass(seen, own_bits);
          } catch (...) {
            beside_failed = std::current_exception();
          }
        });
      } catch (const std::system_error&) {
        // No thread to be had: the light pass runs in turn below.
      }
    }
    PairCounts pairs(heavy_count);
    for (std::size_t d = 0; d < distinct; ++d) {
      if (heavy_size(d) <= k_max_tabled) {
        pairs.add(heavy.data() + heavy_begin[d], heavy_size(d), multiplicity[d]);
      }
    }
    largest_held = largest_held_subsets(heavy, heavy_begin, distinct, pairs, bounds);
    if (!beside.thread.joinable()) {
      light_pass(seen, own_bits);
    } else if (next_run.load(std::memory_order_relaxed) < distinct) {
      seen_here.resize(distinct);
      HeavyBits bits_here(heavy_count);
      light_pass(seen_here, bits_here);
    }
  }
  if (beside_failed) {
    std::rethrow_exception(beside_failed);
  }
  std::vector<std::uint32_t> best(distinct);
  for (std::size_t d = 0; d < distinct; ++d) {
    best[d] = seen_here.empty() ? seen[d].best : std::max(seen[d].best, seen_here[d].best);
  }
  std::vector<Seen>().swap(seen);
  std::vector<Seen>().swap(seen_here);

  // Wide sets are compared with every set, both ways, 64 at a time: mask[k] has bit w when wide
  // set w holds heavy keyword k, so one read of a set's heavy ids counts its overlap with all 64.
  // A heavy overlap never exceeds the whole overlap, so it can only raise a best to the truth.
  // A set of at most k_max_tabled heavy keywords (almost every one) overlaps a wide set in at
  // most that many: its 64 overlaps are added as bit planes, the best of them taken at once, and
  // only the wide sets whose best it beats are looked at one by one. Most sets share at most two
  // heavy keywords with every wide set, and for those a first read that counts each overlap up
  // to three is enough: an overlap of one adds nothing (every set with a heavy keyword scores at
  // least 1, below), one of two raises the set's best to 2 at once, and the wide sets met twice
  // are raised to 2 when the block ends. Only a set that meets a wide set three times or more
  // is counted in full: 3,048 of 96,843 at 100,000 memories (doc/performance.md).
  {
    std::vector<std::uint64_t> mask(heavy_count, 0);
    std::array<std::uint32_t, 64> overlap{};
    for (std::size_t first = 0; first < wide.size(); first += 64) {
      const std::size_t last = std::min(wide.size(), first + 64);
      std::fill(mask.begin(), mask.end(), 0);
      LaneCounts wide_best;         // per wide set, its best so far, up to LaneCounts::k_most
      std::uint64_t met_twice = 0;  // the wide sets some set shares two heavy keywords with
      for (std::size_t w = first; w < last; ++w) {
        for (std::uint32_t at = heavy_begin[wide[w]]; at < heavy_begin[wide[w] + 1]; ++at) {
          mask[heavy[at]] |= std::uint64_t{1} << (w - first);
        }
        wide_best.set(static_cast<unsigned>(w - first), best[wide[w]]);
      }
      for (std::size_t d = 0; d < distinct; ++d) {
        if (heavy_size(d) <= k_max_tabled) {
          std::uint64_t once = 0;
          std::uint64_t twice = 0;
          std::uint64_t thrice = 0;
          for (std::uint32_t at = heavy_begin[d]; at < heavy_begin[d + 1]; ++at) {
            const std::uint64_t lanes = mask[heavy[at]];
            thrice |= twice & lanes;
            twice |= once & lanes;
            once |= lanes;
          }
          if (twice != 0) {
            best[d] = std::max<std::uint32_t>(best[d], 2);
            met_twice |= twice;
          }
          if (thrice == 0) {
            continue;
          }
          LaneCounts shared;
          for (std::uint32_t at = heavy_begin[d]; at < heavy_begin[d + 1]; ++at) {
            shared.add(mask[heavy[at]]);
          }
          best[d] = std::max(best[d], shared.most());
          for (std::uint64_t bits = shared.above(wide_best); bits != 0; bits &= bits - 1) {
            const auto w = static_cast<unsigned>(__builtin_ctzll(bits));
            std::uint32_t& other_best = best[wide[first + w]];
            other_best = std::max(other_best, shared.at(w));
            wide_best.set(w, other_best);
          }
          continue;
        }
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
      for (std::uint64_t bits = met_twice; bits != 0; bits &= bits - 1) {
        const std::uint32_t w = wide[first + static_cast<unsigned>(__builtin_ctzll(bits))];
        best[w] = std::max<std::uint32_t>(best[w], 2);
      }
    }
  }

  // Every other set scores at most its heavy overlap: the largest subset of heavy(s) another
  // memory holds. One heavy keyword always is (it is heavy only when two memories or more hold
  // it), and larger subsets were counted above.
  std::vector<double> set_scores(distinct, 0.0);
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
