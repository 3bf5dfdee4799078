#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace gv::util {

// 128 bits from two differently seeded multiply-rotate lanes over 8-byte words (murmur-style),
// fed piece by piece, so a digest of 10,000 paths needs no megabyte string to hold them first.
// It tells states of one repository apart on one machine, where nobody gains by forging a
// collision (a commit can skip the hook outright), so a cryptographic hash is not needed, and
// this one runs at memory speed. The same pieces give the same digest however they are split.
class Digest128 {
 public:
  struct Value {
    std::uint64_t high = 0;
    std::uint64_t low = 0;
    friend bool operator==(const Value&, const Value&) = default;
  };

  void add(std::string_view bytes);
  void add(char c) { add(std::string_view(&c, 1)); }
  [[nodiscard]] Value value() const;
  // 32 lowercase hex digits.
  [[nodiscard]] std::string hex() const;

 private:
  void mix(const char* at);

  std::uint64_t m_a = 0x243f6a8885a308d3ULL;
  std::uint64_t m_b = 0x13198a2e03707344ULL;
  std::uint64_t m_size = 0;
  char m_pending[8] = {};
  std::size_t m_pending_size = 0;
};

// A digest of a collection of items, each a key and a value (an entry's path and blob id): the
// sum, modulo 2^128, of every item's Digest128 of key, NUL, value, newline. The order the items
// come in does not matter, and taking one out costs what putting it in did, so the digest of
// 100,000 index entries follows a commit that changes three of them without going over the
// rest (doc/performance.md, "The commit hook's digests follow the change"). Two equal items
// count twice; the callers' items are unique by key.
class SetDigest128 {
 public:
  void add(std::string_view key, std::string_view value);
  void remove(std::string_view key, std::string_view value);
  // 32 lowercase hex digits; `from_hex` reads them back (nullopt for anything else).
  [[nodiscard]] std::string hex() const;
  [[nodiscard]] static std::optional<SetDigest128> from_hex(std::string_view hex);

  friend bool operator==(const SetDigest128&, const SetDigest128&) = default;

 private:
  static Digest128::Value item(std::string_view key, std::string_view value);

  Digest128::Value m_sum;
};

}  // namespace gv::util
