#include "core/snapshot/stat_cache.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstring>
#include <ctime>
#include <fstream>
#include <iterator>
#include <system_error>
#include <vector>

#include "core/util/file.hpp"

namespace gv {
namespace fs = std::filesystem;

namespace {

constexpr std::string_view k_magic = "gvstat01";
// A file changed within this long before it was hashed may change again within the same tick of
// the file system's clock without its stamp showing it.
constexpr std::int64_t k_racy_window_ns = 2'000'000'000;
// Beyond this many entries, a save keeps only those this run looked at.
constexpr std::size_t k_max_entries = 1'000'000;

std::uint64_t checksum(std::string_view bytes) {  // FNV-1a, 64 bit
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
  FileStamp stamp;
  stamp.device = static_cast<std::uint64_t>(info.st_dev);
  stamp.inode = static_cast<std::uint64_t>(info.st_ino);
  stamp.size = static_cast<std::uint64_t>(info.st_size);
  stamp.mtime_ns = nanoseconds(info.st_mtim);
  stamp.ctime_ns = nanoseconds(info.st_ctim);
  stamp.mode = static_cast<std::uint32_t>(info.st_mode);
  return stamp;
}

StatCache::StatCache(fs::path file) : m_file(std::move(file)) {
  std::string bytes;
  try {
    std::optional<std::string> read = util::read_file_if_exists(m_file);
    if (!read) {
      return;
    }
    bytes = std::move(*read);
  } catch (const std::exception&) {
    return;  // unreadable: an empty cache
  }
  if (bytes.size() < k_magic.size() + 2 * sizeof(std::uint64_t) ||
      std::string_view(bytes).substr(0, k_magic.size()) != k_magic) {
    return;
  }
  const std::string_view body =
      std::string_view(bytes).substr(0, bytes.size() - sizeof(std::uint64_t));
  std::uint64_t stored_sum = 0;
  std::memcpy(&stored_sum, bytes.data() + body.size(), sizeof stored_sum);
  if (checksum(body) != stored_sum) {
    return;
  }
  std::string_view in_view = body.substr(k_magic.size());
  std::uint64_t count = 0;
  if (!take(in_view, count)) {
    return;
  }
  if (count > in_view.size()) {
    return;
  }
  Entries entries;
  entries.reserve(static_cast<std::size_t>(count));
  for (std::uint64_t i = 0; i < count; ++i) {
    std::uint32_t length = 0;
    Entry entry;
    if (!take(in_view, length) || in_view.size() < length) {
      return;
    }
    std::string path(in_view.substr(0, length));
    in_view.remove_prefix(length);
    if (!take(in_view, entry.stamp.device) || !take(in_view, entry.stamp.inode) ||
        !take(in_view, entry.stamp.size) || !take(in_view, entry.stamp.mtime_ns) ||
        !take(in_view, entry.stamp.ctime_ns) || !take(in_view, entry.stamp.mode) ||
        in_view.size() < sizeof entry.oid) {
      return;
    }
    std::memcpy(entry.oid, in_view.data(), sizeof entry.oid);
    in_view.remove_prefix(sizeof entry.oid);
    entries.emplace(std::move(path), entry);
  }
  if (in_view.empty()) {
    m_entries = std::move(entries);
  }
}

std::optional<std::string> StatCache::find(std::string_view path, const FileStamp& stamp) const {
  const auto it = m_entries.find(path);
  if (it == m_entries.end() || !(it->second.stamp == stamp)) {
    return std::nullopt;
  }
  return to_hex(it->second.oid);
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
  const auto it = m_entries.find(path);
  if (it != m_entries.end()) {
    if (it->second.stamp == stamp && std::memcmp(it->second.oid, entry.oid, 20) == 0) {
      return;
    }
    it->second = entry;
  } else {
    if (m_entries.size() >= k_max_entries) {
      return;
    }
    m_entries.emplace(std::string(path), entry);
  }
  m_dirty = true;
}

bool StatCache::save() const {
  if (!m_dirty || m_file.empty()) {
    return true;
  }
  // In path order, so the same entries always make the same file.
  std::vector<const Entries::value_type*> sorted;
  sorted.reserve(m_entries.size());
  for (const auto& entry : m_entries) {
    sorted.push_back(&entry);
  }
  std::sort(sorted.begin(), sorted.end(),
            [](const auto* a, const auto* b) { return a->first < b->first; });
  std::string out(k_magic);
  put<std::uint64_t>(out, m_entries.size());
  for (const auto* item : sorted) {
    const auto& [path, entry] = *item;
    put<std::uint32_t>(out, static_cast<std::uint32_t>(path.size()));
    out += path;
    put(out, entry.stamp.device);
    put(out, entry.stamp.inode);
    put(out, entry.stamp.size);
    put(out, entry.stamp.mtime_ns);
    put(out, entry.stamp.ctime_ns);
    put(out, entry.stamp.mode);
    out.append(reinterpret_cast<const char*>(entry.oid), sizeof entry.oid);
  }
  put(out, checksum(out));

  std::error_code ec;
  fs::create_directories(m_file.parent_path(), ec);
  const fs::path temporary = m_file.string() + ".tmp" + std::to_string(::getpid());
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
