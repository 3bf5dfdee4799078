#include "core/vault/cache_codec.hpp"

#include <algorithm>
#include <cstring>

namespace gv::cache_codec {

void put_fixed(std::string& out, std::uint64_t value, int bytes) {
  for (int i = 0; i < bytes; ++i) {
    out += static_cast<char>((value >> (8 * i)) & 0xffU);
  }
}

std::uint64_t get_fixed(std::string_view in, std::size_t at, int bytes) {
  std::uint64_t value = 0;
  for (int i = 0; i < bytes; ++i) {
    value |=
        static_cast<std::uint64_t>(static_cast<unsigned char>(in[at + static_cast<std::size_t>(i)]))
        << (8 * i);
  }
  return value;
}

void write_finding(Writer& out, const Finding& finding) {
  out.str(finding.check);
  out.u(finding.severity == Severity::error ? 0 : 1);
  out.str(finding.path);
  out.u(finding.line ? 1 : 0);
  if (finding.line) {
    out.i(*finding.line);
  }
  out.str(finding.id);
  out.str(finding.message);
  out.str(finding.fix);
}

Finding read_finding(Reader& in) {
  Finding finding;
  finding.check = in.str();
  finding.severity = in.u() == 0 ? Severity::error : Severity::warning;
  finding.path = in.str();
  if (in.u() != 0) {
    finding.line = static_cast<int>(in.i());
  }
  finding.id = in.str();
  finding.message = in.str();
  finding.fix = in.str();
  return finding;
}

void write_findings(Writer& out, const std::vector<Finding>& findings) {
  out.u(findings.size());
  for (const Finding& finding : findings) {
    write_finding(out, finding);
  }
}

std::vector<Finding> read_findings(Reader& in) {
  std::vector<Finding> findings;
  const std::uint64_t count = in.u();
  for (std::uint64_t n = 0; n < count && !in.failed(); ++n) {
    findings.push_back(read_finding(in));
  }
  return findings;
}

std::uint64_t checksum(std::string_view bytes) { return checksum_pieces({bytes}); }

std::uint64_t checksum_pieces(std::initializer_list<std::string_view> pieces) {
  std::size_t size = 0;
  for (const std::string_view piece : pieces) {
    size += piece.size();
  }
  std::uint64_t lanes[4] = {0x9e3779b97f4a7c15ULL ^ size, 0xc2b2ae3d27d4eb4fULL,
                            0x165667b19e3779f9ULL, 0x27d4eb2f165667c5ULL};
  const auto block = [&lanes](const char* at) {
    for (int lane = 0; lane < 4; ++lane) {
      std::uint64_t word = 0;
      std::memcpy(&word, at + 8 * static_cast<std::size_t>(lane), 8);
      lanes[lane] = (lanes[lane] ^ word) * 0x100000001b3ULL;
      lanes[lane] ^= lanes[lane] >> 29;
    }
  };
  // Whole 32-byte blocks of the concatenation, a block that spans two pieces gathered first.
  char carry[32];
  std::size_t carried = 0;
  for (std::string_view piece : pieces) {
    if (carried > 0) {
      const std::size_t take = std::min(piece.size(), sizeof carry - carried);
      std::memcpy(carry + carried, piece.data(), take);
      carried += take;
      piece.remove_prefix(take);
      if (carried < sizeof carry) {
        continue;
      }
      block(carry);
      carried = 0;
    }
    std::size_t i = 0;
    for (; i + 32 <= piece.size(); i += 32) {
      block(piece.data() + i);
    }
    std::memcpy(carry, piece.data() + i, piece.size() - i);
    carried = piece.size() - i;
  }
  std::uint64_t hash = lanes[0] ^ (lanes[1] * 0x9e3779b97f4a7c15ULL) ^
                       (lanes[2] * 0xc2b2ae3d27d4eb4fULL) ^ (lanes[3] * 0x165667b19e3779f9ULL);
  for (std::size_t i = 0; i < carried; ++i) {
    hash = (hash ^ static_cast<unsigned char>(carry[i])) * 0x100000001b3ULL;
  }
  return hash ^ (hash >> 32);
}

}  // namespace gv::cache_codec
