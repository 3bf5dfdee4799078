#include "core/vault/parse_cache_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <system_error>

namespace gv {
namespace {

namespace fs = std::filesystem;

// Layout: magic, format (u32 LE), body size (u64 LE), checksum of the body (u64 LE), body.
// Body: varint state count, states; varint entry count, entries (key, parse record, fragment).
// Integers are LEB128 varints (signed ones zigzag-encoded), strings a varint length then bytes.
constexpr std::string_view k_magic = "GVPC";
constexpr std::size_t k_header_size = 4 + 4 + 8 + 8;
constexpr std::size_t k_max_states = 16;
// Entries kept beyond those used in this process: enough for a few branches' worth of edits.
constexpr std::size_t k_min_kept_entries = 4096;

// Word-at-a-time mixing: the checksum only has to notice truncation and torn or random writes,
// and a byte-wise hash over a few MiB would cost milliseconds on every commit.
std::uint64_t checksum(std::string_view bytes) {
  std::uint64_t hash = 0x9e3779b97f4a7c15ULL ^ bytes.size();
  std::size_t i = 0;
  for (; i + 8 <= bytes.size(); i += 8) {
    std::uint64_t word = 0;
    std::memcpy(&word, bytes.data() + i, 8);
    hash = (hash ^ word) * 0x100000001b3ULL;
    hash ^= hash >> 29;
  }
  for (; i < bytes.size(); ++i) {
    hash = (hash ^ static_cast<unsigned char>(bytes[i])) * 0x100000001b3ULL;
  }
  return hash ^ (hash >> 32);
}

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

// Every field of Memory, in declaration order. A field added to Memory must be added here and
// k_format bumped; the round-trip test in tests/unit/gate_cache_test.cpp compares every field.
void write_memory(Writer& out, const Memory& memory) {
  out.str(memory.id);
  out.str(memory.path);
  out.str(memory.blob_oid);
  out.str(memory.title);
  out.i(memory.created.days);
  out.i(memory.modified.days);
  out.strings(memory.tags);
  out.str(memory.topic);
  out.strings(memory.keywords);
  out.str(memory.summary);
  out.str(memory.source);
  out.str(memory.category);
  out.i(memory.retrieval_count);
  out.date(memory.last_retrieved);
  out.u(memory.tombstoned ? 1 : 0);
  out.date(memory.tombstoned_at);
  out.str(memory.tombstone_reason);
  out.i(memory.token_count);
  out.strings(memory.links);
}

Memory read_memory(Reader& in) {
  Memory memory;
  memory.id = in.str();
  memory.path = in.str();
  memory.blob_oid = in.str();
  memory.title = in.str();
  memory.created.days = in.i();
  memory.modified.days = in.i();
  memory.tags = in.strings();
  memory.topic = in.str();
  memory.keywords = in.strings();
  memory.summary = in.str();
  memory.source = in.str();
  memory.category = in.str();
  memory.retrieval_count = in.i();
  memory.last_retrieved = in.date();
  memory.tombstoned = in.u() != 0;
  memory.tombstoned_at = in.date();
  memory.tombstone_reason = in.str();
  memory.token_count = in.i();
  memory.links = in.strings();
  return memory;
}

std::string encode_parsed(const ParsedMemory& parsed) {
  std::string bytes;
  Writer out(bytes);
  out.u(parsed.memory ? 1 : 0);
  if (parsed.memory) {
    write_memory(out, *parsed.memory);
  }
  write_findings(out, parsed.findings);
  return bytes;
}

std::optional<ParsedMemory> decode_parsed(std::string_view buffer, std::size_t offset,
                                          std::size_t length) {
  Reader in(buffer, offset, offset + length);
  ParsedMemory parsed;
  if (in.u() != 0) {
    parsed.memory = read_memory(in);
  }
  parsed.findings = read_findings(in);
  if (in.failed() || in.at() != offset + length) {
    return std::nullopt;
  }
  return parsed;
}

std::string key_of(std::string_view path, std::string_view oid) {
  std::string key;
  key.reserve(path.size() + 1 + oid.size());
  key += path;
  key += '\0';
  key += oid;
  return key;
}

}  // namespace

fs::path parse_cache_path(const fs::path& common_dir) {
  return common_dir / "git-vault" / "parse-cache";
}

PersistentParseCache PersistentParseCache::load(const fs::path& file) {
  const int fd = ::open(file.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    return {};
  }
  std::string bytes;
  struct ::stat info {};
  if (::fstat(fd, &info) == 0 && info.st_size > 0) {
    bytes.resize(static_cast<std::size_t>(info.st_size));
    std::size_t got = 0;
    while (got < bytes.size()) {
      const ssize_t n = ::read(fd, bytes.data() + got, bytes.size() - got);
      if (n < 0 && errno == EINTR) {
        continue;
      }
      if (n <= 0) {
        break;
      }
      got += static_cast<std::size_t>(n);
    }
    bytes.resize(got);  // a short read fails the size check below
  }
  ::close(fd);
  return from_bytes(std::move(bytes));
}

PersistentParseCache PersistentParseCache::from_bytes(std::string bytes) {
  PersistentParseCache cache;
  if (bytes.size() < k_header_size || std::string_view(bytes).substr(0, 4) != k_magic ||
      get_fixed(bytes, 4, 4) != k_format) {
    return cache;
  }
  const std::uint64_t body_size = get_fixed(bytes, 8, 8);
  if (body_size != bytes.size() - k_header_size ||
      get_fixed(bytes, 16, 8) != checksum(std::string_view(bytes).substr(k_header_size))) {
    return cache;
  }
  cache.m_buffer = std::move(bytes);
  Reader in(cache.m_buffer, k_header_size, cache.m_buffer.size());
  const std::uint64_t state_count = in.u();
  for (std::uint64_t n = 0; n < state_count && !in.failed(); ++n) {
    State state;
    state.digest = in.str();
    state.findings = read_findings(in);
    cache.m_states.push_back(std::move(state));
  }
  if (in.failed()) {
    return PersistentParseCache{};  // passed the checksum yet malformed: trust none of it
  }
  cache.m_entries_offset = in.at();
  return cache;
}

// The entry table is indexed on first use: a run answered from a remembered state never needs
// it, and indexing 10,000 keys is most of the cost of loading.
void PersistentParseCache::index_entries() const {
  if (m_indexed) {
    return;
  }
  m_indexed = true;
  if (m_entries_offset == 0) {
    return;  // nothing loaded
  }
  Reader in(m_buffer, m_entries_offset, m_buffer.size());
  const std::uint64_t entry_count = in.u();
  m_entries.reserve(entry_count < 1'000'000 ? entry_count : 0);
  for (std::uint64_t n = 0; n < entry_count && !in.failed(); ++n) {
    std::string key = in.str();
    Slot slot;
    slot.length = in.u();
    slot.offset = in.at();
    in.skip(slot.length);
    slot.fragment_length = in.u();
    slot.fragment_offset = in.at();
    in.skip(slot.fragment_length);
    if (!in.failed()) {
      m_entries.emplace(std::move(key), std::move(slot));
    }
  }
  if (in.failed() || in.at() != m_buffer.size()) {
    m_entries.clear();  // passed the checksum yet malformed: trust none of it
  }
}

const ParsedMemory* PersistentParseCache::find(std::string_view path,
                                               std::string_view blob_oid) const {
  index_entries();
  const auto it = m_entries.find(key_of(path, blob_oid));
  if (it == m_entries.end()) {
    return nullptr;
  }
  const Slot& slot = it->second;
  if (!slot.parsed) {
    slot.parsed = decode_parsed(m_buffer, slot.offset, slot.length);
    if (!slot.parsed) {
      return nullptr;  // a damaged record is a miss; store() replaces it
    }
  }
  slot.used = true;
  return &*slot.parsed;
}

void PersistentParseCache::store(std::string_view path, std::string_view blob_oid,
                                 ParsedMemory parsed) {
  index_entries();
  Slot& slot = m_entries[key_of(path, blob_oid)];
  slot.parsed = std::move(parsed);
  slot.stored = true;
  slot.used = true;
  m_dirty = true;
}

std::optional<std::string_view> PersistentParseCache::find_fragment(
    std::string_view path, std::string_view blob_oid) const {
  index_entries();
  const auto it = m_entries.find(key_of(path, blob_oid));
  if (it == m_entries.end()) {
    return std::nullopt;
  }
  const Slot& slot = it->second;
  slot.used = true;
  if (slot.fragment) {
    return std::string_view(*slot.fragment);
  }
  if (slot.fragment_length == 0) {
    return std::nullopt;
  }
  return std::string_view(m_buffer).substr(slot.fragment_offset, slot.fragment_length);
}

void PersistentParseCache::store_fragment(std::string_view path, std::string_view blob_oid,
                                          std::string fragment) {
  index_entries();
  Slot& slot = m_entries[key_of(path, blob_oid)];
  slot.fragment = std::move(fragment);
  slot.used = true;
  m_dirty = true;
}

const std::vector<Finding>* PersistentParseCache::find_state(std::string_view digest) const {
  for (const State& state : m_states) {
    if (state.digest == digest) {
      return &state.findings;
    }
  }
  return nullptr;
}

void PersistentParseCache::store_state(std::string_view digest, std::vector<Finding> findings) {
  std::erase_if(m_states, [&](const State& state) { return state.digest == digest; });
  m_states.insert(m_states.begin(), State{std::string(digest), std::move(findings)});
  if (m_states.size() > k_max_states) {
    m_states.resize(k_max_states);
  }
  m_dirty = true;
}

std::string PersistentParseCache::to_bytes() const {
  index_entries();
  std::string body;
  Writer out(body);
  out.u(m_states.size());
  for (const State& state : m_states) {
    out.str(state.digest);
    write_findings(out, state.findings);
  }

  // Used entries first, then others in a stable order up to the bound.
  std::vector<const std::pair<const std::string, Slot>*> used;
  std::vector<const std::pair<const std::string, Slot>*> unused;
  for (const auto& entry : m_entries) {
    (entry.second.used ? used : unused).push_back(&entry);
  }
  const std::size_t keep_unused =
      std::min(unused.size(), std::max(k_min_kept_entries, used.size()));
  std::sort(unused.begin(), unused.end(), [](const auto* a, const auto* b) {
    return a->second.offset > b->second.offset;  // later in the old file = stored more recently
  });
  unused.resize(keep_unused);

  out.u(used.size() + unused.size());
  for (const auto* list : {&used, &unused}) {
    for (const auto* entry : *list) {
      out.str(entry->first);
      const Slot& slot = entry->second;
      if (slot.stored) {
        const std::string record = encode_parsed(*slot.parsed);
        out.str(record);
      } else {
        out.str(std::string_view(m_buffer).substr(slot.offset, slot.length));
      }
      if (slot.fragment) {
        out.str(*slot.fragment);
      } else {
        out.str(std::string_view(m_buffer).substr(slot.fragment_offset, slot.fragment_length));
      }
    }
  }

  std::string bytes;
  bytes.reserve(k_header_size + body.size());
  bytes += k_magic;
  put_fixed(bytes, k_format, 4);
  put_fixed(bytes, body.size(), 8);
  put_fixed(bytes, checksum(body), 8);
  bytes += body;
  return bytes;
}

bool PersistentParseCache::save(const fs::path& file) const {
  if (!m_dirty) {
    return true;
  }
  std::error_code ec;
  fs::create_directories(file.parent_path(), ec);
  if (ec) {
    return false;
  }
  const std::string bytes = to_bytes();
  // A name of our own in the same directory, so rename() replaces the file atomically and two
  // concurrent runs never write into the same temporary.
  fs::path temp = file;
  temp += ".tmp." + std::to_string(::getpid());
  const int fd = ::open(temp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) {
    return false;
  }
  std::size_t written = 0;
  bool ok = true;
  while (written < bytes.size()) {
    const ssize_t n = ::write(fd, bytes.data() + written, bytes.size() - written);
    if (n < 0) {
      if (errno == EINTR) {
        continue;
      }
      ok = false;
      break;
    }
    written += static_cast<std::size_t>(n);
  }
  ok = ::close(fd) == 0 && ok;
  if (ok) {
    fs::rename(temp, file, ec);
    ok = !ec;
  }
  if (!ok) {
    fs::remove(temp, ec);
  }
  return ok;
}

}  // namespace gv
