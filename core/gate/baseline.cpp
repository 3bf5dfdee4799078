#include "core/gate/baseline.hpp"

#include <algorithm>
#include <cstddef>
#include <cstring>
#include <deque>
#include <span>
#include <utility>

#include "core/gate/delta_gate.hpp"
#include "core/util/file.hpp"
#include "core/util/mapped_file.hpp"
#include "core/vault/cache_codec.hpp"

namespace gv {
namespace {

using cache_codec::Reader;
using cache_codec::Writer;
using Entry = git::IndexFile::Entry;

// Layout of `gate-baseline`: "GVGB", format (u32 LE), check-set key (u64 LE), size of the rest
// (u64 LE), checksum of the rest (u64 LE); the rest: the state digest, the vault and generated
// inputs digests, the index version, the entries file it applies to (size, checksum, entry
// count), the journal (its entry count and bytes, then the removed paths), the statuses, the
// dangling targets, the findings, the `.memory` tree id, the working-memory digest and
// findings.
constexpr std::string_view k_magic = "GVGB";
constexpr std::size_t k_header_size = 4 + 4 + 8 + 8 + 8;
// Layout of `gate-baseline.entries`: "GVGE", format (u32 LE), index version (u32 LE), entry
// count (u32 LE), size of the entries (u64 LE), their checksum (u64 LE); then the entries.
constexpr std::string_view k_entries_magic = "GVGE";
constexpr std::size_t k_entries_header_size = 4 + 4 + 4 + 4 + 8 + 8;
// The journal is folded into a new entries file once it would pass this share of it (or a
// kilobyte, for small vaults): a commit then writes its changes and the findings, and every so
// many commits the whole entries once.
constexpr std::uint64_t k_journal_share = 8;
constexpr std::uint64_t k_journal_floor = 1024;

std::filesystem::path entries_path(const std::filesystem::path& file) {
  std::filesystem::path out = file;
  out += ".entries";
  return out;
}

// One path of a journal: its entry's bytes, or removed.
struct JournalItem {
  std::string_view path;
  std::string_view entry_bytes;  // empty: removed
};

}  // namespace

struct GateBaseline::Mapping {
  util::MappedFile file;
};

struct GateBaseline::Entries {
  std::optional<util::MappedFile> file;
  std::string_view base;  // the entries file's entries: committed files, in path order
  std::optional<git::IndexFile> journal;
  bool ok = false;
  // differences(), once asked.
  bool compared = false;
  std::deque<Entry> changed_base;  // the entries file's entries that differ, parsed
  std::vector<Difference> differences;
  std::vector<std::string_view> removed_from_base;  // paths no longer committed, sorted
  // committed_entries(), once asked.
  std::vector<Entry> base_parsed;
  std::optional<std::vector<const Entry*>> committed;
};

GateBaseline::GateBaseline() = default;
GateBaseline::GateBaseline(GateBaseline&&) noexcept = default;
GateBaseline& GateBaseline::operator=(GateBaseline&&) noexcept = default;
GateBaseline::~GateBaseline() = default;

std::optional<GateBaseline> GateBaseline::load(const std::filesystem::path& file,
                                               std::uint64_t check_set_key) {
  std::optional<util::MappedFile> mapped =
      util::MappedFile::open(file, util::MappedFile::Pages::populate);
  if (!mapped) {
    return std::nullopt;
  }
  const std::string_view bytes = mapped->view();
  if (bytes.size() < k_header_size || bytes.substr(0, 4) != k_magic ||
      cache_codec::get_fixed(bytes, 4, 4) != k_format ||
      cache_codec::get_fixed(bytes, 8, 8) != check_set_key) {
    return std::nullopt;
  }
  const std::uint64_t size = cache_codec::get_fixed(bytes, 16, 8);
  if (size != bytes.size() - k_header_size ||
      cache_codec::get_fixed(bytes, 24, 8) != cache_codec::checksum(bytes.substr(k_header_size))) {
    return std::nullopt;
  }
  GateBaseline baseline;
  baseline.m_mapping = std::make_unique<Mapping>(Mapping{std::move(*mapped)});
  baseline.m_entries_file = entries_path(file);
  const std::string_view rest = baseline.m_mapping->file.view();
  Reader in(rest, k_header_size, rest.size());
  baseline.m_state = in.str();
  baseline.m_vault_digest = in.str();
  baseline.m_generated_inputs = in.str();
  baseline.m_index_version = static_cast<std::uint32_t>(in.u());
  baseline.m_entries_ref.size = in.u();
  baseline.m_entries_ref.checksum = in.u();
  baseline.m_entries_ref.count = static_cast<std::uint32_t>(in.u());
  baseline.m_journal_count = static_cast<std::uint32_t>(in.u());
  baseline.m_journal_bytes = in.view();
  const std::uint64_t removed = in.u();
  for (std::uint64_t n = 0; n < removed && !in.failed(); ++n) {
    baseline.m_journal_removed.push_back(in.view());
  }
  const std::uint64_t statuses = in.u();
  for (std::uint64_t n = 0; n < statuses && !in.failed(); ++n) {
    Status status;
    status.path = in.str();
    const std::uint64_t value = in.u();
    status.status = value == 1 ? MemoryStatus::tombstoned : MemoryStatus::unreadable;
    baseline.m_not_active.push_back(std::move(status));
  }
  const std::uint64_t dangling = in.u();
  for (std::uint64_t n = 0; n < dangling && !in.failed(); ++n) {
    DanglingTarget target;
    target.source = in.str();
    target.stem = in.str();
    baseline.m_dangling.push_back(std::move(target));
  }
  baseline.m_findings = cache_codec::read_findings(in);
  baseline.m_memory_tree = in.str();
  baseline.m_working_state = in.str();
  baseline.m_working_findings = cache_codec::read_findings(in);
  if (in.failed() || in.at() != rest.size()) {
    return std::nullopt;
  }
  if (!std::is_sorted(baseline.m_not_active.begin(), baseline.m_not_active.end(),
                      [](const Status& a, const Status& b) { return a.path < b.path; }) ||
      !std::is_sorted(baseline.m_journal_removed.begin(), baseline.m_journal_removed.end())) {
    return std::nullopt;
  }
  return baseline;
}

GateBaseline::Entries* GateBaseline::open_entries() const {
  if (m_entries) {
    return m_entries->ok ? m_entries.get() : nullptr;
  }
  m_entries = std::make_unique<Entries>();
  Entries& out = *m_entries;
  out.file = util::MappedFile::open(m_entries_file, util::MappedFile::Pages::copy);
  if (!out.file) {
    return nullptr;
  }
  const std::string_view bytes = out.file->view();
  if (bytes.size() < k_entries_header_size || bytes.substr(0, 4) != k_entries_magic ||
      cache_codec::get_fixed(bytes, 4, 4) != k_format ||
      cache_codec::get_fixed(bytes, 8, 4) != m_index_version ||
      cache_codec::get_fixed(bytes, 12, 4) != m_entries_ref.count ||
      cache_codec::get_fixed(bytes, 16, 8) != m_entries_ref.size ||
      cache_codec::get_fixed(bytes, 24, 8) != m_entries_ref.checksum ||
      bytes.size() - k_entries_header_size != m_entries_ref.size) {
    return nullptr;
  }
  // The checksum recorded in the header, not one computed again: the file is 13 MB at 100,000
  // memories and a commit's gate cannot afford to hash it (doc/performance.md). The recorded
  // one tells this entries file from another. Damage inside it is caught all the same: a
  // damaged entry no longer equals the staged one, so differences() lists its path and the
  // delta gate reads that file again; entries that no longer parse make differences() give up.
  out.base = bytes.substr(k_entries_header_size);
  out.journal = git::IndexFile::view_entries(m_journal_bytes, m_index_version, m_journal_count);
  if (!out.journal) {
    return nullptr;
  }
  // A journal written by this code holds committed files only, each path once, none removed.
  const std::span<const Entry> journal = out.journal->entries();
  for (std::size_t i = 0; i < journal.size(); ++i) {
    if (!journal[i].is_committed_file() ||
        (i > 0 && !(journal[i - 1].path() < journal[i].path())) ||
        std::binary_search(m_journal_removed.begin(), m_journal_removed.end(), journal[i].path())) {
      return nullptr;
    }
  }
  out.ok = true;
  return &out;
}

namespace {

// The journal's paths in order, each with its entry (null: removed).
std::vector<std::pair<std::string_view, const Entry*>> journal_items(
    std::span<const Entry> entries, const std::vector<std::string_view>& removed) {
  std::vector<std::pair<std::string_view, const Entry*>> items;
  items.reserve(entries.size() + removed.size());
  std::size_t e = 0;
  for (const std::string_view path : removed) {
    for (; e < entries.size() && entries[e].path() < path; ++e) {
      items.emplace_back(entries[e].path(), &entries[e]);
    }
    items.emplace_back(path, nullptr);
  }
  for (; e < entries.size(); ++e) {
    items.emplace_back(entries[e].path(), &entries[e]);
  }
  return items;
}

bool same_blob(const Entry* a, const Entry* b) {
  return std::equal(a->oid(), a->oid() + 20, b->oid());
}

// How many leading bytes of `a` and `b` (each `size` long) are equal: a block compare at memory
// speed, and a byte walk only inside the block that differs.
std::size_t equal_prefix(const char* a, const char* b, std::size_t size) {
  constexpr std::size_t k_block = 4096;
  std::size_t at = 0;
  while (at + k_block <= size && std::memcmp(a + at, b + at, k_block) == 0) {
    at += k_block;
  }
  while (at < size && a[at] == b[at]) {
    ++at;
  }
  return at;
}

}  // namespace

const std::vector<GateBaseline::Difference>* GateBaseline::differences(
    const std::vector<const Entry*>& staged, std::uint32_t version,
    std::string_view staged_bytes) const {
  Entries* entries = open_entries();
  if (entries == nullptr || version != m_index_version) {
    return nullptr;
  }
  if (entries->compared) {
    return &entries->differences;
  }
  // The entries file against the staged entries, in step. An entry git did not touch keeps its
  // bytes (stat data, id, flags, path), so equal bytes settle most entries without a parse.
  std::vector<Difference> from_base;
  const std::string_view base = entries->base;
  std::size_t at = 0;
  std::size_t k = 0;
  const auto base_entry = [&]() -> std::optional<git::IndexFile::RawEntry> {
    return git::IndexFile::read_entry(base.substr(at), version);
  };
  // With the staged entries back to back in `staged_bytes`, a run of equal entries is one
  // block compare: every entry that ends before the first differing byte is equal, and the
  // entry holding that byte starts at the same offset on both sides.
  const bool back_to_back =
      !staged_bytes.empty() && !staged.empty() && staged.front()->start == staged_bytes.data();
  const char* const staged_end = staged_bytes.data() + staged_bytes.size();
  while (at < base.size() || k < staged.size()) {
    if (back_to_back && at < base.size() && k < staged.size()) {
      const char* from = staged[k]->start;
      const std::size_t equal =
          equal_prefix(base.data() + at, from,
                       std::min(base.size() - at, static_cast<std::size_t>(staged_end - from)));
      const auto holding = std::upper_bound(
          staged.begin() + static_cast<std::ptrdiff_t>(k), staged.end(), from + equal,
          [](const char* byte, const Entry* entry) { return byte < entry->start; });
      const std::size_t j = static_cast<std::size_t>(holding - staged.begin()) - 1;
      at += static_cast<std::size_t>(staged[j]->start - from);
      k = j;
    }
    std::optional<git::IndexFile::RawEntry> raw;
    if (at < base.size()) {
      raw = base_entry();
      if (!raw) {
        return nullptr;
      }
    }
    if (raw && k < staged.size()) {
      const Entry& now = *staged[k];
      const std::size_t size = raw->size;
      // Equal path lengths first: then the staged entry is at least `size` bytes but for the
      // extended flags' two, and git's index ends with a 20-byte checksum, so the comparison
      // stays inside the staged index's bytes.
      if (now.path_size == raw->entry.path_size &&
          std::memcmp(raw->entry.start, now.start, size) == 0) {
        at += size;
        ++k;
        continue;
      }
    }
    const bool take_base = raw && (k == staged.size() || raw->entry.path() <= staged[k]->path());
    const bool take_staged = k < staged.size() && (!raw || staged[k]->path() <= raw->entry.path());
    const Entry* before = nullptr;
    if (take_base) {
      before = &entries->changed_base.emplace_back(raw->entry);
      at += raw->size;
    }
    const Entry* after = take_staged ? staged[k++] : nullptr;
    if (before == nullptr || after == nullptr || !same_blob(before, after)) {
      from_base.push_back({(before != nullptr ? before : after)->path(), before, after});
      if (after == nullptr) {
        entries->removed_from_base.push_back(before->path());
      }
    }
  }
  // The journal: its paths stand as it says, whatever the entries file holds.
  const auto items = journal_items(entries->journal->entries(), m_journal_removed);
  std::vector<Difference>& out = entries->differences;
  out.reserve(from_base.size() + items.size());
  std::size_t d = 0;
  for (const auto& [path, before] : items) {
    for (; d < from_base.size() && from_base[d].path < path; ++d) {
      out.push_back(from_base[d]);
    }
    if (d < from_base.size() && from_base[d].path == path) {
      ++d;
    }
    const Entry* after = find_vault_entry(staged, path);
    if ((before == nullptr) != (after == nullptr) ||
        (before != nullptr && !same_blob(before, after))) {
      out.push_back({path, before, after});
    }
  }
  out.insert(out.end(), from_base.begin() + static_cast<std::ptrdiff_t>(d), from_base.end());
  entries->compared = true;
  return &out;
}

const std::vector<const Entry*>* GateBaseline::committed_entries() const {
  Entries* entries = open_entries();
  if (entries == nullptr) {
    return nullptr;
  }
  if (entries->committed) {
    return &*entries->committed;
  }
  std::vector<Entry>& base = entries->base_parsed;
  for (std::size_t at = 0; at < entries->base.size();) {
    const auto raw = git::IndexFile::read_entry(entries->base.substr(at), m_index_version);
    if (!raw) {
      base.clear();
      return nullptr;
    }
    base.push_back(raw->entry);
    at += raw->size;
  }
  // The journal's entries replace the entries file's of the same path, its removed paths drop
  // theirs; all are in path order, so one merge applies them.
  std::vector<const Entry*>& out = entries->committed.emplace();
  const auto items = journal_items(entries->journal->entries(), m_journal_removed);
  std::size_t j = 0;
  for (const Entry& entry : base) {
    for (; j < items.size() && items[j].first < entry.path(); ++j) {
      if (items[j].second != nullptr) {
        out.push_back(items[j].second);
      }
    }
    if (j < items.size() && items[j].first == entry.path()) {
      if (items[j].second != nullptr) {
        out.push_back(items[j].second);
      }
      ++j;
      continue;
    }
    out.push_back(&entry);
  }
  for (; j < items.size(); ++j) {
    if (items[j].second != nullptr) {
      out.push_back(items[j].second);
    }
  }
  return &out;
}

namespace {

// The previous baseline's journal with `changes` applied: a changed path takes its new entry's
// bytes; one no longer committed is listed as removed when the entries file has it, and
// dropped otherwise. In path order.
std::vector<JournalItem> next_journal(const std::vector<JournalItem>& prior,
                                      const std::vector<GateBaseline::Change>& changes,
                                      const std::vector<std::string_view>& removed_from_base) {
  std::vector<JournalItem> out;
  out.reserve(prior.size() + changes.size());
  std::size_t p = 0;
  for (const GateBaseline::Change& change : changes) {
    for (; p < prior.size() && prior[p].path < change.path; ++p) {
      out.push_back(prior[p]);
    }
    if (p < prior.size() && prior[p].path == change.path) {
      ++p;
    }
    if (!change.entry_bytes.empty() ||
        std::binary_search(removed_from_base.begin(), removed_from_base.end(), change.path)) {
      out.push_back({change.path, change.entry_bytes});
    }
  }
  out.insert(out.end(), prior.begin() + static_cast<std::ptrdiff_t>(p), prior.end());
  return out;
}

// The committed files of a `.memory/` range, each entry's bytes as the index holds them.
std::optional<std::string> committed_bytes(std::string_view range, std::uint32_t version,
                                           std::uint32_t& count) {
  std::string out;
  out.reserve(range.size());
  count = 0;
  for (std::size_t at = 0; at < range.size();) {
    const auto raw = git::IndexFile::read_entry(range.substr(at), version);
    if (!raw) {
      return std::nullopt;
    }
    if (raw->entry.is_committed_file()) {
      out.append(range.substr(at, raw->size));
      ++count;
    }
    at += raw->size;
  }
  return out;
}

}  // namespace

bool GateBaseline::save(const std::filesystem::path& file, const Contents& contents) {
  // The journal to write: the previous one with this state's changes, when it still applies to
  // the same entries file and stays small beside it.
  std::optional<std::vector<JournalItem>> journal;
  EntriesRef ref;
  if (const GateBaseline* previous = contents.previous;
      previous != nullptr && previous->m_index_version == contents.index_version) {
    ref = previous->m_entries_ref;
    const Entries* entries = previous->open_entries();
    // Changes are applied knowing which paths the entries file has (differences() found them).
    if (entries != nullptr && (contents.changes.empty() || entries->compared)) {
      std::vector<JournalItem> prior;
      const git::IndexFile& kept = *entries->journal;
      for (const auto& [path, entry] : journal_items(kept.entries(), previous->m_journal_removed)) {
        std::string_view bytes;
        if (entry != nullptr) {
          bytes = kept.entry_bytes(std::span<const Entry>(entry, 1)).value_or(std::string_view());
        }
        prior.push_back({path, bytes});
      }
      journal = next_journal(prior, contents.changes, entries->removed_from_base);
      std::uint64_t journal_size = 0;
      for (const JournalItem& item : *journal) {
        journal_size += item.path.size() + item.entry_bytes.size();
      }
      if (journal_size > std::max(ref.size / k_journal_share, k_journal_floor)) {
        journal.reset();
      }
    }
  }
  if (!journal) {
    // Every committed entry, written whole; the journal starts empty.
    std::uint32_t count = 0;
    const std::optional<std::string> base =
        committed_bytes(contents.entry_bytes, contents.index_version, count);
    if (!base) {
      return false;
    }
    ref.size = base->size();
    ref.checksum = cache_codec::checksum(*base);
    ref.count = count;
    std::string header(k_entries_magic);
    cache_codec::put_fixed(header, k_format, 4);
    cache_codec::put_fixed(header, contents.index_version, 4);
    cache_codec::put_fixed(header, ref.count, 4);
    cache_codec::put_fixed(header, ref.size, 8);
    cache_codec::put_fixed(header, ref.checksum, 8);
    const std::string_view pieces[] = {header, *base};
    if (!util::write_cache_file(entries_path(file), pieces)) {
      return false;
    }
    journal.emplace();
  }
  std::string body;
  Writer out(body);
  out.str(contents.state);
  out.str(contents.vault_digest);
  out.str(contents.generated_inputs);
  out.u(contents.index_version);
  out.u(ref.size);
  out.u(ref.checksum);
  out.u(ref.count);
  std::size_t journal_count = 0;
  std::size_t journal_bytes = 0;
  std::size_t removed = 0;
  for (const JournalItem& item : *journal) {
    if (item.entry_bytes.empty()) {
      ++removed;
    } else {
      ++journal_count;
      journal_bytes += item.entry_bytes.size();
    }
  }
  out.u(journal_count);
  out.u(journal_bytes);
  for (const JournalItem& item : *journal) {
    body += item.entry_bytes;
  }
  out.u(removed);
  for (const JournalItem& item : *journal) {
    if (item.entry_bytes.empty()) {
      out.str(item.path);
    }
  }
  out.u(contents.not_active.size());
  for (const Status& status : contents.not_active) {
    out.str(status.path);
    out.u(status.status == MemoryStatus::tombstoned ? 1 : 2);
  }
  out.u(contents.dangling.size());
  for (const DanglingTarget& target : contents.dangling) {
    out.str(target.source);
    out.str(target.stem);
  }
  cache_codec::write_findings(out, contents.findings);
  out.str(contents.memory_tree);
  out.str(contents.working_state);
  cache_codec::write_findings(out, contents.working_findings);

  std::string header(k_magic);
  cache_codec::put_fixed(header, k_format, 4);
  cache_codec::put_fixed(header, contents.check_set_key, 8);
  cache_codec::put_fixed(header, body.size(), 8);
  cache_codec::put_fixed(header, cache_codec::checksum(body), 8);
  const std::string_view pieces[] = {header, body};
  return util::write_cache_file(file, pieces);
}

MemoryStatus GateBaseline::status(std::string_view path) const {
  const auto it = std::lower_bound(
      m_not_active.begin(), m_not_active.end(), path,
      [](const Status& status, std::string_view key) { return status.path < key; });
  return it != m_not_active.end() && it->path == path ? it->status : MemoryStatus::active;
}

std::filesystem::path gate_baseline_path(const std::filesystem::path& common_dir) {
  return common_dir / "git-vault" / "gate-baseline";
}

}  // namespace gv
