#pragma once
// The flat tables behind the duplicate score (core/scoring/duplicate.cpp): interned keyword ids,
// id lists in one array, the counts of heavy-keyword tuples, and the light postings. Internal to
// that file; kept apart so the scoring reads as the algorithm it is.
#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <functional>
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
};

inline Tuple pack(const std::uint16_t* ids, std::size_t count, unsigned chosen) {
  Tuple tuple;
  unsigned bit = 0;
  for (std::size_t i = 0; i < count; ++i) {
    if ((chosen >> i) & 1U) {
      const std::uint64_t value = static_cast<std::uint64_t>(ids[i]) + 1;
      if (bit < 64) {
        tuple.low |= value << bit;
        if (bit + 12 > 64) {
          tuple.high |= static_cast<std::uint32_t>(value >> (64 - bit));  // straddles the two
        }
      } else {
        tuple.high |= static_cast<std::uint32_t>(value << (bit - 64));
      }
      bit += 12;
    }
  }
  return tuple;
}

// splitmix64's finaliser: every input bit moves every output bit, so any slice of the result is a
// fair slot number.
inline std::uint64_t mix(std::uint64_t value) {
  value ^= value >> 30;
  value *= 0xBF58476D1CE4E5B9ULL;
  value ^= value >> 27;
  value *= 0x94D049BB133111EBULL;
  return value ^ (value >> 31);
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
    std::sort(first, m_flat.end());
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

// Keyword keys to dense ids, open addressing over one array. A slot keeps the key's hash, so a
// probe compares key bytes only when the hashes match; the bytes stay where they are (the
// memories' keywords outlive the table). It starts small and doubles: a vault repeats its
// keywords, so sizing it for every keyword slot would spread it over many times the memory.
class KeywordIds {
 public:
  std::uint32_t intern(std::string_view key) {
    if ((m_size + 1) * 2 > m_slots.size()) {
      grow();
    }
    const std::uint64_t hash = std::hash<std::string_view>{}(key) | 1U;  // 0 marks an empty slot
    Slot& slot = m_slots[find_slot(hash, key)];
    if (slot.hash == 0) {
      slot = Slot{hash, key.data(), static_cast<std::uint32_t>(key.size()),
                  static_cast<std::uint32_t>(m_size++)};
    }
    return slot.id;
  }
  [[nodiscard]] std::size_t size() const { return m_size; }

 private:
  struct Slot {
    std::uint64_t hash = 0;
    const char* data = nullptr;
    std::uint32_t size = 0;
    std::uint32_t id = 0;
  };

  [[nodiscard]] std::size_t find_slot(std::uint64_t hash, std::string_view key) const {
    const std::size_t last = m_slots.size() - 1;
    std::size_t at = static_cast<std::size_t>(mix(hash)) & last;
    while (m_slots[at].hash != 0 && (m_slots[at].hash != hash || m_slots[at].size != key.size() ||
                                     std::memcmp(m_slots[at].data, key.data(), key.size()) != 0)) {
      at = (at + 1) & last;
    }
    return at;
  }

  void grow() {
    std::vector<Slot> slots = std::move(m_slots);
    m_slots.assign(std::max<std::size_t>(1024, slots.size() * 2), Slot{});
    for (const Slot& slot : slots) {
      if (slot.hash != 0) {
        m_slots[find_slot(slot.hash, {slot.data, slot.size})] = slot;
      }
    }
  }

  std::vector<Slot> m_slots;
  std::size_t m_size = 0;
};

// How many memories hold each tuple of heavy keywords: open addressing over one array of
// 16-byte slots. A stored tuple always has its first id in the low bits, so low == 0 marks an
// empty slot; the empty tuple is never stored.
class TupleCounts {
 public:
  explicit TupleCounts(std::size_t expected) {
    std::size_t capacity = 16;
    while (capacity < expected) {
      capacity *= 2;
    }
    m_slots.assign(capacity, Slot{});
  }

  void add(const Tuple& key, std::uint32_t count) {
    if (key.low == 0) {
      return;  // the empty subset is held by everybody and never looked up
    }
    if ((m_size + 1) * 2 > m_slots.size()) {
      grow();
    }
    Slot& slot = m_slots[find_slot(key)];
    if (slot.low == 0) {
      slot.low = key.low;
      slot.high = key.high;
      ++m_size;
    }
    slot.count += count;
  }

  [[nodiscard]] std::uint32_t count(const Tuple& key) const {
    return m_slots[find_slot(key)].count;  // an empty slot counts 0
  }

  // Asks the cache for the slot where `key`'s probe starts. The table is far larger than the
  // caches, so issuing a memory's handful of probes together overlaps their misses.
  void prefetch(const Tuple& key) const { __builtin_prefetch(m_slots.data() + home(key)); }

 private:
  struct Slot {
    std::uint64_t low = 0;
    std::uint32_t high = 0;
    std::uint32_t count = 0;
  };

  [[nodiscard]] std::size_t home(const Tuple& key) const {
    return static_cast<std::size_t>(mix(key.low ^ mix(key.high))) & (m_slots.size() - 1);
  }

  [[nodiscard]] std::size_t find_slot(const Tuple& key) const {
    const std::size_t last = m_slots.size() - 1;
    std::size_t slot = home(key);
    while (m_slots[slot].low != 0 &&
           (m_slots[slot].low != key.low || m_slots[slot].high != key.high)) {
      slot = (slot + 1) & last;
    }
    return slot;
  }

  void grow() {
    std::vector<Slot> slots = std::move(m_slots);
    m_slots.assign(slots.size() * 2, Slot{});
    for (const Slot& slot : slots) {
      if (slot.low != 0) {
        m_slots[find_slot(Tuple{slot.low, slot.high})] = slot;
      }
    }
  }

  std::vector<Slot> m_slots;
  std::size_t m_size = 0;
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
  [[nodiscard]] bool shared(std::size_t low, std::size_t high) const {
    return m_held[at(low, high)] >= 2;
  }

 private:
  static std::size_t at(std::size_t low, std::size_t high) { return high * (high - 1) / 2 + low; }
  std::vector<std::uint8_t> m_held;
};

// Which pairs of one memory's heavy ids (at most k_max_tabled, ascending) another memory holds
// too. A subset is chosen as bits over those ids; it can be held by another memory only if each
// of its pairs is.
class SharedPairs {
 public:
  void load(const PairCounts& pairs, const std::uint16_t* ids, std::size_t count) {
    std::size_t shared = 0;
    m_with.fill(0);
    for (std::size_t j = 1; j < count; ++j) {
      for (std::size_t i = 0; i < j; ++i) {
        if (pairs.shared(ids[i], ids[j])) {
          m_with[i] = static_cast<std::uint8_t>(m_with[i] | (1U << j));
          m_with[j] = static_cast<std::uint8_t>(m_with[j] | (1U << i));
          ++shared;
        }
      }
    }
    m_every = shared == count * (count - 1) / 2;
  }
  [[nodiscard]] bool all_shared(unsigned chosen) const {
    if (m_every) {
      return true;  // the common case in a small vocabulary: nothing to test
    }
    for (unsigned rest = chosen; rest != 0; rest &= rest - 1) {
      const auto i = static_cast<unsigned>(__builtin_ctz(rest));
      const unsigned others = chosen & ~(1U << i);
      if ((others & m_with[i]) != others) {
        return false;
      }
    }
    return true;
  }

 private:
  std::array<std::uint8_t, k_max_tabled> m_with{};  // m_with[i]: the j whose pair with i is shared
  bool m_every = false;
};

// One entry of a light keyword's postings: a distinct set and, inline, its heavy keywords (when
// it has at most k_max_tabled of them; a wide set's are read from the flat list).
struct Posting {
  std::uint32_t set = 0;
  std::uint16_t heavy_count = 0;
  std::array<std::uint16_t, k_max_tabled> heavy{};
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
