#include "core/snapshot/stat_cache.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstring>
#include <ctime>
#include <fstream>
#include <iterator>
#include <limits>
#include <system_error>
#include <vector>

#include "core/error.hpp"
#include "core/util/file.hpp"

namespace gv {
namespace fs = std::filesystem;

namespace {

constexpr std::string_view k_stat_magic = "gvstat01";
// A file changed within this long before it was hashed may change again within the same tick of
// the file system's clock without its stamp showing it.
constexpr std::int64_t k_racy_window_ns = 2'000'000'000;
// Beyond this many entries, a save keeps only those this run looked at.
constexpr std::size_t k_max_entries = 1'000'000;

std::uint64_t fnv1a(std::string_view bytes) {  // FNV-1a, 64 bit
  std::uint64_t hash = 0xcbf29ce484222325ULL;
  for (const char c : bytes) {
    hash ^= static_cast<unsigned char>(c);
    hash *= 0x100000001b3ULL;
  }
  return hash;
}

template <class T>
void put(std::string& out, T value) {
  char raw[sizeof(T)];
  std::memcpy(raw, &value, sizeof(T));
  out.append(raw, sizeof(T));
}

template <class T>
bool take(std::string_view& in, T& value) {
  if (in.size() < sizeof(T)) {
    return false;
  }
  std::memcpy(&value, in.data(), sizeof(T));
  in.remove_prefix(sizeof(T));
  return true;
}

bool from_hex(std::string_view hex, std::uint8_t* out) {
  if (hex.size() != 40) {
    return false;
  }
  for (std::size_t i = 0; i < 20; ++i) {
    std::uint8_t byte = 0;
    for (std::size_t k = 0; k < 2; ++k) {
      const char c = hex[2 * i + k];
      byte = static_cast<std::uint8_t>(byte << 4);
      if (c >= '0' && c <= '9') {
        byte = static_cast<std::uint8_t>(byte | (c - '0'));
      } else if (c >= 'a' && c <= 'f') {
        byte = static_cast<std::uint8_t>(byte | (c - 'a' + 10));
      } else {
        return false;
      }
    }
    out[i] = byte;
  }
  return true;
}

std::string to_hex(const std::uint8_t* oid) {
  static constexpr char k_digits[] = "0123456789abcdef";
  std::string hex(40, '0');
  for (std::size_t i = 0; i < 20; ++i) {
    hex[2 * i] = k_digits[oid[i] >> 4];
    hex[2 * i + 1] = k_digits[oid[i] & 0x0F];
  }
  return hex;
}

std::int64_t nanoseconds(const struct timespec& time) {
  return static_cast<std::int64_t>(time.tv_sec) * 1'000'000'000 + time.tv_nsec;
}

FileStamp stamp_from(const struct ::stat& info) {
  FileStamp stamp;
  stamp.device = static_cast<std::uint64_t>(info.st_dev);
  stamp.inode = static_cast<std::uint64_t>(info.st_ino);
  stamp.size = static_cast<std::uint64_t>(info.st_size);
  stamp.mtime_ns = nanoseconds(info.st_mtim);
  stamp.ctime_ns = nanoseconds(info.st_ctim);
  stamp.mode = static_cast<std::uint32_t>(info.st_mode);
  return stamp;
}

// A record after its path: the stamp's six fields and the id.
constexpr std::size_t k_record_tail = 5 * sizeof(std::uint64_t) + sizeof(std::uint32_t) + 20;

}  // namespace

std::int64_t realtime_ns() {
  struct timespec now {};
  ::clock_gettime(CLOCK_REALTIME, &now);
  return nanoseconds(now);
}

std::optional<FileStamp> stamp_of(const fs::path& path) {
  struct ::stat info {};
  if (::lstat(path.c_str(), &info) != 0) {
    return std::nullopt;
  }
  return stamp_from(info);
}

std::optional<FileStamp> stamp_at(int dir_fd, const char* name) {
  struct ::stat info {};
  if (::fstatat(dir_fd, name, &info, AT_SYMLINK_NOFOLLOW) != 0) {
    return std::nullopt;
  }
  return stamp_from(info);
}

StatCache::StatCache(fs::path file) : m_file(std::move(file)) {
  std::string bytes;
  try {
    std::optional<std::string> read = util::read_file_if_exists(m_file);
    if (!read) {
      return;
    }
    bytes = std::move(*read);
  } catch (const Error&) {
    return;  // unreadable: an empty cache (running out of memory is not, and goes on up)
  }
  if (bytes.size() < k_stat_magic.size() + 2 * sizeof(std::uint64_t) ||
      std::string_view(bytes).substr(0, k_stat_magic.size()) != k_stat_magic) {
    return;
  }
  const std::string_view body =
      std::string_view(bytes).substr(0, bytes.size() - sizeof(std::uint64_t));
  std::uint64_t stored_sum = 0;
  std::memcpy(&stored_sum, bytes.data() + body.size(), sizeof stored_sum);
  if (fnv1a(body) != stored_sum) {
    return;
  }
  std::string_view in_view = body.substr(k_stat_magic.size());
  std::uint64_t count = 0;
  if (!take(in_view, count) || count > in_view.size() / (sizeof(std::uint32_t) + k_record_tail) ||
      body.size() > std::numeric_limits<std::uint32_t>::max()) {
    return;
  }
  // Only the records' offsets are kept; the paths must be in strictly ascending order, as save()
  // writes them, for the in-order lookup and the merge in save() to hold.
  std::vector<std::uint32_t> records;
  records.reserve(static_cast<std::size_t>(count));
  std::string_view previous;
  for (std::uint64_t i = 0; i < count; ++i) {
    const auto offset = static_cast<std::uint32_t>(in_view.data() - bytes.data());
    std::uint32_t length = 0;
    if (!take(in_view, length) || in_view.size() < std::size_t{length} + k_record_tail) {
      return;
    }
    const std::string_view path = in_view.substr(0, length);
    if (i > 0 && !(previous < path)) {
      return;
    }
    previous = path;
    in_view.remove_prefix(length + k_record_tail);
    records.push_back(offset);
  }
  if (in_view.empty()) {
    m_bytes = std::move(bytes);
    m_records = std::move(records);
  }
}

std::string_view StatCache::record_path(std::size_t record) const {
  std::uint32_t length = 0;
  std::memcpy(&length, m_bytes.data() + m_records[record], sizeof length);
  return {m_bytes.data() + m_records[record] + sizeof length, length};
}

StatCache::Entry StatCache::record_entry(std::size_t record) const {
  std::string_view in = m_bytes;
  in.remove_prefix(m_records[record] + sizeof(std::uint32_t) + record_path(record).size());
  Entry entry;
  // Checked when the file was read: every record has its whole tail.
  (void)take(in, entry.stamp.device);
  (void)take(in, entry.stamp.inode);
  (void)take(in, entry.stamp.size);
  (void)take(in, entry.stamp.mtime_ns);
  (void)take(in, entry.stamp.ctime_ns);
  (void)take(in, entry.stamp.mode);
  std::memcpy(entry.oid, in.data(), sizeof entry.oid);
  return entry;
}

std::size_t StatCache::locate(std::string_view path) const {
  // A walk asks in path order, so the record after the last one found is usually the one.
  if (m_next < m_records.size() && record_path(m_next) == path) {
    return m_next++;
  }
  if (m_records.empty()) {
    return std::string_view::npos;
  }
  const auto hash_of = [](std::string_view text) -> std::uint64_t {
    return static_cast<std::uint32_t>(std::hash<std::string_view>{}(text) >> 32U);
  };
  // Where a hash's probe starts in a table of `slots` (a power of two).
  const auto home = [](std::uint64_t hash, std::size_t slots) {
    return static_cast<std::size_t>((hash * 0x9E3779B97F4A7C15ULL) >> 20U) & (slots - 1);
  };
  if (m_slots.empty()) {
    std::size_t capacity = 16;
    while (capacity < 2 * m_records.size()) {
      capacity *= 2;
    }
    m_slots.assign(capacity, 0);
    for (std::size_t record = 0; record < m_records.size(); ++record) {
      const std::uint64_t hash = hash_of(record_path(record));
      std::size_t at = home(hash, capacity);
      while (m_slots[at] != 0) {
        at = (at + 1) & (capacity - 1);
      }
      m_slots[at] = hash << 32U | (record + 1);
    }
  }
  const std::uint64_t hash = hash_of(path);
  const std::size_t last = m_slots.size() - 1;
  for (std::size_t at = home(hash, m_slots.size()); m_slots[at] != 0; at = (at + 1) & last) {
    const std::size_t record = (m_slots[at] & 0xFFFFFFFFU) - 1;
    if ((m_slots[at] >> 32U) == hash && record_path(record) == path) {
      m_next = record + 1;
      return record;
    }
  }
  return std::string_view::npos;
}

std::optional<std::string> StatCache::find(std::string_view path, const FileStamp& stamp) const {
  std::optional<Entry> entry;
  if (const auto it = m_stored.find(path); it != m_stored.end()) {
    entry = it->second;
  } else if (const std::size_t record = locate(path); record != std::string_view::npos) {
    entry = record_entry(record);
  }
  if (!entry || !(entry->stamp == stamp)) {
    return std::nullopt;
  }
  return to_hex(entry->oid);
}

void StatCache::store(std::string_view path, const FileStamp& stamp, std::string_view oid,
                      std::int64_t hashed_at_ns) {
  if (stamp.mtime_ns > hashed_at_ns - k_racy_window_ns ||
      stamp.ctime_ns > hashed_at_ns - k_racy_window_ns) {
    return;  // too young: the next run hashes it again
  }
  Entry entry;
  entry.stamp = stamp;
  if (!from_hex(oid, entry.oid)) {
    return;
  }
  const auto same = [&](const Entry& known) {
    return known.stamp == stamp && std::memcmp(known.oid, entry.oid, sizeof entry.oid) == 0;
  };
  if (const auto it = m_stored.find(path); it != m_stored.end()) {
    if (same(it->second)) {
      return;
    }
    it->second = entry;
  } else {
    const std::size_t record = locate(path);
    if (record != std::string_view::npos && same(record_entry(record))) {
      return;
    }
    if (record == std::string_view::npos) {
      if (size() >= k_max_entries) {
        return;
      }
      ++m_added;
    }
    m_stored.emplace(std::string(path), entry);
  }
  m_dirty = true;
}

bool StatCache::save() const {
  if (!m_dirty || m_file.empty()) {
    return true;
  }
  // In path order, so the same entries always make the same file: the file's records, already
  // in order, merged with this run's.
  std::vector<const Entries::value_type*> stored;
  stored.reserve(m_stored.size());
  for (const auto& item : m_stored) {
    stored.push_back(&item);
  }
  std::sort(stored.begin(), stored.end(),
            [](const auto* a, const auto* b) { return a->first < b->first; });
  std::string out(k_stat_magic);
  out.reserve(m_bytes.size() + stored.size() * (64 + k_record_tail));
  put<std::uint64_t>(out, size());
  const auto put_entry = [&](std::string_view path, const Entry& entry) {
    put<std::uint32_t>(out, static_cast<std::uint32_t>(path.size()));
    out += path;
    put(out, entry.stamp.device);
    put(out, entry.stamp.inode);
    put(out, entry.stamp.size);
    put(out, entry.stamp.mtime_ns);
    put(out, entry.stamp.ctime_ns);
    put(out, entry.stamp.mode);
    out.append(reinterpret_cast<const char*>(entry.oid), sizeof entry.oid);
  };
  std::size_t next_stored = 0;
  for (std::size_t record = 0; record < m_records.size(); ++record) {
    const std::string_view path = record_path(record);
    while (next_stored < stored.size() && stored[next_stored]->first < path) {
      put_entry(stored[next_stored]->first, stored[next_stored]->second);
      ++next_stored;
    }
    if (next_stored < stored.size() && stored[next_stored]->first == path) {
      continue;  // replaced by this run's entry, written next
    }
    // The record as read: its path and tail are what put_entry would write.
    const std::size_t start = m_records[record];
    out.append(m_bytes, start, sizeof(std::uint32_t) + path.size() + k_record_tail);
  }
  for (; next_stored < stored.size(); ++next_stored) {
    put_entry(stored[next_stored]->first, stored[next_stored]->second);
  }
  put(out, fnv1a(out));

  std::error_code ec;
  fs::create_directories(m_file.parent_path(), ec);
  const fs::path temporary = util::temp_sibling(m_file);
  {
    std::ofstream file(temporary, std::ios::binary | std::ios::trunc);
    if (!file || !file.write(out.data(), static_cast<std::streamsize>(out.size()))) {
      fs::remove(temporary, ec);
      return false;
    }
  }
  fs::rename(temporary, m_file, ec);
  if (ec) {
    fs::remove(temporary, ec);
    return false;
  }
  return true;
}

std::optional<fs::path> StatCache::file_for(const fs::path& root) {
  const fs::path dot_git = root / ".git";
  std::error_code ec;
  const fs::file_status status = fs::symlink_status(dot_git, ec);
  if (ec) {
    return std::nullopt;
  }
  if (status.type() == fs::file_type::directory) {
    return dot_git / "git-vault" / "stat-cache";
  }
  if (status.type() != fs::file_type::regular) {
    return std::nullopt;
  }
  // A linked worktree or a submodule: `gitdir: <path>`, relative to the work tree when relative.
  std::ifstream in(dot_git);
  std::string line;
  if (!std::getline(in, line) || line.rfind("gitdir: ", 0) != 0) {
    return std::nullopt;
  }
  fs::path git_dir = line.substr(8);
  if (git_dir.is_relative()) {
    git_dir = root / git_dir;
  }
  if (!fs::is_directory(git_dir, ec)) {
    return std::nullopt;
  }
  return git_dir / "git-vault" / "stat-cache";
}

}  // namespace gv
