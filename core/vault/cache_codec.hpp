#pragma once

#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/dates.hpp"
#include "core/finding.hpp"

// The binary encoding of git-vault's cache files in the git dir (the parse cache, the gate's
// baseline): LEB128 varints (signed ones zigzag-encoded), strings as a varint length then the
// bytes, and a checksum that notices truncation and torn or random writes.
namespace gv::cache_codec {

// The files' fixed-width header fields: `bytes` bytes of `value`, least significant first.
void put_fixed(std::string& out, std::uint64_t value, int bytes);
// The field put_fixed wrote at `at`; the caller has checked that `in` holds it.
[[nodiscard]] std::uint64_t get_fixed(std::string_view in, std::size_t at, int bytes);

class Writer {
 public:
  explicit Writer(std::string& out) : m_out(out) {}

  void u(std::uint64_t value) {
    while (value >= 0x80) {
      m_out += static_cast<char>((value & 0x7fU) | 0x80U);
      value >>= 7;
    }
    m_out += static_cast<char>(value);
  }
  void i(std::int64_t value) {
    u((static_cast<std::uint64_t>(value) << 1) ^ static_cast<std::uint64_t>(value >> 63));
  }
  void str(std::string_view text) {
    u(text.size());
    m_out += text;
  }
  void strings(const std::vector<std::string>& list) {
    u(list.size());
    for (const std::string& item : list) {
      str(item);
    }
  }
  void date(std::optional<Date> value) {
    u(value ? 1 : 0);
    if (value) {
      i(value->days);
    }
  }

 private:
  std::string& m_out;
};

// Every read is bounds-checked; the first failure sets `failed` and later reads return zeros,
// so a damaged record decodes to garbage that the caller discards, never out-of-bounds access.
class Reader {
 public:
  Reader(std::string_view in, std::size_t at, std::size_t end) : m_in(in), m_at(at), m_end(end) {}

  std::uint64_t u() {
    std::uint64_t value = 0;
    for (int shift = 0; shift < 64; shift += 7) {
      if (m_at >= m_end) {
        m_failed = true;
        return 0;
      }
      const auto byte = static_cast<unsigned char>(m_in[m_at++]);
      value |= static_cast<std::uint64_t>(byte & 0x7fU) << shift;
      if ((byte & 0x80U) == 0) {
        return value;
      }
    }
    m_failed = true;
    return 0;
  }
  std::int64_t i() {
    const std::uint64_t raw = u();
    return static_cast<std::int64_t>(raw >> 1) ^ -static_cast<std::int64_t>(raw & 1U);
  }
  std::string_view view() {
    const std::uint64_t size = u();
    if (m_failed || size > m_end - m_at) {
      m_failed = true;
      return {};
    }
    const std::string_view out = m_in.substr(m_at, size);
    m_at += size;
    return out;
  }
  std::string str() { return std::string(view()); }
  std::vector<std::string> strings() {
    std::vector<std::string> out;
    const std::uint64_t count = u();
    // Sized once: a vault's keyword lists are decoded 100,000 at a time, and growing each one
    // leaves a quarter of it unused on average. Each string takes a byte at least, so a damaged
    // count cannot reserve more than the record holds.
    if (!m_failed && count <= m_end - m_at) {
      out.reserve(count);
    }
    for (std::uint64_t n = 0; n < count && !m_failed; ++n) {
      out.push_back(str());
    }
    return out;
  }
  std::optional<Date> date() {
    if (u() == 0) {
      return std::nullopt;
    }
    return Date{i()};
  }
  void skip_strings() {
    const std::uint64_t count = u();
    for (std::uint64_t n = 0; n < count && !m_failed; ++n) {
      (void)view();
    }
  }
  void skip(std::size_t bytes) {
    if (bytes > m_end - m_at) {
      m_failed = true;
      return;
    }
    m_at += bytes;
  }

  [[nodiscard]] bool failed() const { return m_failed; }
  [[nodiscard]] std::size_t at() const { return m_at; }

 private:
  std::string_view m_in;
  std::size_t m_at;
  std::size_t m_end;
  bool m_failed = false;
};

void write_finding(Writer& out, const Finding& finding);
[[nodiscard]] Finding read_finding(Reader& in);
void write_findings(Writer& out, const std::vector<Finding>& findings);
[[nodiscard]] std::vector<Finding> read_findings(Reader& in);

// Word-at-a-time mixing in four independent lanes (so the CPU overlaps the multiplications).
[[nodiscard]] std::uint64_t checksum(std::string_view bytes);
// The checksum of the pieces one after another, without joining them.
[[nodiscard]] std::uint64_t checksum_pieces(std::initializer_list<std::string_view> pieces);

}  // namespace gv::cache_codec
