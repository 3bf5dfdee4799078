#include "core/vault/parse_cache_file.hpp"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <memory>
#include <system_error>

#include "core/util/file.hpp"
#include "core/vault/cache_codec.hpp"

// MAP_POPULATE (Linux) only saves page faults; elsewhere the pages fault in on first touch.
#if !defined(MAP_POPULATE)
#define MAP_POPULATE 0
#endif

namespace gv {
namespace {

namespace fs = std::filesystem;
using cache_codec::checksum;
using cache_codec::read_findings;
using cache_codec::Reader;
using cache_codec::write_findings;
using cache_codec::Writer;

// Layout: magic, format (u32 LE), check-set key (u64 LE), body size (u64 LE), checksum of the
// body (u64 LE), body, then zero or more journal records.
// Body: varint state count, states; varint entry count, entries (key, generation, parse record,
// fragment) in strictly ascending key order. The generation counts the runs that saved the
// file; an entry carries the last one that used it, so pruning drops the longest unused.
// A journal record: "GVPJ", body size (u64 LE), checksum of the body (u64 LE), body: varint 1
// and a states list when the states changed (it replaces the earlier one) else 0, then varint
// entry count, entries (key, parse record, fragment) that win over earlier ones with the key.
// Integers are LEB128 varints (signed ones zigzag-encoded), strings a varint length then bytes.
constexpr std::string_view k_cache_magic = "GVPC";
constexpr std::string_view k_journal_magic = "GVPJ";
constexpr std::size_t k_cache_header_size = 4 + 4 + 8 + 8 + 8;
constexpr std::size_t k_journal_header_size = 4 + 8 + 8;
// The journal may grow to this many bytes, or an eighth of the file if that is more, before a
// save compacts: appending a few KiB per commit instead of rewriting megabytes is the point.
constexpr std::uint64_t k_min_journal_limit = 256 * 1024;
constexpr std::size_t k_max_states = 16;
// Entries kept beyond those used in this process: enough for a few branches' worth of edits.
constexpr std::size_t k_min_kept_entries = 4096;

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
  out.u(memory.link_lines.size());
  for (const int line : memory.link_lines) {
    out.i(line);
  }
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
  const std::uint64_t lines = in.u();
  for (std::uint64_t n = 0; n < lines && !in.failed(); ++n) {
    memory.link_lines.push_back(static_cast<int>(in.i()));
  }
  return memory;
}

std::string encode_parsed(const ParsedMemory& parsed) {
  std::string bytes;
  Writer out(bytes);
  out.u(parsed.memory ? 1 : 0);
  if (parsed.memory) {
    write_memory(out, *parsed.memory);
  }
  // Before the findings, so find_row reads them without decoding the findings.
  out.u(parsed.secrets.size());
  for (const secrets::SecretFinding& secret : parsed.secrets) {
    out.i(secret.line);
    out.str(secret.kind);
  }
  write_findings(out, parsed.findings);
  return bytes;
}

std::optional<ParsedMemory> decode_parsed(std::string_view record) {
  Reader in(record, 0, record.size());
  ParsedMemory parsed;
  if (in.u() != 0) {
    parsed.memory = read_memory(in);
  }
  const std::uint64_t secret_count = in.u();
  for (std::uint64_t n = 0; n < secret_count && !in.failed(); ++n) {
    secrets::SecretFinding& secret = parsed.secrets.emplace_back();
    secret.line = static_cast<int>(in.i());
    secret.kind = in.str();
  }
  parsed.findings = read_findings(in);
  if (in.failed() || in.at() != record.size()) {
    return std::nullopt;
  }
  return parsed;
}

// What find_row() needs of a record written by encode_parsed, as views into it: the fields
// read_memory reads, in the same order, skipping those the index checks do not use.
std::optional<PersistentParseCache::Row> decode_row(std::string_view record) {
  Reader in(record, 0, record.size());
  PersistentParseCache::Row out;
  if (in.u() != 0) {
    IndexRow row;
    row.id = in.view();
    row.path = in.view();
    (void)in.view();  // blob id
    row.title = in.view();
    row.created.days = in.i();
    (void)in.i();       // modified
    in.skip_strings();  // tags
    row.topic = in.view();
    in.skip_strings();  // keywords
    (void)in.view();    // summary
    (void)in.view();    // source
    row.category = in.view();
    (void)in.i();     // retrieval_count
    (void)in.date();  // last_retrieved
    row.tombstoned = in.u() != 0;
    (void)in.date();  // tombstoned_at
    (void)in.view();  // tombstone_reason
    row.token_count = in.i();
    const std::uint64_t links = in.u();
    for (std::uint64_t n = 0; n < links && !in.failed(); ++n) {
      row.links.push_back(in.view());
    }
    const std::uint64_t lines = in.u();
    for (std::uint64_t n = 0; n < lines && !in.failed(); ++n) {
      row.link_lines.push_back(static_cast<int>(in.i()));
    }
    out.row = std::move(row);
  }
  const std::uint64_t secret_count = in.u();
  for (std::uint64_t n = 0; n < secret_count && !in.failed(); ++n) {
    const int line = static_cast<int>(in.i());
    out.secrets.emplace_back(line, in.view());
  }
  out.has_findings = in.u() != 0;
  if (in.failed()) {
    return std::nullopt;
  }
  return out;
}

// Templates so they can take the class's private State type.
template <typename State>
std::vector<State> read_states(Reader& in) {
  std::vector<State> states;
  const std::uint64_t count = in.u();
  for (std::uint64_t n = 0; n < count && !in.failed(); ++n) {
    State state;
    state.digest = in.str();
    state.findings = read_findings(in);
    states.push_back(std::move(state));
  }
  return states;
}

template <typename State>
void write_states(std::string& out, const std::vector<State>& states) {
  Writer writer(out);
  writer.u(states.size());
  for (const State& state : states) {
    writer.str(state.digest);
    write_findings(writer, state.findings);
  }
}

// An entry's key, path '\0' blob id, written into `key` (a buffer reused across lookups).
void assign_key(std::string& key, std::string_view path, std::string_view oid) {
  key.assign(path);
  key += '\0';
  key += oid;
}

std::string key_of(std::string_view path, std::string_view oid) {
  std::string key;
  key.reserve(path.size() + 1 + oid.size());
  assign_key(key, path, oid);
  return key;
}

}  // namespace

fs::path parse_cache_path(const fs::path& common_dir) {
  return common_dir / "git-vault" / "parse-cache";
}

// The bytes of a loaded cache file: mapped read-only when it came from disk (no copy; a cache
// file is only ever replaced by rename or appended to, never truncated in place, so the mapping
// stays valid), or owned when handed over as a string.
struct PersistentParseCache::FileBytes {
  std::string owned;
  void* mapping = nullptr;
  std::size_t mapped_size = 0;

  FileBytes() = default;
  FileBytes(const FileBytes&) = delete;
  FileBytes& operator=(const FileBytes&) = delete;
  ~FileBytes() {
    if (mapping != nullptr) {
      ::munmap(mapping, mapped_size);
    }
  }
  [[nodiscard]] std::string_view view() const {
    return mapping != nullptr ? std::string_view(static_cast<const char*>(mapping), mapped_size)
                              : std::string_view(owned);
  }
};

PersistentParseCache::PersistentParseCache() = default;
PersistentParseCache::PersistentParseCache(PersistentParseCache&&) noexcept = default;
PersistentParseCache& PersistentParseCache::operator=(PersistentParseCache&&) noexcept = default;
PersistentParseCache::~PersistentParseCache() = default;

PersistentParseCache PersistentParseCache::load(const fs::path& file,
                                                std::optional<std::uint64_t> key) {
  const int fd = ::open(file.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    return empty(key);
  }
  auto bytes = std::make_unique<FileBytes>();
  struct ::stat info {};
  if (::fstat(fd, &info) == 0 && info.st_size > 0) {
    // Populated up front: every page is read anyway, and one fault per page costs more.
    void* mapping = ::mmap(nullptr, static_cast<std::size_t>(info.st_size), PROT_READ,
                           MAP_PRIVATE | MAP_POPULATE, fd, 0);
    if (mapping != MAP_FAILED) {
      bytes->mapping = mapping;
      bytes->mapped_size = static_cast<std::size_t>(info.st_size);
    }
  }
  ::close(fd);
  return from_file_bytes(std::move(bytes), key);
}

PersistentParseCache PersistentParseCache::from_bytes(std::string bytes,
                                                      std::optional<std::uint64_t> key) {
  auto owned = std::make_unique<FileBytes>();
  owned->owned = std::move(bytes);
  return from_file_bytes(std::move(owned), key);
}

PersistentParseCache PersistentParseCache::empty(std::optional<std::uint64_t> key) {
  PersistentParseCache cache;
  cache.m_check_set_key = key.value_or(0);
  return cache;
}

PersistentParseCache PersistentParseCache::from_file_bytes(std::unique_ptr<FileBytes> file,
                                                           std::optional<std::uint64_t> key) {
  PersistentParseCache cache = empty(key);
  const std::string_view bytes = file->view();
  if (bytes.size() < k_cache_header_size || bytes.substr(0, 4) != k_cache_magic ||
      cache_codec::get_fixed(bytes, 4, 4) != k_format) {
    return cache;
  }
  // Another check set's findings and parses are never trusted: the cache starts empty and the
  // next save replaces the file.
  const std::uint64_t file_key = cache_codec::get_fixed(bytes, 8, 8);
  if (key && *key != file_key) {
    return cache;
  }
  const std::uint64_t body_size = cache_codec::get_fixed(bytes, 16, 8);
  if (body_size > bytes.size() - k_cache_header_size ||
      cache_codec::get_fixed(bytes, 24, 8) !=
          checksum(bytes.substr(k_cache_header_size, body_size))) {
    return cache;
  }
  const std::size_t body_end = k_cache_header_size + body_size;
  Reader in(bytes, k_cache_header_size, body_end);
  cache.m_states = read_states<State>(in);
  if (in.failed()) {
    return empty(key);  // passed the checksum yet malformed: trust none of it
  }
  cache.m_check_set_key = file_key;
  cache.m_entries_offset = in.at();
  cache.m_entries_end = body_end;
  cache.m_file = std::move(file);
  cache.m_bytes = bytes;
  cache.read_journal(body_end);
  return cache;
}

// Journal records after the body, oldest first. A damaged record ends the journal: what follows
// it cannot be found reliably, and the next save compacts.
void PersistentParseCache::read_journal(std::size_t at) {
  const std::string_view bytes = m_bytes;
  while (at < bytes.size()) {
    if (bytes.size() - at < k_journal_header_size || bytes.substr(at, 4) != k_journal_magic) {
      break;
    }
    const std::uint64_t size = cache_codec::get_fixed(bytes, at + 4, 8);
    const std::size_t body_at = at + k_journal_header_size;
    if (size > bytes.size() - body_at ||
        cache_codec::get_fixed(bytes, at + 12, 8) != checksum(bytes.substr(body_at, size))) {
      break;
    }
    Reader record(bytes, body_at, body_at + size);
    std::optional<std::vector<State>> states;
    if (record.u() != 0) {
      states = read_states<State>(record);
    }
    std::vector<std::pair<std::string, Stored>> entries;
    const std::uint64_t count = record.u();
    for (std::uint64_t n = 0; n < count && !record.failed(); ++n) {
      std::pair<std::string, Stored> entry;
      entry.first = record.str();
      entry.second.record = record.str();
      if (std::string fragment = record.str(); !fragment.empty()) {
        entry.second.fragment = std::move(fragment);
      }
      entry.second.in_file = true;
      entries.push_back(std::move(entry));
    }
    if (record.failed() || record.at() != body_at + size) {
      break;
    }
    if (states) {
      m_states = std::move(*states);
    }
    for (auto& [key, stored] : entries) {
      m_stored.insert_or_assign(std::move(key), std::move(stored));
    }
    at = body_at + size;
  }
  m_file_size = at;
  m_journal_size = at - m_entries_end;
  m_journal_damaged = at != bytes.size();
}

// The entry table is indexed on first use: a run answered from a remembered state never needs
// it. Indexing makes views, never copies, so it costs little more than reading the file.
void PersistentParseCache::index_entries() const {
  if (m_indexed) {
    return;
  }
  m_indexed = true;
  if (m_entries_offset == 0) {
    return;  // nothing loaded
  }
  Reader in(m_bytes, m_entries_offset, m_entries_end);
  const std::uint64_t entry_count = in.u();
  m_slots.reserve(entry_count < m_bytes.size() ? entry_count : 0);
  for (std::uint64_t n = 0; n < entry_count && !in.failed(); ++n) {
    Slot slot;
    slot.key = in.view();
    slot.generation = in.u();
    slot.record = in.view();
    slot.fragment = in.view();
    if (!m_slots.empty() && !(m_slots.back().key < slot.key)) {
      break;  // out of order: treated as damage below
    }
    m_generation = std::max(m_generation, slot.generation);
    m_slots.push_back(slot);
  }
  if (in.failed() || m_slots.size() != entry_count || in.at() != m_entries_end) {
    m_slots.clear();  // passed the checksum yet malformed: trust none of it
    m_generation = 0;
  }
  m_used.assign(m_slots.size(), false);
}

std::size_t PersistentParseCache::size() const {
  index_entries();
  std::size_t count = m_stored.size();
  for (const Slot& slot : m_slots) {
    if (!m_stored.contains(slot.key)) {
      ++count;
    }
  }
  return count;
}

std::optional<std::size_t> PersistentParseCache::find_slot(std::string_view key) const {
  index_entries();
  // Callers mostly look keys up in order (a listing is sorted by path), so the slot after the
  // last hit is tried before a binary search.
  for (std::size_t i = m_hint; i < m_slots.size() && i < m_hint + 2; ++i) {
    if (m_slots[i].key == key) {
      m_hint = i + 1;
      return i;
    }
  }
  const auto it =
      std::lower_bound(m_slots.begin(), m_slots.end(), key,
                       [](const Slot& slot, std::string_view k) { return slot.key < k; });
  if (it == m_slots.end() || it->key != key) {
    return std::nullopt;
  }
  m_hint = static_cast<std::size_t>(it - m_slots.begin()) + 1;
  return m_hint - 1;
}

bool PersistentParseCache::lookup(std::string_view key, std::string_view& record,
                                  std::string_view& fragment) const {
  if (const auto it = m_stored.find(key); !m_stored.empty() && it != m_stored.end()) {
    record = it->second.record;
    fragment = it->second.fragment ? std::string_view(*it->second.fragment) : std::string_view();
    return true;
  }
  const std::optional<std::size_t> index = find_slot(key);
  if (!index) {
    return false;
  }
  m_used[*index] = true;
  record = m_slots[*index].record;
  fragment = m_slots[*index].fragment;
  return true;
}

const ParsedMemory* PersistentParseCache::find(std::string_view path,
                                               std::string_view blob_oid) const {
  const std::string key = key_of(path, blob_oid);
  if (const auto it = m_stored.find(key); it != m_stored.end()) {
    if (!it->second.parsed) {
      it->second.parsed = decode_parsed(it->second.record);
    }
    return it->second.parsed ? &*it->second.parsed : nullptr;
  }
  const std::optional<std::size_t> index = find_slot(key);
  if (!index) {
    return nullptr;
  }
  m_used[*index] = true;
  auto it = m_decoded.find(*index);
  if (it == m_decoded.end()) {
    std::optional<ParsedMemory> parsed = decode_parsed(m_slots[*index].record);
    if (!parsed) {
      return nullptr;  // a damaged record is a miss; store() replaces it
    }
    it = m_decoded.emplace(*index, std::move(*parsed)).first;
  }
  return &it->second;
}

std::optional<ParsedMemory> PersistentParseCache::find_value(std::string_view path,
                                                             std::string_view blob_oid) const {
  std::string_view record;
  std::string_view fragment;
  assign_key(m_key, path, blob_oid);
  if (!lookup(m_key, record, fragment)) {
    return std::nullopt;
  }
  return decode_parsed(record);  // a damaged record is a miss, as in find()
}

std::optional<PersistentParseCache::Row> PersistentParseCache::find_row(
    std::string_view path, std::string_view blob_oid) const {
  std::string_view record;
  std::string_view fragment;
  // The key is built in a reused buffer: this runs once per memory on every commit.
  assign_key(m_key, path, blob_oid);
  if (!lookup(m_key, record, fragment)) {
    return std::nullopt;
  }
  std::optional<Row> row = decode_row(record);
  if (row && !fragment.empty()) {
    row->fragment = fragment;
  }
  return row;
}

void PersistentParseCache::store(std::string_view path, std::string_view blob_oid,
                                 ParsedMemory parsed) {
  std::string key = key_of(path, blob_oid);
  Stored stored;
  // Only the encoded record is kept: find() decodes it if it is asked for, and a whole vault
  // stored on a cold run is not held twice.
  stored.record = encode_parsed(parsed);
  // A fragment derives from the same bytes, so one remembered for this key stays true.
  std::string_view record;
  std::string_view fragment;
  if (lookup(key, record, fragment) && !fragment.empty()) {
    stored.fragment = std::string(fragment);
  }
  m_stored.insert_or_assign(std::move(key), std::move(stored));
  m_dirty = true;
}

std::optional<std::string_view> PersistentParseCache::find_fragment(
    std::string_view path, std::string_view blob_oid) const {
  std::string_view record;
  std::string_view fragment;
  if (!lookup(key_of(path, blob_oid), record, fragment) || fragment.empty()) {
    return std::nullopt;
  }
  return fragment;
}

void PersistentParseCache::store_fragment(std::string_view path, std::string_view blob_oid,
                                          std::string fragment) {
  std::string key = key_of(path, blob_oid);
  auto it = m_stored.find(key);
  if (it == m_stored.end()) {
    std::string_view record;
    std::string_view old_fragment;
    if (!lookup(key, record, old_fragment)) {
      return;  // a fragment is only kept beside a parse
    }
    Stored stored;
    stored.record = std::string(record);
    it = m_stored.emplace(std::move(key), std::move(stored)).first;
  }
  it->second.fragment = std::move(fragment);
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
  m_states_dirty = true;
}

std::string PersistentParseCache::to_bytes() const {
  index_entries();
  struct Out {
    std::string_view key;
    std::string_view record;
    std::string_view fragment;
    std::uint64_t generation;
  };
  const std::uint64_t now = m_generation + 1;
  std::vector<Out> kept;
  kept.reserve(m_slots.size() + m_stored.size());
  for (const auto& [key, stored] : m_stored) {
    kept.push_back(
        Out{key, stored.record, stored.fragment ? *stored.fragment : std::string_view(), now});
  }
  // Slots used in this run, then the most recently used others up to the bound.
  std::vector<const Slot*> unused;
  for (std::size_t i = 0; i < m_slots.size(); ++i) {
    const Slot& slot = m_slots[i];
    if (m_stored.contains(slot.key)) {
      continue;
    }
    if (m_used[i]) {
      kept.push_back(Out{slot.key, slot.record, slot.fragment, now});
    } else {
      unused.push_back(&slot);
    }
  }
  const std::size_t keep_unused =
      std::min(unused.size(), std::max(k_min_kept_entries, kept.size()));
  std::stable_sort(unused.begin(), unused.end(),
                   [](const Slot* a, const Slot* b) { return a->generation > b->generation; });
  for (std::size_t i = 0; i < keep_unused; ++i) {
    kept.push_back(
        Out{unused[i]->key, unused[i]->record, unused[i]->fragment, unused[i]->generation});
  }
  std::sort(kept.begin(), kept.end(), [](const Out& a, const Out& b) { return a.key < b.key; });

  std::size_t size = 64;
  for (const Out& entry : kept) {
    size += entry.key.size() + entry.record.size() + entry.fragment.size() + 16;
  }
  std::string body;
  body.reserve(size);
  write_states(body, m_states);
  Writer out(body);
  out.u(kept.size());
  for (const Out& entry : kept) {
    out.str(entry.key);
    out.u(entry.generation);
    out.str(entry.record);
    out.str(entry.fragment);
  }

  std::string bytes;
  bytes.reserve(k_cache_header_size + body.size());
  bytes += k_cache_magic;
  cache_codec::put_fixed(bytes, k_format, 4);
  cache_codec::put_fixed(bytes, m_check_set_key, 8);
  cache_codec::put_fixed(bytes, body.size(), 8);
  cache_codec::put_fixed(bytes, checksum(body), 8);
  bytes += body;
  return bytes;
}

std::string PersistentParseCache::journal_record() const {
  std::string body;
  Writer out(body);
  out.u(m_states_dirty ? 1 : 0);
  if (m_states_dirty) {
    write_states(body, m_states);
  }
  std::size_t count = 0;
  for (const auto& entry : m_stored) {
    count += entry.second.in_file ? 0 : 1;
  }
  out.u(count);
  for (const auto& [key, stored] : m_stored) {
    if (!stored.in_file) {
      out.str(key);
      out.str(stored.record);
      out.str(stored.fragment ? *stored.fragment : std::string_view());
    }
  }
  std::string record;
  record.reserve(k_journal_header_size + body.size());
  record += k_journal_magic;
  cache_codec::put_fixed(record, body.size(), 8);
  cache_codec::put_fixed(record, checksum(body), 8);
  record += body;
  return record;
}

namespace {

bool write_all(int fd, std::string_view bytes) {
  std::size_t written = 0;
  while (written < bytes.size()) {
    const ssize_t n = ::write(fd, bytes.data() + written, bytes.size() - written);
    if (n < 0) {
      if (errno == EINTR) {
        continue;
      }
      return false;
    }
    written += static_cast<std::size_t>(n);
  }
  return true;
}

// Appends to the cache file if it is still there and has the same format and check-set key
// (another run may have compacted it meanwhile: a record is true of any cache file of its key,
// so appending to the new one is as good).
bool append_record(const fs::path& file, std::uint64_t key, std::string_view record) {
  const int fd = ::open(file.c_str(), O_RDWR | O_APPEND | O_CLOEXEC);
  if (fd < 0) {
    return false;
  }
  char header[16];
  const std::string_view head(header, sizeof header);
  if (::pread(fd, header, sizeof header, 0) != static_cast<ssize_t>(sizeof header) ||
      head.substr(0, 4) != k_cache_magic ||
      cache_codec::get_fixed(head, 4, 4) != PersistentParseCache::k_format ||
      cache_codec::get_fixed(head, 8, 8) != key) {
    ::close(fd);
    return false;
  }
  const bool ok = write_all(fd, record);
  return ::close(fd) == 0 && ok;
}

}  // namespace

bool PersistentParseCache::save(const fs::path& file) const {
  if (!m_dirty) {
    return true;
  }
  if (m_file_size > 0 && !m_journal_damaged) {
    const std::string record = journal_record();
    const std::uint64_t limit = std::max(k_min_journal_limit, m_file_size / 8);
    if (m_journal_size + record.size() <= limit && append_record(file, m_check_set_key, record)) {
      return true;
    }
  }
  std::error_code ec;
  fs::create_directories(file.parent_path(), ec);
  if (ec) {
    return false;
  }
  const std::string bytes = to_bytes();
  // A name of our own in the same directory, so rename() replaces the file atomically and two
  // concurrent runs never write into the same temporary.
  const fs::path temp = util::temp_sibling(file);
  const int fd = ::open(temp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) {
    return false;
  }
  bool ok = write_all(fd, bytes);
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
