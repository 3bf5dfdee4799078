#pragma once

#include <cstddef>
#include <cstdint>
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
  void add(std::string_view bytes);
  void add(char c) { add(std::string_view(&c, 1)); }
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

}  // namespace gv::util
