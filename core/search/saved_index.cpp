#include "core/search/saved_index.hpp"

#include <algorithm>
#include <cstring>
#include <functional>

#include "core/error.hpp"

namespace gv::search {
namespace {

// Bumped whenever the layout, parse_memory's output or the terms' rules change, so a newer
// binary never trusts what an older one saved.
constexpr std::string_view k_magic = "git-vault search-cache 5\n";
constexpr std::size_t k_header_at = 32;  // the magic, padded with zero bytes
// Counts (5 x u64), total field lengths (5 x u64), the memory folder's stamp (5 x u64).
constexpr std::size_t k_folder_at = k_header_at + 10 * 8;
constexpr std::size_t k_data_at = k_folder_at + 5 * 8;

// Fixed-size records, so the n-th is found by arithmetic. Offsets into each:
constexpr std::size_t k_memory_size = 96;  // path(off u64, len u32), meta len u32, meta off u64,
                                           // stamp @24, lengths @64 (u32 x 5), count @88
constexpr std::size_t k_skip_size = 56;    // path(off u64, len u32), unreadable u32, stamp @16
constexpr std::size_t k_term_size = 32;    // term(off u64, len u32), postings u32, first u64,
                                           // documents u32 (and 4 bytes unused)
constexpr std::size_t k_stamp_size = 40;
static_assert(k_skip_size == 16 + k_stamp_size, "a skip record ends with its stamp");

class Out {
 public:
  void u64(std::uint64_t value) { append(&value, 8); }
  void u32(std::uint32_t value) { append(&value, 4); }
  void u16(std::uint16_t value) { append(&value, 2); }
  void bytes(std::string_view text) { m_out.append(text); }
  void stamp(const SavedStamp& stamp) {
    u64(stamp.inode);
    u64(static_cast<std::uint64_t>(stamp.size));
    u64(static_cast<std::uint64_t>(stamp.mtime_ns));
    u64(static_cast<std::uint64_t>(stamp.ctime_ns));
    u64(static_cast<std::uint64_t>(stamp.listed_ns));
  }
  [[nodiscard]] std::size_t size() const { return m_out.size(); }
  std::string take() { return std::move(m_out); }

 private:
  void append(const void* value, std::size_t size) {
    m_out.append(static_cast<const char*>(value), size);
  }
  std::string m_out;
};

// The strings section: each text once per call, at the offset returned.
class Strings {
 public:
  std::uint64_t add(std::string_view text) {
    const std::uint64_t at = m_bytes.size();
    m_bytes.append(text);
    return at;
  }
  [[nodiscard]] const std::string& bytes() const { return m_bytes; }

 private:
  std::string m_bytes;
};

void put_text(std::string& out, std::string_view text) {
  const auto size = static_cast<std::uint32_t>(text.size());
  out.append(reinterpret_cast<const char*>(&size), 4);
  out.append(text);
}

// Reads what put_text wrote; a short blob sets `failed`.
class MetaReader {
 public:
  explicit MetaReader(std::string_view bytes) : m_bytes(bytes) {}
  std::uint32_t count() {
    std::uint32_t value = 0;
    if (m_bytes.size() - m_at < 4) {
      m_at = m_bytes.size();
      return 0;
    }
    std::memcpy(&value, m_bytes.data() + m_at, 4);
    m_at += 4;
    return value;
  }
  std::string text() {
    const std::uint32_t size = count();
    if (size > m_bytes.size() - m_at) {
      m_at = m_bytes.size();
      return {};
    }
    std::string out(m_bytes.substr(m_at, size));
    m_at += size;
    return out;
  }

 private:
  std::string_view m_bytes;
  std::size_t m_at = 0;
};

}  // namespace

std::string write_saved_index(const std::vector<SavedMemory>& memories, const InvertedIndex& index,
                              const std::vector<SavedSkip>& skipped, const SavedStamp& folder) {
  if (index.size() != memories.size() || index.dead() != 0) {
    throw Error("internal error: the search index does not match its memories");
  }
  const auto terms = index.sorted_terms();
  std::size_t posting_count = 0;
  for (const auto& [term, postings] : terms) {
    posting_count += postings.size();
  }
  Strings strings;
  Out out;
  std::string magic(k_magic);
  magic.resize(k_header_at, '\0');
  out.bytes(magic);
  out.u64(memories.size());
  out.u64(skipped.size());
  out.u64(terms.size());
  out.u64(posting_count);
  // The strings section's size goes here once known: patched below.
  const std::size_t strings_size_at = out.size();
  out.u64(0);
  for (const double total : index.total_length()) {
    out.u64(static_cast<std::uint64_t>(total));
  }
  out.stamp(folder);
  for (std::size_t d = 0; d < memories.size(); ++d) {
    const SavedMemory& memory = memories[d];
    std::string meta;
    put_text(meta, memory.blob_oid);
    put_text(meta, memory.title);
    put_text(meta, memory.summary);
    put_text(meta, memory.topic);
    const auto keyword_count = static_cast<std::uint32_t>(memory.keywords.size());
    meta.append(reinterpret_cast<const char*>(&keyword_count), 4);
    for (const std::string& keyword : memory.keywords) {
      put_text(meta, keyword);
    }
    out.u64(strings.add(memory.path));
    out.u32(static_cast<std::uint32_t>(memory.path.size()));
    out.u32(static_cast<std::uint32_t>(meta.size()));
    out.u64(strings.add(meta));
    out.stamp(memory.stamp);
    for (const std::uint32_t length : index.lengths(static_cast<std::uint32_t>(d))) {
      out.u32(length);
    }
    out.u32(0);
    out.u64(static_cast<std::uint64_t>(memory.retrieval_count));
  }
  for (const SavedSkip& skip : skipped) {
    out.u64(strings.add(skip.path));
    out.u32(static_cast<std::uint32_t>(skip.path.size()));
    out.u32(skip.unreadable ? 1U : 0U);
    out.stamp(skip.stamp);
  }
  std::uint64_t first = 0;
  for (const auto& [term, postings] : terms) {
    out.u64(strings.add(term));
    out.u32(static_cast<std::uint32_t>(term.size()));
    out.u32(static_cast<std::uint32_t>(postings.size()));
    out.u64(first);
    // Saved, so that weighing a term (expansion reads hundreds) copies none of its postings.
    out.u32(static_cast<std::uint32_t>(count_documents(postings)));
    out.u32(0);
    first += postings.size();
  }
  for (const auto& [term, postings] : terms) {
    for (const Posting& posting : postings) {
      out.u32(posting.document);
      out.u16(posting.field);
      out.u16(posting.count);
    }
  }
  out.bytes(strings.bytes());
  std::string bytes = out.take();
  const std::uint64_t strings_size = strings.bytes().size();
  std::memcpy(bytes.data() + strings_size_at, &strings_size, 8);
  return bytes;
}

std::uint64_t SavedIndex::u64(std::size_t at) const {
  std::uint64_t value = 0;
  std::memcpy(&value, m_bytes.data() + at, 8);
  return value;
}

std::uint32_t SavedIndex::u32(std::size_t at) const {
  std::uint32_t value = 0;
  std::memcpy(&value, m_bytes.data() + at, 4);
  return value;
}

std::string_view SavedIndex::text(std::size_t at) const {
  const std::uint64_t offset = u64(at);
  const std::uint32_t size = u32(at + 8);
  if (offset > m_strings_size || size > m_strings_size - offset) {
    return {};
  }
  return m_bytes.substr(m_strings_at + offset, size);
}

SavedStamp SavedIndex::stamp_at(std::size_t at) const {
  SavedStamp stamp;
  stamp.inode = u64(at);
  stamp.size = static_cast<std::int64_t>(u64(at + 8));
  stamp.mtime_ns = static_cast<std::int64_t>(u64(at + 16));
  stamp.ctime_ns = static_cast<std::int64_t>(u64(at + 24));
  stamp.listed_ns = static_cast<std::int64_t>(u64(at + 32));
  return stamp;
}

std::optional<SavedIndex> SavedIndex::open(std::string_view bytes) {
  if (bytes.size() < k_data_at || !bytes.starts_with(k_magic)) {
    return std::nullopt;
  }
  SavedIndex index(bytes);
  const std::uint64_t memories = index.u64(k_header_at);
  const std::uint64_t skipped = index.u64(k_header_at + 8);
  const std::uint64_t terms = index.u64(k_header_at + 16);
  const std::uint64_t postings = index.u64(k_header_at + 24);
  const std::uint64_t strings = index.u64(k_header_at + 32);
  // Every count is bounded by the file's size before any product is formed.
  const std::uint64_t size = bytes.size();
  if (memories > size / k_memory_size || skipped > size / k_skip_size ||
      terms > size / k_term_size || postings > size / 8 || strings > size) {
    return std::nullopt;
  }
  index.m_memories = memories;
  index.m_skipped = skipped;
  index.m_terms = terms;
  index.m_postings = postings;
  index.m_memories_at = k_data_at;
  index.m_skipped_at = index.m_memories_at + memories * k_memory_size;
  index.m_terms_at = index.m_skipped_at + skipped * k_skip_size;
  index.m_postings_at = index.m_terms_at + terms * k_term_size;
  index.m_strings_at = index.m_postings_at + postings * 8;
  index.m_strings_size = strings;
  if (index.m_strings_at > size || size - index.m_strings_at != strings) {
    return std::nullopt;
  }
  for (std::size_t f = 0; f < k_field_count; ++f) {
    index.m_total_length[f] = static_cast<double>(index.u64(k_header_at + 40 + 8 * f));
  }
  index.m_folder = index.stamp_at(k_folder_at);
  index.m_lengths.reserve(memories * k_field_count);
  for (std::size_t d = 0; d < memories; ++d) {
    for (std::size_t f = 0; f < k_field_count; ++f) {
      index.m_lengths.push_back(index.u32(index.m_memories_at + d * k_memory_size + 64 + 4 * f));
    }
  }
  return index;
}

std::string_view SavedIndex::memory_path(std::uint32_t document) const {
  return text(m_memories_at + document * k_memory_size);
}

SavedStamp SavedIndex::memory_stamp(std::uint32_t document) const {
  return stamp_at(m_memories_at + document * k_memory_size + 24);
}

std::int64_t SavedIndex::retrieval_count(std::uint32_t document) const {
  return static_cast<std::int64_t>(u64(m_memories_at + document * k_memory_size + 88));
}

std::string_view SavedIndex::skipped_path(std::uint32_t skipped) const {
  return text(m_skipped_at + skipped * k_skip_size);
}

bool SavedIndex::skipped_unreadable(std::uint32_t skipped) const {
  return u32(m_skipped_at + skipped * k_skip_size + 12) != 0;
}

SavedStamp SavedIndex::skipped_stamp(std::uint32_t skipped) const {
  return stamp_at(m_skipped_at + skipped * k_skip_size + 16);
}

SavedMemory SavedIndex::memory(std::uint32_t document) const {
  const std::size_t at = m_memories_at + document * k_memory_size;
  SavedMemory memory;
  memory.path = std::string(memory_path(document));
  memory.stamp = memory_stamp(document);
  memory.retrieval_count = retrieval_count(document);
  for (std::size_t f = 0; f < k_field_count; ++f) {
    memory.lengths[f] = m_lengths[document * k_field_count + f];
  }
  const std::uint64_t meta_at = u64(at + 16);
  const std::uint32_t meta_size = u32(at + 12);
  if (meta_at > m_strings_size || meta_size > m_strings_size - meta_at) {
    return memory;
  }
  MetaReader meta(m_bytes.substr(m_strings_at + meta_at, meta_size));
  memory.blob_oid = meta.text();
  memory.title = meta.text();
  memory.summary = meta.text();
  memory.topic = meta.text();
  const std::uint32_t keywords = meta.count();
  for (std::uint32_t k = 0; k < keywords && k < meta_size; ++k) {
    memory.keywords.push_back(meta.text());
  }
  return memory;
}

std::optional<std::uint32_t> SavedIndex::find_memory(std::string_view path) const {
  std::size_t low = 0;
  std::size_t high = m_memories;
  while (low < high) {
    const std::size_t mid = low + (high - low) / 2;
    const std::string_view at = memory_path(static_cast<std::uint32_t>(mid));
    if (at == path) {
      return static_cast<std::uint32_t>(mid);
    }
    (at < path ? low = mid + 1 : high = mid);
  }
  return std::nullopt;
}

std::optional<std::uint32_t> SavedIndex::find_skipped(std::string_view path) const {
  std::size_t low = 0;
  std::size_t high = m_skipped;
  while (low < high) {
    const std::size_t mid = low + (high - low) / 2;
    const std::string_view at = skipped_path(static_cast<std::uint32_t>(mid));
    if (at == path) {
      return static_cast<std::uint32_t>(mid);
    }
    (at < path ? low = mid + 1 : high = mid);
  }
  return std::nullopt;
}

std::optional<std::uint32_t> SavedIndex::find_term(std::string_view term) const {
  std::size_t low = 0;
  std::size_t high = m_terms;
  while (low < high) {
    const std::size_t mid = low + (high - low) / 2;
    const std::string_view at = text(m_terms_at + mid * k_term_size);
    if (at == term) {
      return static_cast<std::uint32_t>(mid);
    }
    (at < term ? low = mid + 1 : high = mid);
  }
  return std::nullopt;
}

std::vector<Posting> SavedIndex::postings(std::uint32_t term) const {
  const std::size_t at = m_terms_at + term * k_term_size;
  const std::uint32_t count = u32(at + 12);
  const std::uint64_t first = u64(at + 16);
  std::vector<Posting> out;
  if (first > m_postings || count > m_postings - first) {
    return out;
  }
  out.resize(count);
  std::memcpy(out.data(), m_bytes.data() + m_postings_at + first * 8,
              static_cast<std::size_t>(count) * 8);
  return out;
}

std::size_t SavedIndex::document_frequency(std::string_view term) const {
  const std::optional<std::uint32_t> id = find_term(term);
  return id ? std::min<std::size_t>(u32(m_terms_at + *id * k_term_size + 24), m_memories) : 0;
}

std::vector<Ranked> SavedIndex::rank(const std::vector<std::string>& terms,
                                     const RankingParams& params,
                                     std::span<const double> weights) const {
  std::vector<std::vector<Posting>> lists;
  return rank_postings(view_of(terms, lists), terms, params, weights);
}

std::vector<Scored> SavedIndex::top(const std::vector<std::string>& terms,
                                    const RankingParams& params, std::size_t k,
                                    std::vector<double>& scratch) const {
  std::vector<std::vector<Posting>> lists;
  return top_postings(view_of(terms, lists), params, k, scratch);
}

PostingView SavedIndex::view_of(const std::vector<std::string>& terms,
                                std::vector<std::vector<Posting>>& lists) const {
  lists.clear();
  lists.reserve(terms.size());
  for (const std::string& term : terms) {
    const std::optional<std::uint32_t> id = find_term(term);
    lists.push_back(id ? postings(*id) : std::vector<Posting>{});
  }
  PostingView view;
  for (const std::vector<Posting>& list : lists) {
    view.terms.emplace_back(list);
  }
  view.documents = m_memories;
  view.live = m_memories;
  view.total_length = m_total_length;
  view.lengths = m_lengths.data();
  view.stride = k_field_count;
  return view;
}

void SavedIndex::for_each_term(
    const std::function<void(std::string_view, const std::vector<Posting>&)>& visit) const {
  for (std::size_t t = 0; t < m_terms; ++t) {
    visit(text(m_terms_at + t * k_term_size), postings(static_cast<std::uint32_t>(t)));
  }
}

}  // namespace gv::search
