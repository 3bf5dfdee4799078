#include "core/util/digest.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cstring>

namespace gv::util {
namespace {

std::uint64_t rotate_left(std::uint64_t value, int bits) {
  return (value << bits) | (value >> (64 - bits));
}

std::uint64_t final_mix(std::uint64_t hash) {
  hash ^= hash >> 33;
  hash *= 0xff51afd7ed558ccdULL;
  hash ^= hash >> 33;
  hash *= 0xc4ceb9fe1a85ec53ULL;
  hash ^= hash >> 33;
  return hash;
}

}  // namespace

void Digest128::mix(const char* at) {
  std::uint64_t word = 0;
  std::memcpy(&word, at, 8);
  m_a = rotate_left(m_a ^ (word * 0x87c37b91114253d5ULL), 31) * 0x4cf5ad432745937fULL;
  m_b = rotate_left(m_b ^ (word * 0x9e3779b97f4a7c15ULL), 27) * 0xc2b2ae3d27d4eb4fULL + m_a;
}

void Digest128::add(std::string_view bytes) {
  if (bytes.empty()) {
    return;  // an empty view may have no data pointer at all, which memcpy must not be given
  }
  m_size += bytes.size();
  if (m_pending_size > 0) {
    const std::size_t take = std::min(bytes.size(), 8 - m_pending_size);
    std::memcpy(m_pending + m_pending_size, bytes.data(), take);
    m_pending_size += take;
    bytes.remove_prefix(take);
    if (m_pending_size < 8) {
      return;
    }
    mix(m_pending);
    m_pending_size = 0;
  }
  std::size_t i = 0;
  for (; i + 8 <= bytes.size(); i += 8) {
    mix(bytes.data() + i);
  }
  std::memcpy(m_pending, bytes.data() + i, bytes.size() - i);
  m_pending_size = bytes.size() - i;
}

Digest128::Value Digest128::value() const {
  // The length goes in last, with the unfinished word, so "ab" + "" and "a" + "b" agree while
  // inputs that differ only in trailing zero bytes do not.
  char last[8] = {};
  std::memcpy(last, m_pending, m_pending_size);
  std::uint64_t word = 0;
  std::memcpy(&word, last, 8);
  const std::uint64_t a =
      rotate_left(m_a ^ ((word ^ m_size) * 0x87c37b91114253d5ULL), 31) * 0x4cf5ad432745937fULL;
  const std::uint64_t b =
      rotate_left(m_b ^ ((word + m_size) * 0x9e3779b97f4a7c15ULL), 27) * 0xc2b2ae3d27d4eb4fULL + a;
  return {final_mix(a), final_mix(b ^ a)};
}

std::string Digest128::hex() const {
  const Value v = value();
  return fmt::format("{:016x}{:016x}", v.high, v.low);
}

Digest128::Value SetDigest128::item(std::string_view key, std::string_view value) {
  Digest128 digest;
  digest.add(key);
  digest.add('\0');
  digest.add(value);
  digest.add('\n');
  return digest.value();
}

void SetDigest128::add(std::string_view key, std::string_view value) {
  const Digest128::Value v = item(key, value);
  const std::uint64_t low = m_sum.low + v.low;
  m_sum.high += v.high + (low < v.low ? 1 : 0);
  m_sum.low = low;
}

void SetDigest128::remove(std::string_view key, std::string_view value) {
  const Digest128::Value v = item(key, value);
  m_sum.high -= v.high + (m_sum.low < v.low ? 1 : 0);
  m_sum.low -= v.low;
}

std::string SetDigest128::hex() const {
  return fmt::format("{:016x}{:016x}", m_sum.high, m_sum.low);
}

std::optional<SetDigest128> SetDigest128::from_hex(std::string_view hex) {
  if (hex.size() != 32) {
    return std::nullopt;
  }
  std::uint64_t halves[2] = {0, 0};
  for (std::size_t i = 0; i < hex.size(); ++i) {
    const char c = hex[i];
    std::uint64_t nibble = 0;
    if (c >= '0' && c <= '9') {
      nibble = static_cast<std::uint64_t>(c - '0');
    } else if (c >= 'a' && c <= 'f') {
      nibble = static_cast<std::uint64_t>(c - 'a' + 10);
    } else {
      return std::nullopt;
    }
    halves[i / 16] = (halves[i / 16] << 4U) | nibble;
  }
  SetDigest128 out;
  out.m_sum = {halves[0], halves[1]};
  return out;
}

}  // namespace gv::util
