// SearchIndex::refresh_cached and its file (core/search/saved_index.hpp): the memory documents
// with the stat data of the files they came from, so a one-shot `git vault search` reads only
// what changed, and when nothing did, ranks straight from the file.
#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>

#include <algorithm>
#include <array>
#include <climits>
#include <cstring>
#include <ctime>
#include <set>
#include <system_error>
#include <thread>

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

SavedStamp stamp_of(const struct ::stat& info) {
  SavedStamp stamp;
  stamp.inode = static_cast<std::uint64_t>(info.st_ino);
  stamp.size = static_cast<std::int64_t>(info.st_size);
  stamp.mtime_ns = nanoseconds(info.st_mtim);
  stamp.ctime_ns = nanoseconds(info.st_ctim);
  return stamp;
}

// `<root>/.memory/10-Memories/`, opened once: its own stat data, and the handle its files are
// listed and stat'ed through (by name, so no path is walked again). The folder must be a real
// directory: a symlinked one is never followed, and reads as no folder.
class MemoryFolder {
 public:
  explicit MemoryFolder(const std::filesystem::path& root) {
    const std::filesystem::path directory = root / vault_path::k_memories;
    struct ::stat info {};
    if (::lstat(directory.c_str(), &info) != 0 || !S_ISDIR(info.st_mode)) {
      return;
    }
    m_dir = ::opendir(directory.c_str());
    // Stat'ed again through the handle: the stamp is the folder's that is listed.
    if (m_dir != nullptr && ::fstat(::dirfd(m_dir), &info) == 0) {
      m_stamp = stamp_of(info);
    }
  }
  MemoryFolder(const MemoryFolder&) = delete;
  MemoryFolder& operator=(const MemoryFolder&) = delete;
  ~MemoryFolder() {
    if (m_dir != nullptr) {
      ::closedir(m_dir);
    }
  }

  [[nodiscard]] bool is_open() const { return m_dir != nullptr; }
  [[nodiscard]] const SavedStamp& stamp() const { return m_stamp; }

  // The names of the memory files in it (is_memory_path), unsorted.
  [[nodiscard]] std::vector<std::string> memory_names() {
    std::vector<std::string> names;
    if (m_dir == nullptr) {
      return names;
    }
    const std::string folder(vault_path::k_memories);
    while (const struct dirent* entry = ::readdir(m_dir)) {
      if (is_memory_path(folder + entry->d_name)) {
        names.emplace_back(entry->d_name);
      }
    }
    return names;
  }

  // The stat data of each named file; nullopt where it is missing or not a regular file.
  // 10,000 stat calls are most of a warm search's time, so they are split between a few
  // threads, as git's preload-index splits `git status`'s.
  [[nodiscard]] std::vector<std::optional<SavedStamp>> stat_files(
      const std::vector<std::string_view>& names) const {
    std::vector<std::optional<SavedStamp>> stamps(names.size());
    if (m_dir == nullptr) {
      return stamps;
    }
    const int folder = ::dirfd(m_dir);
    // Allocates nothing, so it cannot throw on a thread of its own.
    const auto stat_range = [&](std::size_t begin, std::size_t end) noexcept {
      std::array<char, NAME_MAX + 1> name{};
      for (std::size_t i = begin; i < end; ++i) {
        if (names[i].size() >= name.size()) {
          continue;  // no file has such a name
        }
        std::memcpy(name.data(), names[i].data(), names[i].size());
        name[names[i].size()] = '\0';
        struct ::stat info {};
        if (::fstatat(folder, name.data(), &info, AT_SYMLINK_NOFOLLOW) == 0 &&
            S_ISREG(info.st_mode)) {
          stamps[i] = stamp_of(info);
        }
      }
    };
    constexpr std::size_t k_files_per_thread = 2048;
    const std::size_t threads =
        std::clamp<std::size_t>(std::min<std::size_t>(std::thread::hardware_concurrency(), 4), 1,
                                std::max<std::size_t>(names.size() / k_files_per_thread, 1));
    const std::size_t share = names.size() / threads;
    std::vector<std::thread> helpers;
    std::size_t begin = 0;
    for (std::size_t t = 1; t < threads; ++t) {
      try {
        helpers.emplace_back(stat_range, begin, begin + share);
      } catch (const std::system_error&) {
        break;  // no thread to be had: this one stats the rest
      }
      begin += share;
    }
    stat_range(begin, names.size());
    for (std::thread& helper : helpers) {
      helper.join();
    }
    return stamps;
  }

 private:
  DIR* m_dir = nullptr;
  SavedStamp m_stamp;
};

// The memory files in the folder with their stat data, as `git status` compares the index's.
std::vector<Listed> list_memory_files(MemoryFolder& folder) {
  const std::vector<std::string> names = folder.memory_names();
  const std::vector<std::optional<SavedStamp>> stamps =
      folder.stat_files(std::vector<std::string_view>(names.begin(), names.end()));
  std::vector<Listed> listed;
  listed.reserve(names.size());
  const std::string prefix(vault_path::k_memories);
  for (std::size_t i = 0; i < names.size(); ++i) {
    if (stamps[i]) {
      listed.push_back({prefix + names[i], *stamps[i]});
    }
  }
  return listed;
}

// The saved stat data still describes the file. A file modified less than two seconds before
// it was read may have changed again within the same timestamp tick: read it again.
bool same_file(const SavedStamp& saved, const SavedStamp& now) {
  return saved.inode == now.inode && saved.size == now.size && saved.mtime_ns == now.mtime_ns &&
         saved.ctime_ns == now.ctime_ns && saved.listed_ns - saved.mtime_ns > k_racy_ns;
}

// Whether every file the saved index names is unchanged, found without listing the folder:
// while the folder's own stat data is unchanged, no file was added, removed or renamed in it
// (git's untracked cache skips unchanged directories the same way), so stat'ing the saved
// files by name is enough.
bool saved_files_current(const SavedIndex& saved, const MemoryFolder& folder) {
  if (!folder.is_open() || !same_file(saved.folder_stamp(), folder.stamp())) {
    return false;
  }
  const std::string_view prefix = vault_path::k_memories;
  std::vector<std::string_view> names;
  std::vector<SavedStamp> expected;
  names.reserve(saved.memory_count() + saved.skipped_count());
  expected.reserve(names.capacity());
  const auto add = [&](std::string_view path, const SavedStamp& stamp) {
    if (!path.starts_with(prefix) || path.find('/', prefix.size()) != std::string_view::npos) {
      return false;
    }
    names.push_back(path.substr(prefix.size()));
    expected.push_back(stamp);
    return true;
  };
  for (std::uint32_t d = 0; d < saved.memory_count(); ++d) {
    if (!add(saved.memory_path(d), saved.memory_stamp(d))) {
      return false;
    }
  }
  for (std::uint32_t s = 0; s < saved.skipped_count(); ++s) {
    if (!add(saved.skipped_path(s), saved.skipped_stamp(s))) {
      return false;
    }
  }
  const std::vector<std::optional<SavedStamp>> now = folder.stat_files(names);
  for (std::size_t i = 0; i < now.size(); ++i) {
    if (!now[i] || !same_file(expected[i], *now[i])) {
      return false;
    }
  }
  return true;
}

}  // namespace

std::filesystem::path search_cache_path(const std::filesystem::path& common_dir) {
  return common_dir / "git-vault" / "search-cache";
}

void SearchIndex::load_saved(const std::filesystem::path& cache_file) {
  m_expansion.reset();
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

std::string SearchIndex::save_cache(const Stamp& folder) {
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
  return write_saved_index(memories, m_memory_index, skipped, folder);
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
  // Taken before the folder is opened, so a change made while it is listed reads as racy.
  const std::int64_t listed_at = now_ns();
  MemoryFolder folder(root);
  SavedStamp folder_stamp = folder.stamp();
  folder_stamp.listed_ns = listed_at;

  // Usually nothing changed: the folder and every saved file are as saved, and the search ranks
  // from the file without listing the folder or loading anything else.
  if (m_saved && saved_files_current(*m_saved, folder)) {
    refresh_working(snapshot);
    return;
  }
  const std::vector<Listed> listed = list_memory_files(folder);
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
    // Every file as saved, but the folder changed (an editor's swap file came and went) or
    // was saved too soon after it changed: saved again once its stamp can be trusted, so that
    // the next run need not list it.
    const bool folder_settled = folder.is_open() && listed_at - folder_stamp.mtime_ns > k_racy_ns;
    if (current && !folder_settled) {
      refresh_working(snapshot);
      return;
    }
    changed = changed || current;
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
      util::write_file_atomic(cache_file, save_cache(folder_stamp));
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
