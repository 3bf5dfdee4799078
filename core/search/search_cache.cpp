// SearchIndex::refresh_cached and its file: the memory documents with the stat data of the
// files they came from, so a one-shot `git vault search` reads only what changed.
#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>

#include <cstring>
#include <ctime>
#include <set>

#include "core/error.hpp"
#include "core/memory/frontmatter.hpp"
#include "core/memory/parse.hpp"
#include "core/search/search.hpp"
#include "core/snapshot/worktree_snapshot.hpp"
#include "core/util/file.hpp"
#include "core/vault/vault.hpp"

namespace gv::search {
namespace {

// Bumped whenever the layout, parse_memory's output or the documents' text changes, so a newer
// binary never trusts what an older one saved.
constexpr std::string_view k_magic = "git-vault search-cache 1\n";
constexpr std::int64_t k_racy_ns = 2'000'000'000;

std::int64_t nanoseconds(const struct timespec& time) {
  return static_cast<std::int64_t>(time.tv_sec) * 1'000'000'000 + time.tv_nsec;
}

std::int64_t now_ns() {
  struct timespec now {};
  ::clock_gettime(CLOCK_REALTIME, &now);
  return nanoseconds(now);
}

class Writer {
 public:
  void u64(std::uint64_t value) { m_out.append(reinterpret_cast<const char*>(&value), 8); }
  void i64(std::int64_t value) { u64(static_cast<std::uint64_t>(value)); }
  void str(std::string_view text) {
    u64(text.size());
    m_out.append(text);
  }
  std::string take() { return std::move(m_out); }

 private:
  std::string m_out;
};

// Reads what Writer wrote; every read is bounds-checked and a short file sets failed().
class Reader {
 public:
  explicit Reader(std::string_view bytes) : m_bytes(bytes) {}
  std::uint64_t u64() {
    if (m_bytes.size() - m_at < 8) {
      m_failed = true;
      return 0;
    }
    std::uint64_t value = 0;
    std::memcpy(&value, m_bytes.data() + m_at, 8);
    m_at += 8;
    return value;
  }
  std::int64_t i64() { return static_cast<std::int64_t>(u64()); }
  std::string str() {
    const std::uint64_t size = u64();
    if (m_failed || size > m_bytes.size() - m_at) {
      m_failed = true;
      return {};
    }
    std::string out(m_bytes.substr(m_at, size));
    m_at += size;
    return out;
  }
  [[nodiscard]] bool failed() const { return m_failed; }
  [[nodiscard]] bool done() const { return m_at == m_bytes.size(); }

 private:
  std::string_view m_bytes;
  std::size_t m_at = 0;
  bool m_failed = false;
};

}  // namespace

std::filesystem::path search_cache_path(const std::filesystem::path& common_dir) {
  return common_dir / "git-vault" / "search-cache";
}

std::string SearchIndex::save_cache() const {
  Writer out;
  auto stamp = [&](const Stamp& value) {
    out.u64(value.inode);
    out.i64(value.size);
    out.i64(value.mtime_ns);
    out.i64(value.ctime_ns);
    out.i64(value.listed_ns);
  };
  out.u64(m_memory_slots.size());
  for (const auto& [id, slot] : m_memory_slots) {
    out.str(id);
    stamp(slot.stamp);
    out.str(slot.blob_oid);
    out.str(slot.path);
    out.str(slot.title);
    out.i64(slot.retrieval_count);
    out.str(slot.summary);
    out.u64(slot.keywords.size());
    for (const std::string& keyword : slot.keywords) {
      out.str(keyword);
    }
    out.str(slot.topic);
    const Document& document = m_memory_documents[slot.document];
    for (std::size_t f = 0; f < k_field_count; ++f) {
      out.str(document.lowered[f]);
      out.u64(document.length[f]);
    }
  }
  out.u64(m_skipped.size());
  for (const auto& [path, value] : m_skipped) {
    out.str(path);
    stamp(value);
  }
  return std::string(k_magic) + out.take();
}

bool SearchIndex::load_cache(const std::string& bytes) {
  if (!std::string_view(bytes).starts_with(k_magic)) {
    return false;
  }
  Reader in(std::string_view(bytes).substr(k_magic.size()));
  auto stamp = [&] {
    Stamp value;
    value.inode = in.u64();
    value.size = in.i64();
    value.mtime_ns = in.i64();
    value.ctime_ns = in.i64();
    value.listed_ns = in.i64();
    return value;
  };
  std::map<std::string, MemorySlot, std::less<>> slots;
  std::vector<Document> documents;
  const std::uint64_t count = in.u64();
  for (std::uint64_t i = 0; i < count && !in.failed(); ++i) {
    std::string id = in.str();
    MemorySlot slot;
    slot.stamp = stamp();
    slot.blob_oid = in.str();
    slot.path = in.str();
    slot.title = in.str();
    slot.retrieval_count = in.i64();
    slot.summary = in.str();
    const std::uint64_t keywords = in.u64();
    for (std::uint64_t k = 0; k < keywords && !in.failed(); ++k) {
      slot.keywords.push_back(in.str());
    }
    slot.topic = in.str();
    Document document;
    for (std::size_t f = 0; f < k_field_count; ++f) {
      document.lowered[f] = in.str();
      document.length[f] = static_cast<std::uint32_t>(in.u64());
    }
    slot.document = documents.size();
    documents.push_back(std::move(document));
    slots.emplace(std::move(id), std::move(slot));
  }
  std::map<std::string, Stamp, std::less<>> skipped;
  const std::uint64_t skipped_count = in.u64();
  for (std::uint64_t i = 0; i < skipped_count && !in.failed(); ++i) {
    std::string path = in.str();
    skipped.emplace(std::move(path), stamp());
  }
  if (in.failed() || !in.done()) {
    return false;
  }
  m_memory_slots = std::move(slots);
  m_memory_documents = std::move(documents);
  m_skipped = std::move(skipped);
  m_dead_documents = 0;
  return true;
}

void SearchIndex::refresh_cached(const std::filesystem::path& root,
                                 const std::filesystem::path& cache_file, const Snapshot& snapshot,
                                 const std::function<ParseCache*()>& parse_cache) {
  bool changed = false;
  if (m_memory_slots.empty() && m_skipped.empty()) {
    std::optional<std::string> bytes;
    try {
      bytes = util::read_file_if_exists(cache_file);
    } catch (const Error&) {
      // An unreadable cache only costs a full read.
    }
    changed = !bytes || !load_cache(*bytes);
  }
  const std::int64_t listed = now_ns();
  const std::string folder(vault_path::k_memories);
  const std::filesystem::path directory = root / folder;
  std::set<std::string, std::less<>> present;
  // The folder itself must be a real directory: a symlinked one is never followed.
  struct ::stat folder_info {};
  DIR* const dir = ::lstat(directory.c_str(), &folder_info) == 0 && S_ISDIR(folder_info.st_mode)
                       ? ::opendir(directory.c_str())
                       : nullptr;
  if (dir != nullptr) {
    while (const struct dirent* entry = ::readdir(dir)) {
      const std::string path = folder + entry->d_name;
      if (!is_memory_path(path)) {
        continue;
      }
      struct ::stat info {};
      if (::fstatat(::dirfd(dir), entry->d_name, &info, AT_SYMLINK_NOFOLLOW) != 0 ||
          !S_ISREG(info.st_mode)) {
        continue;
      }
      present.insert(path);
      Stamp stamp;
      stamp.inode = static_cast<std::uint64_t>(info.st_ino);
      stamp.size = static_cast<std::int64_t>(info.st_size);
      stamp.mtime_ns = nanoseconds(info.st_mtim);
      stamp.ctime_ns = nanoseconds(info.st_ctim);
      const auto same = [&](const Stamp& saved) {
        return saved.inode == stamp.inode && saved.size == stamp.size &&
               saved.mtime_ns == stamp.mtime_ns && saved.ctime_ns == stamp.ctime_ns &&
               saved.listed_ns - saved.mtime_ns > k_racy_ns;
      };
      const std::string id = memory_id_from_path(path);
      if (const auto slot = m_memory_slots.find(id);
          slot != m_memory_slots.end() && slot->second.path == path && same(slot->second.stamp)) {
        continue;
      }
      if (const auto skipped = m_skipped.find(path);
          skipped != m_skipped.end() && same(skipped->second)) {
        continue;
      }
      changed = true;
      const std::optional<std::string> bytes = snapshot.read(path);
      if (!bytes) {
        present.erase(path);
        continue;
      }
      stamp.listed_ns = listed;
      const std::string oid = blob_oid(*bytes);
      ParseCache* const cache = parse_cache ? parse_cache() : nullptr;
      std::optional<Memory> memory;
      if (const ParsedMemory* hit = cache != nullptr ? cache->find(path, oid) : nullptr) {
        memory = hit->memory;
      } else {
        ParsedMemory parsed = parse_memory(path, *bytes, oid);
        memory = parsed.memory;
        if (cache != nullptr) {
          cache->store(path, oid, std::move(parsed));
        }
      }
      if (memory && memory->active()) {
        m_skipped.erase(path);
        set_memory(*memory, split_frontmatter(*bytes).body(*bytes), stamp);
      } else {
        drop_memory(id);
        m_skipped[path] = stamp;
      }
    }
    ::closedir(dir);
  }
  std::vector<std::string> gone;
  for (const auto& [id, slot] : m_memory_slots) {
    if (!present.contains(slot.path)) {
      gone.push_back(id);
    }
  }
  for (const std::string& id : gone) {
    drop_memory(id);
    changed = true;
  }
  for (auto it = m_skipped.begin(); it != m_skipped.end();) {
    if (present.contains(it->first)) {
      ++it;
    } else {
      it = m_skipped.erase(it);
      changed = true;
    }
  }
  if (m_dead_documents > 0) {
    compact();
  }
  if (changed) {
    try {
      std::error_code ignored;
      std::filesystem::create_directories(cache_file.parent_path(), ignored);
      util::write_file_atomic(cache_file, save_cache());
    } catch (const Error&) {
      // A cache that cannot be written only costs speed next time.
    }
  }
  refresh_working(snapshot);
}

}  // namespace gv::search
