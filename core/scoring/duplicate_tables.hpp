#pragma once
// The flat tables behind the duplicate score (core/scoring/duplicate.cpp): interned keyword ids,
// id lists in one array, the counts of heavy-keyword tuples, and the light postings. Internal to
// that file; kept apart so the scoring reads as the algorithm it is.
#include <algorithm>
#include <array>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <functional>
#include <memory>
#include <span>
#include <string_view>
#include <vector>

namespace gv::scoring::duplicate_tables {

constexpr std::size_t k_max_heavy = 4095;  // heavy ids + 1 fit in 12 bits
// At most this many heavy keywords per memory go into the subset table (2^8 subsets).
constexpr std::size_t k_max_tabled = 8;

// Up to k_max_tabled heavy ids (each + 1, so 0 means "none"), ascending, 12 bits each: 96 bits,
// so a table slot with its count is 16 bytes and four share a cache line.
struct Tuple {
  std::uint64_t low = 0;
  std::uint32_t high = 0;

  // The tuple with `id` as its id number `at` (0-based): ids are appended in ascending order.
  [[nodiscard]] Tuple with(unsigned at, std::uint16_t id) const {
    Tuple tuple = *this;
    const std::uint64_t value = static_cast<std::uint64_t>(id) + 1;
    const unsigned bit = at * 12;
    if (bit < 64) {
      tuple.low |= value << bit;
      if (bit + 12 > 64) {
        tuple.high |= static_cast<std::uint32_t>(value >> (64 - bit));  // straddles the two
      }
    } else {
      tuple.high |= static_cast<std::uint32_t>(value << (bit - 64));
    }
    return tuple;
  }
  // How many ids it holds: they fill the bits from the lowest, and none is 0.
  [[nodiscard]] std::uint8_t ids() const {
    const unsigned top = high != 0 ? 64 + 31 - static_cast<unsigned>(__builtin_clz(high))
                                   : 63 - static_cast<unsigned>(__builtin_clzll(low));
    return static_cast<std::uint8_t>(top / 12 + 1);
  }
};

// splitmix64's finaliser: every input bit moves every output bit, so any slice of the result is a
// fair slot number.
inline std::uint64_t mix(std::uint64_t value) {
  value ^= value >> 30;
  value *= 0xBF58476D1CE4E5B9ULL;
  value ^= value >> 27;
  value *= 0x94D049BB133111EBULL;
  return value ^ (value >> 31);
}

// A tuple's hash, of which only the high bits are used: a multiplication carries every bit of its
// input into them, and one is all a subset costs where it is hashed three times.
inline std::uint64_t hash(const Tuple& tuple) {
  return (tuple.low ^ (std::uint64_t{tuple.high} * 0x9E3779B97F4A7C15ULL)) * 0xBF58476D1CE4E5B9ULL;
}

// Bits set in `value`, without the library call a portable build makes of __builtin_popcountll.
inline std::uint32_t bit_count(std::uint64_t value) {
  value -= (value >> 1) & 0x5555555555555555ULL;
  value = (value & 0x3333333333333333ULL) + ((value >> 2) & 0x3333333333333333ULL);
  value = (value + (value >> 4)) & 0x0F0F0F0F0F0F0F0FULL;
  return static_cast<std::uint32_t>((value * 0x0101010101010101ULL) >> 56);
}

// A set of heavy ids folded into 64 bits (id mod 64): two sets with no common bit share no id.
inline std::uint64_t signature(const std::uint16_t* ids, std::size_t count) {
  std::uint64_t bits = 0;
  for (std::size_t i = 0; i < count; ++i) {
    bits |= std::uint64_t{1} << (ids[i] & 63U);
  }
  return bits;
}

// Many small id lists in one array: list i is flat[begin[i], begin[i + 1]). Filled in order,
// one list at a time.
class FlatSets {
 public:
  FlatSets(std::size_t lists, std::size_t ids) {
    m_begin.reserve(lists + 1);
    m_begin.push_back(0);
    m_flat.reserve(ids);
  }
  void push(std::uint32_t id) { m_flat.push_back(id); }
  // Ends the list being filled: its ids sorted, repeats removed.
  void close_sorted() {
    const auto first = m_flat.begin() + m_begin.back();
    if (m_flat.end() - first <= 16) {
      // A memory has a handful of keywords: an insertion sort, without std::sort's set-up.
      for (auto at = first + 1; at < m_flat.end(); ++at) {
        const std::uint32_t value = *at;
        auto hole = at;
        for (; hole != first && *(hole - 1) > value; --hole) {
          *hole = *(hole - 1);
        }
        *hole = value;
      }
    } else {
      std::sort(first, m_flat.end());
    }
    m_flat.erase(std::unique(first, m_flat.end()), m_flat.end());
    m_begin.push_back(static_cast<std::uint32_t>(m_flat.size()));
  }
  [[nodiscard]] std::size_t count() const { return m_begin.size() - 1; }
  [[nodiscard]] std::size_t size(std::size_t i) const { return m_begin[i + 1] - m_begin[i]; }
  [[nodiscard]] std::span<const std::uint32_t> view(std::size_t i) const {
    return {m_flat.data() + m_begin[i], size(i)};
  }
  [[nodiscard]] std::span<const std::uint32_t> all() const { return m_flat; }

 private:
  std::vector<std::uint32_t> m_begin;
  std::vector<std::uint32_t> m_flat;
};

inline bool operator!=(std::span<const std::uint32_t> a, std::span<const std::uint32_t> b) {
  return !std::equal(a.begin(), a.end(), b.begin(), b.end());
}

// Keyword keys to dense ids, open addressing over one array. A key of up to 16 bytes (almost
// every keyword) is kept in its slot as two words, so a probe compares two words and never reads
// the memory it came from; a longer one is compared where it is (the memories' keywords outlive
// the table). It starts small and doubles: a vault repeats its keywords, so sizing it for every
// keyword slot would spread it over many times the memory.
class KeywordIds {
 public:
  // A key with its hash, made ahead of `intern` so that its slot can be asked for early.
  struct Probe {
    std::uint64_t first = 0;  // a short key's bytes as two words (see `probe`)
    std::uint64_t second = 0;
    const char* data = nullptr;
    std::uint32_t size = 0;
    std::uint64_t hash = 0;
  };
  [[nodiscard]] Probe probe(std::string_view key) const {
    Probe probe;
    probe.data = key.data();
    probe.size = static_cast<std::uint32_t>(key.size());
    if (key.size() <= k_inline) {
      // Two words that, with the size, tell every short key apart: loads that overlap when it is
      // shorter than the words, rather than a copy of a size known only at run time.
      const char* data = key.data();
      const std::size_t size = key.size();
      if (size >= 8) {
        std::memcpy(&probe.first, data, 8);
        std::memcpy(&probe.second, data + size - 8, 8);
      } else if (size >= 4) {
        std::uint32_t low = 0;
        std::uint32_t high = 0;
        std::memcpy(&low, data, 4);
        std::memcpy(&high, data + size - 4, 4);
        probe.first = low | (std::uint64_t{high} << 32);
      } else if (size > 0) {
        probe.first = static_cast<unsigned char>(data[0]) |
                      (std::uint64_t{static_cast<unsigned char>(data[size / 2])} << 8) |
                      (std::uint64_t{static_cast<unsigned char>(data[size - 1])} << 16);
      }
      probe.hash = mix(probe.first ^ mix(probe.second ^ probe.size));
    } else {
      probe.hash = std::hash<std::string_view>{}(key);
    }
    return probe;
  }
  // Asks for the slot `probe` starts at, so that it is in the cache by the time it is interned.
  void prefetch(const Probe& probe) const {
    if (!m_slots.empty()) {
      __builtin_prefetch(m_slots.data() + (probe.hash & (m_slots.size() - 1)));
    }
  }
  std::uint32_t intern(const Probe& probe) {
    if ((m_size + 1) * 2 > m_slots.size()) {
      grow();
    }
    Slot& slot = m_slots[find_slot(probe)];
    if (slot.data == nullptr) {
      slot = Slot{probe.first, probe.second, probe.data, probe.size,
                  static_cast<std::uint32_t>(m_size++)};
    }
    return slot.id;
  }
  [[nodiscard]] std::size_t size() const { return m_size; }

 private:
  static constexpr std::size_t k_inline = 16;
  struct Slot {
    std::uint64_t first = 0;  // as in Probe
    std::uint64_t second = 0;
    const char* data = nullptr;  // nullptr marks an empty slot
    std::uint32_t size = 0;
    std::uint32_t id = 0;
  };

  static std::uint64_t hash_of(const Slot& key) {
    if (key.size <= k_inline) {
      return mix(key.first ^ mix(key.second ^ key.size));
    }
    return std::hash<std::string_view>{}({key.data, key.size});
  }
  template <class Key>
  static bool same(const Slot& a, const Key& b) {
    if (a.size != b.size) {
      return false;
    }
    if (a.size <= k_inline) {
      return a.first == b.first && a.second == b.second;
    }
    return std::memcmp(a.data, b.data, a.size) == 0;
  }

  [[nodiscard]] std::size_t find_slot(const Probe& key) const {
    const std::size_t last = m_slots.size() - 1;
    std::size_t at = static_cast<std::size_t>(key.hash) & last;
    while (m_slots[at].data != nullptr && !same(m_slots[at], key)) {
      at = (at + 1) & last;
    }
    return at;
  }
  [[nodiscard]] std::size_t find_empty(std::uint64_t hash) const {
    const std::size_t last = m_slots.size() - 1;
    std::size_t at = static_cast<std::size_t>(hash) & last;
    while (m_slots[at].data != nullptr) {
      at = (at + 1) & last;
    }
    return at;
  }

  void grow() {
    std::vector<Slot> slots = std::move(m_slots);
    m_slots.assign(std::max<std::size_t>(1024, slots.size() * 2), Slot{});
    for (const Slot& slot : slots) {
      if (slot.data != nullptr) {
        m_slots[find_empty(hash_of(slot))] = slot;
      }
    }
  }

  std::vector<Slot> m_slots;
  std::size_t m_size = 0;
};

// A subset of one distinct set's heavy keywords, with who holds it: 16 bytes. An entry of
// HeldTuples and a slot of PartCounts; a tuple always has its first id in the low bits, so
// low == 0 marks an empty slot. Left unset when made with no arguments, so that a list about to
// be overwritten is not cleared first; HeldTuple{} is empty.
struct HeldTuple {
  std::uint64_t low;
  std::uint32_t high;
  std::uint32_t holder;

  using Key = Tuple;
  HeldTuple() = default;
  HeldTuple(const Tuple& tuple, std::uint32_t by) : low(tuple.low), high(tuple.high), holder(by) {}
  [[nodiscard]] Tuple key() const { return Tuple{low, high}; }
  [[nodiscard]] std::uint64_t hash() const { return duplicate_tables::hash(key()); }
  [[nodiscard]] bool empty() const { return low == 0; }
  [[nodiscard]] bool same(const HeldTuple& other) const {
    return low == other.low && high == other.high;
  }
};

// A triple of heavy ids as one number (see duplicate.cpp's triple_key), never 0, with who holds
// it: 8 bytes, half a HeldTuple, for the list that is most of the subsets. Unset or empty as a
// HeldTuple is.
struct HeldTriple {
  std::uint32_t triple;
  std::uint32_t holder;

  using Key = std::uint32_t;
  HeldTriple() = default;
  HeldTriple(std::uint32_t key, std::uint32_t by) : triple(key), holder(by) {}
  [[nodiscard]] std::uint32_t key() const { return triple; }
  // As for a tuple: one multiplication carries every bit into the high ones that are used.
  [[nodiscard]] std::uint64_t hash() const { return triple * 0xBF58476D1CE4E5B9ULL; }
  [[nodiscard]] bool empty() const { return triple == 0; }
  [[nodiscard]] bool same(const HeldTriple& other) const { return triple == other.triple; }
};

// The entries of one part of a HeldTuples list, and which holders list each key: open addressing
// over slots that are entries themselves, sized to the part so it stays in the cache. A slot
// keeps its key's first holder and a mark once a second holder lists it too, so a holder is known
// to share a key the moment the key comes round a second time: one pass over the part. A part
// empties only the slots it used, so the parts do not pay for clearing the whole table thousands
// of times.
template <class Entry>
class PartCounts {
 public:
  // Sizes the table for a part of `entries` whose hashes share their `part_bits` highest bits.
  // Every slot is empty: new, or emptied by `clear`.
  void prepare(std::size_t entries, unsigned part_bits) {
    const std::size_t capacity = std::bit_ceil(std::max<std::size_t>(16, entries * 4));
    if (m_slots.size() < capacity) {
      m_slots.resize(capacity);
    }
    m_last = capacity - 1;
    m_shift = 64 - part_bits - static_cast<unsigned>(std::countr_zero(capacity));
  }
  // Records `entry` (its holder below 2^31). When another holder listed its key before, calls
  // shared(h) for entry's holder, and for the first holder the first time that happens.
  template <class Shared>
  void add(const Entry& entry, Shared&& shared) {
    std::size_t at = static_cast<std::size_t>(entry.hash() >> m_shift) & m_last;
    while (!m_slots[at].empty() && !m_slots[at].same(entry)) {
      at = (at + 1) & m_last;
    }
    Entry& slot = m_slots[at];
    if (slot.empty()) {
      slot = entry;
      m_used.push_back(static_cast<std::uint32_t>(at));
      return;
    }
    shared(entry.holder);
    if ((slot.holder & k_shared) == 0) {
      shared(slot.holder);
      slot.holder |= k_shared;
    }
  }
  // Empties the slots the part used.
  void clear() {
    for (const std::uint32_t at : m_used) {
      m_slots[at] = Entry{};
    }
    m_used.clear();
  }

 private:
  static constexpr std::uint32_t k_shared = std::uint32_t{1} << 31;

  std::vector<Entry> m_slots;
  std::vector<std::uint32_t> m_used;
  std::size_t m_last = 0;
  unsigned m_shift = 0;
};

// Keys and who holds them (a set, or a set and the key's place in it), counted in parts: the list
// is split by a hash of the key into parts of about k_part_size, and each part is counted in a
// PartCounts of its own, in the first-level cache, so one sequential pass replaces a random probe
// into a table many times the cache for every key. The list is counted by that hash in as many
// slices as parts of k_part_size a bound on its length would need, as it is filled; once its
// length is known, neighbouring slices are joined into parts. `Entry` is HeldTuple or HeldTriple.
template <class Entry>
class HeldTuples {
 public:
  static constexpr std::size_t k_part_size = 512;
  static constexpr unsigned k_max_part_bits = 16;

  // `bound`: at least as many entries as will be listed.
  explicit HeldTuples(std::size_t bound) {
    while ((bound >> m_slice_bits) > k_part_size && m_slice_bits < k_max_part_bits) {
      ++m_slice_bits;
    }
    m_slice_size.assign(std::size_t{1} << m_slice_bits, 0);
    m_listed.reserve(bound);  // only what is written is ever touched
  }
  // Lists `key` as held by `holder` (below 2^31). A holder lists a key once.
  void push(const typename Entry::Key& key, std::uint32_t holder) {
    m_listed.emplace_back(key, holder);
    ++m_slice_size[slice_of(m_listed.back(), m_slice_bits)];
  }

  // Calls shared(holder, key) for each holder of every key that two holders or more list.
  // Empties the list.
  template <class Shared>
  void count(Shared&& shared) {
    unsigned part_bits = 0;
    while ((m_listed.size() >> part_bits) > k_part_size && part_bits < m_slice_bits) {
      ++part_bits;
    }
    std::vector<std::uint32_t> part_begin((std::size_t{1} << part_bits) + 1, 0);
    for (std::size_t slice = 0; slice < m_slice_size.size(); ++slice) {
      part_begin[(slice >> (m_slice_bits - part_bits)) + 1] += m_slice_size[slice];
    }
    for (std::size_t part = 1; part < part_begin.size(); ++part) {
      part_begin[part] += part_begin[part - 1];
    }
    // Written once each, so not zeroed first.
    const std::unique_ptr<Entry[]> parted(new Entry[m_listed.size()]);
    {
      std::vector<std::uint32_t> fill(part_begin.begin(), part_begin.end() - 1);
      for (const Entry& entry : m_listed) {
        parted[fill[slice_of(entry, part_bits)]++] = entry;
      }
    }
    std::vector<Entry>().swap(m_listed);
    PartCounts<Entry> counts;
    for (std::size_t part = 0; part + 1 < part_begin.size(); ++part) {
      const Entry* first = parted.get() + part_begin[part];
      const std::size_t size = part_begin[part + 1] - part_begin[part];
      counts.prepare(size, part_bits);
      for (std::size_t i = 0; i < size; ++i) {
        const Entry& entry = first[i];
        counts.add(entry, [&](std::uint32_t holder) { shared(holder, entry.key()); });
      }
      counts.clear();
    }
  }

 private:
  static std::size_t slice_of(const Entry& entry, unsigned bits) {
    return bits == 0 ? 0 : static_cast<std::size_t>(entry.hash() >> (64 - bits));
  }

  unsigned m_slice_bits = 0;
  std::vector<std::uint32_t> m_slice_size;
  std::vector<Entry> m_listed;
};

// How many memories hold each pair of heavy ids, counted up to 2 ("shared"): one byte per pair,
// indexed directly, so counting and asking stay in the caches where the subset table does not.
class PairCounts {
 public:
  explicit PairCounts(std::size_t heavy_count)
      : m_held((heavy_count > 1 ? heavy_count * (heavy_count - 1) / 2 : 0) + 1, 0) {}
  // Counts every pair of `ids` (ascending) as held by `memories` more memories.
  void add(const std::uint16_t* ids, std::size_t count, std::uint32_t memories) {
    for (std::size_t j = 1; j < count; ++j) {
      for (std::size_t i = 0; i < j; ++i) {
        std::uint8_t& held = m_held[at(ids[i], ids[j])];
        held = static_cast<std::uint8_t>(std::min<std::uint32_t>(2, held + memories));
      }
    }
  }
  // The counts of the pairs (low, high) for every low below `high`, indexed by low.
  [[nodiscard]] const std::uint8_t* row(std::size_t high) const {
    return m_held.data() + at(0, high);
  }

 private:
  static std::size_t at(std::size_t low, std::size_t high) { return high * (high - 1) / 2 + low; }
  std::vector<std::uint8_t> m_held;
};

// Which pairs of one memory's heavy ids (at most k_max_tabled, ascending) another memory holds
// too. A triple can be held by another memory only if each of its pairs is.
class SharedPairs {
 public:
  void load(const PairCounts& pairs, const std::uint16_t* ids, std::size_t count) {
    // Without a branch per pair: whether a pair is shared is as good as random.
    m_with.fill(0);
    for (std::size_t j = 1; j < count; ++j) {
      const std::uint8_t* row = pairs.row(ids[j]);
      unsigned with_j = 0;
      for (std::size_t i = 0; i < j; ++i) {
        const unsigned shared = row[ids[i]] >= 2 ? 1U : 0U;
        m_with[i] = static_cast<std::uint8_t>(m_with[i] | (shared << j));
        with_j |= shared << i;
      }
      m_with[j] = static_cast<std::uint8_t>(with_j);
    }
  }
  // True when some pair of the ids is held by another memory too.
  [[nodiscard]] bool any() const {
    return std::any_of(m_with.begin(), m_with.end(), [](std::uint8_t with) { return with != 0; });
  }
  // Calls emit(i, j, k) for the positions i < j < k of every three of the `count` ids whose pairs
  // are all shared.
  template <class Emit>
  void for_each_shared_triple(std::size_t count, Emit&& emit) const {
    for (unsigned i = 0; i < count; ++i) {
      for (unsigned js = m_with[i] & after(i); js != 0; js &= js - 1) {
        const auto j = static_cast<unsigned>(__builtin_ctz(js));
        for (unsigned ks = m_with[i] & m_with[j] & after(j); ks != 0; ks &= ks - 1) {
          emit(i, j, static_cast<unsigned>(__builtin_ctz(ks)));
        }
      }
    }
  }

 private:
  static unsigned after(unsigned i) { return ~((2U << i) - 1U); }

  std::array<std::uint8_t, k_max_tabled> m_with{};  // m_with[i]: the j whose pair with i is shared
};

// The place of the positions a < b < c among every triple of k_max_tabled positions, ordered by
// c, then b, then a: C(c, 3) + C(b, 2) + a.
constexpr unsigned triple_index(unsigned a, unsigned b, unsigned c) {
  return c * (c - 1) * (c - 2) / 6 + b * (b - 1) / 2 + a;
}
static_assert(triple_index(k_max_tabled - 3, k_max_tabled - 2, k_max_tabled - 1) < 64,
              "a set's triples must fit one word");

// The positions of the triple with each triple_index.
struct TriplePositions {
  std::uint8_t a;
  std::uint8_t b;
  std::uint8_t c;
};
constexpr std::array<TriplePositions, 64> k_triple_positions = [] {
  std::array<TriplePositions, 64> positions{};
  for (unsigned c = 2; c < k_max_tabled; ++c) {
    for (unsigned b = 1; b < c; ++b) {
      for (unsigned a = 0; a < b; ++a) {
        positions[triple_index(a, b, c)] =
            TriplePositions{static_cast<std::uint8_t>(a), static_cast<std::uint8_t>(b),
                            static_cast<std::uint8_t>(c)};
      }
    }
  }
  return positions;
}();

// Which triples of one memory's heavy ids (positions below k_max_tabled) another memory holds
// too, as bits of one word, a triple's bit its triple_index. A subset of four ids or more can be
// held by another memory only if each of its triples is.
class SharedTriples {
 public:
  // Calls emit(tuple) for every subset of four ids or more whose triples are all shared, each
  // once: grown from its three lowest ids by higher ones, each making a shared triple with every
  // pair of the subset so far. `shared` has bit triple_index(a, b, c) set when the triple of
  // positions a, b, c is held elsewhere. The triples are taken highest place first: whatever a
  // subset grown from one asks (a triple with a higher third id) has a higher place, so it is
  // known by then, and one pass both learns the triples and grows from them.
  template <class Emit>
  void for_each_shared_subset(std::uint64_t shared, const std::uint16_t* ids, Emit&& emit) {
    m_above = {};
    for (std::uint64_t rest = shared; rest != 0;) {
      const auto place = static_cast<unsigned>(63 - std::countl_zero(rest));
      rest ^= std::uint64_t{1} << place;
      const TriplePositions triple = k_triple_positions[place];
      const unsigned candidates =
          m_above[triple.a][triple.b] & m_above[triple.a][triple.c] & m_above[triple.b][triple.c];
      if (candidates != 0) {
        const Tuple tuple =
            Tuple{}.with(0, ids[triple.a]).with(1, ids[triple.b]).with(2, ids[triple.c]);
        const unsigned members = (1U << triple.a) | (1U << triple.b) | (1U << triple.c);
        grow(ids, tuple, 3, members, candidates, emit);
      }
      m_above[triple.a][triple.b] |= static_cast<std::uint8_t>(1U << triple.c);
    }
  }

 private:
  template <class Emit>
  void grow(const std::uint16_t* ids, const Tuple& tuple, unsigned size, unsigned members,
            unsigned candidates, Emit& emit) const {
    for (unsigned rest = candidates; rest != 0; rest &= rest - 1) {
      const auto j = static_cast<unsigned>(std::countr_zero(rest));
      const Tuple grown = tuple.with(size, ids[j]);
      emit(grown);
      unsigned more = candidates;
      for (unsigned left = members; left != 0 && more != 0; left &= left - 1) {
        more &= m_above[std::countr_zero(left)][j];  // every member is below j
      }
      if (more != 0) {
        grow(ids, grown, size + 1, members | (1U << j), more, emit);
      }
    }
  }

  // m_above[x][y], x < y: the positions z above y whose triple with x and y is shared. A subset
  // grows by higher positions only, so that is all it asks.
  std::array<std::array<std::uint8_t, k_max_tabled>, k_max_tabled> m_above{};
};

// One entry of a light keyword's postings, 32 bytes: a distinct set, the signature of its heavy
// keywords and, inline, the keywords themselves (when it has at most k_max_tabled of them; a
// wide set's are read from the flat list).
struct Posting {
  std::uint32_t set = 0;
  std::uint16_t heavy_count = 0;
  std::uint64_t signature = 0;  // of its heavy ids
  std::array<std::uint16_t, k_max_tabled> heavy{};
};

// 64 counts of 0 to k_most, one per bit lane: plane p holds bit p of every count, so adding one
// to any set of lanes is a few word operations, however many lanes it touches.
class LaneCounts {
 public:
  static constexpr std::uint32_t k_most = 15;
  static_assert(k_max_tabled <= k_most, "a tabled set's overlaps must fit the planes");

  // One more in each lane of `lanes`; the caller keeps every count at most k_most.
  void add(std::uint64_t lanes) {
    for (std::uint64_t& plane : m_planes) {
      const std::uint64_t carry = plane & lanes;
      plane ^= lanes;
      lanes = carry;
    }
  }
  // Sets a lane to `value`, or to k_most when it is larger.
  void set(unsigned lane, std::uint32_t value) {
    value = std::min(value, k_most);
    for (std::size_t p = 0; p < m_planes.size(); ++p) {
      const std::uint64_t bit = std::uint64_t{1} << lane;
      m_planes[p] = ((value >> p) & 1U) != 0 ? (m_planes[p] | bit) : (m_planes[p] & ~bit);
    }
  }
  [[nodiscard]] std::uint32_t at(unsigned lane) const {
    std::uint32_t value = 0;
    for (std::size_t p = 0; p < m_planes.size(); ++p) {
      value |= static_cast<std::uint32_t>((m_planes[p] >> lane) & 1U) << p;
    }
    return value;
  }
  // The largest count: from the highest plane down, keep the lanes that have its bit if any do.
  [[nodiscard]] std::uint32_t most() const {
    std::uint64_t lanes = ~std::uint64_t{0};
    std::uint32_t value = 0;
    for (std::size_t p = m_planes.size(); p-- > 0;) {
      if ((lanes & m_planes[p]) != 0) {
        lanes &= m_planes[p];
        value |= 1U << p;
      }
    }
    return value;
  }
  // The lanes whose count is larger than the same lane of `other`.
  [[nodiscard]] std::uint64_t above(const LaneCounts& other) const {
    std::uint64_t greater = 0;
    std::uint64_t equal = ~std::uint64_t{0};
    for (std::size_t p = m_planes.size(); p-- > 0;) {
      greater |= equal & m_planes[p] & ~other.m_planes[p];
      equal &= ~(m_planes[p] ^ other.m_planes[p]);
    }
    return greater;
  }

 private:
  std::array<std::uint64_t, 4> m_planes{};  // counts up to k_most = 2^4 - 1
};

// A set of heavy ids (< k_max_heavy) as bits, for counting another set's ids that are in it.
class HeavyBits {
 public:
  explicit HeavyBits(std::size_t heavy_count) : m_words(heavy_count / 64 + 1, 0) {}
  void assign(const std::uint16_t* ids, std::size_t count, bool value) {
    for (std::size_t i = 0; i < count; ++i) {
      const std::uint64_t bit = std::uint64_t{1} << (ids[i] & 63U);
      m_words[ids[i] >> 6U] =
          value ? (m_words[ids[i] >> 6U] | bit) : (m_words[ids[i] >> 6U] & ~bit);
    }
  }
  [[nodiscard]] std::uint32_t count_in(const std::uint16_t* ids, std::size_t count) const {
    std::uint32_t in = 0;
    for (std::size_t i = 0; i < count; ++i) {
      in += static_cast<std::uint32_t>((m_words[ids[i] >> 6U] >> (ids[i] & 63U)) & 1U);
    }
    return in;
  }

 private:
  std::vector<std::uint64_t> m_words;
};

}  // namespace gv::scoring::duplicate_tables
