// SearchIndex::refresh_cached and its file (core/search/saved_index.hpp): the memory documents
// with the stat data of the files they came from, so a one-shot `git vault search` reads only
// what changed, and when nothing did, ranks straight from the file.
#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>

#include <algorithm>
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

constexpr std::int64_t k_racy_ns = 2'000'000'000;

std::int64_t nanoseconds(const struct timespec& time) {
  return static_cast<std::int64_t>(time.tv_sec) * 1'000'000'000 + time.tv_nsec;
}

std::int64_t now_ns() {
  struct timespec now {};
  ::clock_gettime(CLOCK_REALTIME, &now);
  return nanoseconds(now);
}

struct Listed {
  std::string path;
  SavedStamp stamp;  // listed_ns unset
};

// The memory files in `<root>/.memory/10-Memories/` with their stat data, as `git status`
// compares the index's. The folder itself must be a real directory: a symlinked one is never
// followed.
std::vector<Listed> list_memory_files(const std::filesystem::path& root) {
  std::vector<Listed> listed;
  const std::string folder(vault_path::k_memories);
  const std::filesystem::path directory = root / folder;
  struct ::stat folder_info {};
  DIR* const dir = ::lstat(directory.c_str(), &folder_info) == 0 && S_ISDIR(folder_info.st_mode)
                       ? ::opendir(directory.c_str())
                       : nullptr;
  if (dir == nullptr) {
    return listed;
  }
  while (const struct dirent* entry = ::readdir(dir)) {
    std::string path = folder + entry->d_name;
    if (!is_memory_path(path)) {
      continue;
    }
    struct ::stat info {};
    if (::fstatat(::dirfd(dir), entry->d_name, &info, AT_SYMLINK_NOFOLLOW) != 0 ||
        !S_ISREG(info.st_mode)) {
      continue;
    }
    SavedStamp stamp;
    stamp.inode = static_cast<std::uint64_t>(info.st_ino);
    stamp.size = static_cast<std::int64_t>(info.st_size);
    stamp.mtime_ns = nanoseconds(info.st_mtim);
    stamp.ctime_ns = nanoseconds(info.st_ctim);
    listed.push_back({std::move(path), stamp});
  }
  ::closedir(dir);
  return listed;
}

// The saved stat data still describes the file. A file modified less than two seconds before
// it was read may have changed again within the same timestamp tick: read it again.
bool same_file(const SavedStamp& saved, const SavedStamp& now) {
  return saved.inode == now.inode && saved.size == now.size && saved.mtime_ns == now.mtime_ns &&
         saved.ctime_ns == now.ctime_ns && saved.listed_ns - saved.mtime_ns > k_racy_ns;
}

}  // namespace

std::filesystem::path search_cache_path(const std::filesystem::path& common_dir) {
  return common_dir / "git-vault" / "search-cache";
}

void SearchIndex::load_saved(const std::filesystem::path& cache_file) {
  if (m_saved || !m_memory_slots.empty() || !m_skipped.empty()) {
    return;
  }
  m_saved_file = util::MappedFile::open(cache_file);
  if (m_saved_file) {
    m_saved = SavedIndex::open(m_saved_file->view());
  }
  if (!m_saved) {
    m_saved_file.reset();
    return;
  }
  thaw();
  // refresh() goes by blob id and keeps nothing stat-based: the skipped files' stamps would
  // only go stale here.
  m_skipped.clear();
}

void SearchIndex::thaw() {
  if (!m_saved) {
    return;
  }
  const SavedIndex& saved = *m_saved;
  for (std::uint32_t d = 0; d < saved.memory_count(); ++d) {
    SavedMemory memory = saved.memory(d);
    MemorySlot slot;
    slot.document = m_memory_index.add_saved(memory.lengths);
    slot.stamp = memory.stamp;
    slot.blob_oid = std::move(memory.blob_oid);
    slot.title = std::move(memory.title);
    slot.retrieval_count = memory.retrieval_count;
    slot.summary = std::move(memory.summary);
    slot.keywords = std::move(memory.keywords);
    slot.topic = std::move(memory.topic);
    const std::string id = memory_id_from_path(memory.path);
    slot.path = std::move(memory.path);
    m_memory_slots.insert_or_assign(id, std::move(slot));
  }
  saved.for_each_term([&](std::string_view term, const std::vector<Posting>& postings) {
    m_memory_index.add_postings(term, postings);
  });
  for (std::uint32_t s = 0; s < saved.skipped_count(); ++s) {
    m_skipped.insert_or_assign(std::string(saved.skipped_path(s)),
                               Skipped{saved.skipped_stamp(s), saved.skipped_unreadable(s)});
  }
  m_saved.reset();
  m_saved_file.reset();
}

std::string SearchIndex::save_cache() {
  // The file numbers its documents in path order, so a path is found by binary search.
  std::vector<const std::pair<const std::string, MemorySlot>*> slots;
  slots.reserve(m_memory_slots.size());
  for (const auto& entry : m_memory_slots) {
    slots.push_back(&entry);
  }
  std::sort(slots.begin(), slots.end(),
            [](const auto* a, const auto* b) { return a->second.path < b->second.path; });
  std::vector<std::uint32_t> order;
  std::vector<SavedMemory> memories;
  order.reserve(slots.size());
  memories.reserve(slots.size());
  for (const auto* entry : slots) {
    const MemorySlot& slot = entry->second;
    order.push_back(slot.document);
    memories.push_back({slot.path,
                        slot.stamp,
                        slot.blob_oid,
                        slot.title,
                        slot.retrieval_count,
                        slot.summary,
                        slot.keywords,
                        slot.topic,
                        {}});
  }
  m_memory_index.reorder(order);
  for (std::size_t i = 0; i < slots.size(); ++i) {
    m_memory_slots.find(slots[i]->first)->second.document = static_cast<std::uint32_t>(i);
  }
  std::vector<SavedSkip> skipped;
  skipped.reserve(m_skipped.size());
  for (const auto& [path, skip] : m_skipped) {
    skipped.push_back({path, skip.stamp, skip.unreadable});
  }
  return write_saved_index(memories, m_memory_index, skipped);
}

void SearchIndex::refresh_cached(const std::filesystem::path& root,
                                 const std::filesystem::path& cache_file, const Snapshot& snapshot,
                                 const std::function<ParseCache*()>& parse_cache) {
  bool changed = false;
  if (!m_saved && m_memory_slots.empty() && m_skipped.empty()) {
    m_saved_file = util::MappedFile::open(cache_file);
    if (m_saved_file) {
      m_saved = SavedIndex::open(m_saved_file->view());
    }
    if (!m_saved) {
      m_saved_file.reset();
      changed = true;  // missing, damaged or an older format: written anew below
    }
  }
  const std::int64_t listed_at = now_ns();
  const std::vector<Listed> listed = list_memory_files(root);

  // Usually nothing changed: every listed file matches the saved file one to one, and the
  // search ranks from it without loading anything else.
  if (m_saved) {
    bool current = listed.size() == m_saved->memory_count() + m_saved->skipped_count();
    for (std::size_t i = 0; current && i < listed.size(); ++i) {
      const Listed& file = listed[i];
      if (const auto document = m_saved->find_memory(file.path)) {
        current = same_file(m_saved->memory_stamp(*document), file.stamp);
      } else if (const auto skipped = m_saved->find_skipped(file.path)) {
        current = same_file(m_saved->skipped_stamp(*skipped), file.stamp);
      } else {
        current = false;
      }
    }
    if (current) {
      refresh_working(snapshot);
      return;
    }
    thaw();
  }

  std::set<std::string_view> present;
  for (const Listed& file : listed) {
    present.insert(file.path);
    const std::string id = memory_id_from_path(file.path);
    if (const auto slot = m_memory_slots.find(id); slot != m_memory_slots.end() &&
                                                   slot->second.path == file.path &&
                                                   same_file(slot->second.stamp, file.stamp)) {
      continue;
    }
    if (const auto skipped = m_skipped.find(file.path);
        skipped != m_skipped.end() && same_file(skipped->second.stamp, file.stamp)) {
      continue;
    }
    changed = true;
    const std::optional<std::string> bytes = snapshot.read(file.path);
    if (!bytes) {
      present.erase(file.path);
      continue;
    }
    SavedStamp stamp = file.stamp;
    stamp.listed_ns = listed_at;
    const std::string oid = blob_oid(*bytes);
    ParseCache* const cache = parse_cache ? parse_cache() : nullptr;
    std::optional<Memory> memory;
    if (const ParsedMemory* hit = cache != nullptr ? cache->find(file.path, oid) : nullptr) {
      memory = hit->memory;
    } else {
      ParsedMemory parsed = parse_memory(file.path, *bytes, oid);
      memory = parsed.memory;
      if (cache != nullptr) {
        cache->store(file.path, oid, std::move(parsed));
      }
    }
    if (memory && memory->active()) {
      m_skipped.erase(file.path);
      set_memory(*memory, searchable_body(split_frontmatter(*bytes).body(*bytes)), stamp);
    } else {
      drop_memory(id);
      m_skipped[file.path] = Skipped{stamp, !memory.has_value()};
    }
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
  if (m_memory_index.dead() > 0) {
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

std::vector<std::string> SearchIndex::unreadable_paths() const {
  std::vector<std::string> out;
  if (m_saved) {
    for (std::uint32_t s = 0; s < m_saved->skipped_count(); ++s) {
      if (m_saved->skipped_unreadable(s)) {
        out.emplace_back(m_saved->skipped_path(s));
      }
    }
    return out;
  }
  for (const auto& [path, skip] : m_skipped) {
    if (skip.unreadable) {
      out.push_back(path);
    }
  }
  return out;
}

}  // namespace gv::search
