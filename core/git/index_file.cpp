#include "core/git/index_file.hpp"

#include <algorithm>
#include <cerrno>
#include <cstring>

#include "core/util/mapped_file.hpp"

namespace gv::git {

// The layout is git's own (Documentation/gitformat-index.txt in git's sources); doc/git-index.md
// summarises the parts read here.
struct IndexFile::Storage {
  std::optional<util::MappedFile> mapped;  // the file, or
  std::string owned;                       // bytes handed to parse()
  std::string paths;                       // version 4: the expanded paths the entries view

  [[nodiscard]] std::string_view bytes() const { return mapped ? mapped->view() : owned; }
};

namespace {

constexpr std::size_t k_header_size = 12;
constexpr std::size_t k_oid_size = 20;
constexpr std::size_t k_checksum_size = 20;
// ctime, mtime (8 each), dev, ino, mode, uid, gid, size (4 each), the id, then 16 bits of flags.
constexpr std::size_t k_mode_offset = 24;
constexpr std::size_t k_oid_offset = 40;
constexpr std::size_t k_flags_offset = k_oid_offset + k_oid_size;
constexpr std::size_t k_fixed_size = k_flags_offset + 2;
constexpr std::uint16_t k_flag_extended = 0x4000;
constexpr std::uint16_t k_flag_stage_mask = 0x3000;
constexpr int k_flag_stage_shift = 12;
constexpr std::uint16_t k_name_mask = 0x0fff;
constexpr std::uint16_t k_extended_intent_to_add = 0x2000;
constexpr std::uint16_t k_extended_unknown = 0x9fff;  // reserved: bit 15 and the low 13 bits

std::uint32_t be32(const char* at) {
  const auto* p = reinterpret_cast<const unsigned char*>(at);
  return (std::uint32_t{p[0]} << 24) | (std::uint32_t{p[1]} << 16) | (std::uint32_t{p[2]} << 8) |
         std::uint32_t{p[3]};
}

std::uint16_t be16(const char* at) {
  const auto* p = reinterpret_cast<const unsigned char*>(at);
  return static_cast<std::uint16_t>((p[0] << 8) | p[1]);
}

// Version 4's "remove N bytes of the previous path" count: git's offset varint (each
// continuation adds one before shifting, so every value has exactly one encoding).
bool read_offset_varint(std::string_view bytes, std::size_t& at, std::size_t& value) {
  if (at >= bytes.size()) {
    return false;
  }
  auto c = static_cast<unsigned char>(bytes[at++]);
  value = c & 0x7fU;
  while ((c & 0x80U) != 0) {
    if (at >= bytes.size() || value > (SIZE_MAX >> 8)) {
      return false;
    }
    c = static_cast<unsigned char>(bytes[at++]);
    value = ((value + 1) << 7) | (c & 0x7fU);
  }
  return true;
}

}  // namespace

IndexFile::IndexFile() : m_storage(std::make_unique<Storage>()) {}
IndexFile::IndexFile(IndexFile&&) noexcept = default;
IndexFile& IndexFile::operator=(IndexFile&&) noexcept = default;
IndexFile::~IndexFile() = default;

std::uint32_t IndexFile::Entry::mode() const { return be32(start + k_mode_offset); }

std::string IndexFile::Entry::oid_hex() const {
  static constexpr char k_digits[] = "0123456789abcdef";
  std::string hex(2 * k_oid_size, '0');
  for (std::size_t i = 0; i < k_oid_size; ++i) {
    hex[2 * i] = k_digits[oid()[i] >> 4];
    hex[2 * i + 1] = k_digits[oid()[i] & 0xf];
  }
  return hex;
}

std::optional<IndexFile> IndexFile::read(const std::filesystem::path& file) {
  std::error_code error;
  if (!std::filesystem::exists(file, error) && !error) {
    return IndexFile();
  }
  // git replaces the index by renaming a new file over it, so the mapped bytes never change.
  std::optional<util::MappedFile> mapped =
      util::MappedFile::open(file, util::MappedFile::Pages::copy);
  if (!mapped) {
    return std::nullopt;
  }
  IndexFile index;
  index.m_storage->mapped = std::move(mapped);
  if (!index.load()) {
    return std::nullopt;
  }
  return index;
}

std::optional<IndexFile> IndexFile::parse(std::string bytes) {
  IndexFile index;
  index.m_storage->owned = std::move(bytes);
  if (!index.load()) {
    return std::nullopt;
  }
  return index;
}

bool IndexFile::load() {
  const std::string_view bytes = m_storage->bytes();
  if (bytes.size() < k_header_size + k_checksum_size || bytes.substr(0, 4) != "DIRC") {
    return false;
  }
  const std::uint32_t version = be32(bytes.data() + 4);
  const std::uint32_t count = be32(bytes.data() + 8);
  const std::size_t end = bytes.size() - k_checksum_size;
  std::size_t at = k_header_size;
  if (!load_entries(bytes.substr(0, end), at, version, count)) {
    return false;
  }
  // Extensions: a four-byte signature and a 32-bit size each. Uppercase signatures are
  // optional caches; a lowercase one changes what the entries mean (`link`: the entries are
  // a delta over a shared index; `sdir`: directory entries), so it is left to libgit2.
  while (at < end) {
    if (end - at < 8) {
      return false;
    }
    const char signature = bytes[at];
    const std::uint32_t size = be32(bytes.data() + at + 4);
    if (signature < 'A' || signature > 'Z' || size > end - at - 8) {
      return false;
    }
    if (bytes.substr(at, 4) == "TREE") {
      m_cache_tree = bytes.substr(at + 8, size);
    }
    at += 8 + size;
  }
  return true;
}

std::optional<IndexFile> IndexFile::view_entries(std::string_view entry_bytes,
                                                 std::uint32_t version, std::uint32_t count) {
  if (version == 4) {
    return std::nullopt;  // a v4 entry's path depends on the entry before it
  }
  IndexFile index;
  std::size_t at = 0;
  if (!index.load_entries(entry_bytes, at, version, count) || at != entry_bytes.size()) {
    return std::nullopt;
  }
  return index;
}

std::optional<std::string_view> IndexFile::entry_bytes(std::span<const Entry> range) const {
  if (m_version == 4) {
    return std::nullopt;
  }
  if (range.empty()) {
    return std::string_view();
  }
  const Entry* after = range.data() + range.size();
  const char* end = after == m_entries.data() + m_entries.size() ? m_entries_end : after->start;
  return std::string_view(range.front().start, static_cast<std::size_t>(end - range.front().start));
}

namespace {

// git keeps entries sorted by path, then stage; a file that is not was not written by it.
bool in_order(const IndexFile::Entry& a, const IndexFile::Entry& b) {
  return a.path() < b.path() || (a.path() == b.path() && a.stage < b.stage);
}

}  // namespace

std::optional<IndexFile::RawEntry> IndexFile::read_entry(std::string_view bytes,
                                                         std::uint32_t version) {
  if (bytes.size() < k_fixed_size || version < 2 || version > 4) {
    return std::nullopt;
  }
  const char* fixed = bytes.data();
  RawEntry raw;
  Entry& entry = raw.entry;
  entry.start = fixed;
  const std::uint32_t mode = be32(fixed + k_mode_offset);
  const std::uint16_t flags = be16(fixed + k_flags_offset);
  entry.stage = static_cast<std::uint8_t>((flags & k_flag_stage_mask) >> k_flag_stage_shift);
  std::size_t header = k_fixed_size;
  if ((flags & k_flag_extended) != 0) {
    if (version < 3 || bytes.size() < k_fixed_size + 2) {
      return std::nullopt;
    }
    const std::uint16_t extended = be16(fixed + k_fixed_size);
    if ((extended & k_extended_unknown) != 0) {
      return std::nullopt;
    }
    entry.intent_to_add = (extended & k_extended_intent_to_add) != 0;
    header += 2;
  }
  // A sparse index lists whole directories as entries (mode 040000): their files are not in
  // this file, so the listing would be incomplete.
  if ((mode & 0170000U) == 0040000U) {
    return std::nullopt;
  }
  entry.regular_file = (mode & 0170000U) == 0100000U;
  raw.size = header;  // version 4: the path follows, prefix-compressed (see load_entries)
  if (version == 4) {
    return raw;
  }
  // The 12-bit length, or the NUL when the path is 4095 bytes or longer.
  std::size_t length = flags & k_name_mask;
  if (length == k_name_mask) {
    const std::size_t nul = bytes.find('\0', header);
    if (nul == std::string_view::npos) {
      return std::nullopt;
    }
    length = nul - header;
  }
  if (bytes.size() - header < length + 1 || bytes[header + length] != '\0') {
    return std::nullopt;
  }
  entry.path_data = fixed + header;
  entry.path_size = static_cast<std::uint32_t>(length);
  // Entries are padded with 1 to 8 NULs to a multiple of eight bytes.
  raw.size = (header + length + 8) & ~std::size_t{7};
  if (raw.size > bytes.size()) {
    return std::nullopt;
  }
  return raw;
}

bool IndexFile::load_entries(std::string_view bytes, std::size_t& at, std::uint32_t version,
                             std::uint32_t count) {
  if (version < 2 || version > 4) {
    return false;
  }
  m_version = version;
  const std::size_t end = bytes.size();
  if (count > (end - std::min(end, at)) / k_fixed_size) {
    return false;
  }

  // Version 4 paths are expanded into one buffer first and viewed once it stops growing.
  std::vector<std::pair<std::size_t, std::size_t>> v4_spans;
  std::string& paths = m_storage->paths;
  std::string previous;
  m_entries.reserve(count);
  for (std::uint32_t n = 0; n < count; ++n) {
    std::optional<RawEntry> raw = read_entry(bytes.substr(std::min(at, end)), version);
    if (!raw) {
      return false;
    }
    if (version == 4) {
      std::size_t name_at = at + raw->size;
      std::size_t strip = 0;
      if (!read_offset_varint(bytes, name_at, strip) || strip > previous.size()) {
        return false;
      }
      const std::size_t nul = bytes.find('\0', name_at);
      if (nul == std::string_view::npos) {
        return false;
      }
      previous.resize(previous.size() - strip);
      previous.append(bytes.data() + name_at, nul - name_at);
      v4_spans.emplace_back(paths.size(), previous.size());
      paths += previous;
      at = nul + 1;
    } else {
      at += raw->size;
      // In order, checked while the path is in cache (see the version 4 check below).
      if (!m_entries.empty() && !in_order(m_entries.back(), raw->entry)) {
        return false;
      }
    }
    m_entries.push_back(raw->entry);
  }
  m_entries_end = bytes.data() + at;
  if (version == 4) {
    for (std::size_t i = 0; i < m_entries.size(); ++i) {
      m_entries[i].path_data = paths.data() + v4_spans[i].first;
      m_entries[i].path_size = static_cast<std::uint32_t>(v4_spans[i].second);
    }
    for (std::size_t i = 1; i < m_entries.size(); ++i) {
      if (!in_order(m_entries[i - 1], m_entries[i])) {
        return false;
      }
    }
  }
  return true;
}

namespace {

// One node of the cache-tree extension and, depth first, its subtrees: a NUL-terminated name,
// the ASCII entry count (negative: invalidated, and then no id follows), a space, the ASCII
// subtree count, a newline, the 20-byte id. Returns the position after the node and its
// subtrees, or npos when the bytes do not parse; sets `found` when `path` is `want`.
std::size_t walk_cache_tree(std::string_view tree, std::size_t at, const std::string& path,
                            std::string_view want, std::optional<std::string>& found, int depth) {
  constexpr std::size_t k_bad = std::string_view::npos;
  const std::size_t nul = tree.find('\0', at);
  const std::size_t newline = nul == k_bad ? k_bad : tree.find('\n', nul);
  if (newline == k_bad || depth > 256) {
    return k_bad;
  }
  const std::string_view name = tree.substr(at, nul - at);
  const std::string here = path.empty() ? std::string(name) : path + "/" + std::string(name);
  const std::string_view counts = tree.substr(nul + 1, newline - nul - 1);
  const std::size_t space = counts.find(' ');
  if (space == k_bad || space == 0 || space + 1 == counts.size()) {
    return k_bad;
  }
  const bool valid = counts[0] != '-';
  std::size_t subtrees = 0;
  for (const char c : counts.substr(space + 1)) {
    if (c < '0' || c > '9' || subtrees > 1'000'000) {
      return k_bad;
    }
    subtrees = subtrees * 10 + static_cast<std::size_t>(c - '0');
  }
  at = newline + 1;
  if (valid) {
    if (tree.size() - at < k_oid_size) {
      return k_bad;
    }
    if (here == want) {
      static constexpr char k_digits[] = "0123456789abcdef";
      std::string hex;
      for (std::size_t i = 0; i < k_oid_size; ++i) {
        const auto byte = static_cast<unsigned char>(tree[at + i]);
        hex += k_digits[byte >> 4];
        hex += k_digits[byte & 0xf];
      }
      found = std::move(hex);
    }
    at += k_oid_size;
  }
  for (std::size_t i = 0; i < subtrees && at != k_bad; ++i) {
    at = walk_cache_tree(tree, at, here, want, found, depth + 1);
  }
  return at;
}

}  // namespace

std::optional<std::string> IndexFile::cached_tree_id(std::string_view dir) const {
  if (m_cache_tree.empty() || dir.empty()) {
    return std::nullopt;
  }
  std::optional<std::string> found;
  if (walk_cache_tree(m_cache_tree, 0, "", dir, found, 0) != m_cache_tree.size()) {
    return std::nullopt;  // not an extension git wrote: trust nothing in it
  }
  return found;
}

std::span<const IndexFile::Entry> IndexFile::with_prefix(std::string_view prefix) const {
  const auto first =
      std::lower_bound(m_entries.begin(), m_entries.end(), prefix,
                       [](const Entry& entry, std::string_view key) { return entry.path() < key; });
  // The end is found by a second search, not by walking the range: each step of a walk reads
  // a path from the mapped file, and at 100,000 entries that is milliseconds of cache misses.
  const auto last = std::partition_point(
      first, m_entries.end(), [&](const Entry& entry) { return entry.path().starts_with(prefix); });
  return {first, last};
}

const IndexFile::Entry* IndexFile::find(std::string_view path) const {
  const auto it =
      std::lower_bound(m_entries.begin(), m_entries.end(), path,
                       [](const Entry& entry, std::string_view key) { return entry.path() < key; });
  return it != m_entries.end() && it->path() == path && it->stage == 0 ? &*it : nullptr;
}

}  // namespace gv::git
