#include "core/snapshot/worktree_snapshot.hpp"

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <system_error>

#include "core/error.hpp"
#include "core/git/blob_hasher.hpp"

namespace gv {
namespace fs = std::filesystem;

namespace {

// Splits a repo-relative path into components, or nullopt when it could escape the root.
std::optional<std::vector<std::string>> safe_components(std::string_view path) {
  std::vector<std::string> parts;
  if (path.empty() || path.front() == '/') {
    return std::nullopt;
  }
  std::size_t pos = 0;
  while (pos <= path.size()) {
    const auto slash = path.find('/', pos);
    const std::string_view part =
        path.substr(pos, slash == std::string_view::npos ? std::string_view::npos : slash - pos);
    if (part == "..") {
      return std::nullopt;
    }
    if (!part.empty() && part != ".") {
      parts.emplace_back(part);
    }
    if (slash == std::string_view::npos) {
      break;
    }
    pos = slash + 1;
  }
  return parts;
}

// True when every directory component below the root is a real directory (no symlink).
bool real_directories(const fs::path& root, const std::vector<std::string>& parts,
                      std::size_t count) {
  fs::path current = root;
  for (std::size_t i = 0; i < count; ++i) {
    current /= parts[i];
    std::error_code ec;
    const fs::file_status status = fs::symlink_status(current, ec);
    if (ec || status.type() != fs::file_type::directory) {
      return false;
    }
  }
  return true;
}

// Reads a regular file without following a final symlink. nullopt when it is absent or not a
// regular file.
std::optional<std::string> read_regular(const fs::path& file, std::string_view shown) {
  const int fd = ::open(file.c_str(), O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
  if (fd < 0) {
    if (errno == ENOENT || errno == ELOOP || errno == ENOTDIR) {
      return std::nullopt;
    }
    throw Error("{}: cannot open: {}", shown, std::strerror(errno));
  }
  struct ::stat info {};
  if (::fstat(fd, &info) != 0 || !S_ISREG(info.st_mode)) {
    ::close(fd);
    return std::nullopt;
  }
  std::string bytes;
  bytes.reserve(static_cast<std::size_t>(info.st_size));
  char buffer[65536];
  while (true) {
    const ssize_t got = ::read(fd, buffer, sizeof buffer);
    if (got < 0) {
      if (errno == EINTR) {
        continue;
      }
      const int saved = errno;
      ::close(fd);
      throw Error("{}: cannot read: {}", shown, std::strerror(saved));
    }
    if (got == 0) {
      break;
    }
    bytes.append(buffer, static_cast<std::size_t>(got));
  }
  ::close(fd);
  return bytes;
}

// A regular file found by the walk, with the stamp taken when it was found.
struct Found {
  std::string path;
  FileStamp stamp;
};

// Adds the regular files below the directory open as `dir_fd` (whose path is `rel`: empty or
// ending in '/') whose paths start with `prefix`, depth first. Takes ownership of `dir_fd`.
// Symlinks are not followed and `.git` is skipped; a directory that cannot be opened for lack
// of permission, or that vanished, is skipped too. Each name is stat'ed relative to its
// directory, so the kernel never walks a path from the root (doc/performance.md, "The stat
// cache").
void walk(int dir_fd, std::string& rel, std::string_view prefix, std::vector<Found>& found) {
  DIR* const dir = ::fdopendir(dir_fd);
  if (dir == nullptr) {
    const int saved = errno;
    ::close(dir_fd);
    throw Error("{}: cannot list: {}", rel, std::strerror(saved));
  }
  const std::size_t rel_size = rel.size();
  const auto close_and_throw = [&](int error) {
    rel.resize(rel_size);
    ::closedir(dir);
    throw Error("{}: cannot list: {}", rel, std::strerror(error));
  };
  while (true) {
    errno = 0;
    const struct ::dirent* item = ::readdir(dir);
    if (item == nullptr) {
      if (errno != 0) {
        close_and_throw(errno);
      }
      break;
    }
    const std::string_view name = item->d_name;
    if (name == "." || name == ".." || name == ".git") {
      continue;  // a `.git` directory, or a linked work tree's `.git` file
    }
    const std::optional<FileStamp> stamp = stamp_at(::dirfd(dir), item->d_name);
    if (!stamp) {
      continue;  // vanished while listing
    }
    rel.resize(rel_size);
    rel += name;
    if (S_ISDIR(stamp->mode)) {
      rel += '/';
      // Only a directory that can hold a path with the prefix is entered.
      if (std::string_view(rel).substr(0, prefix.size()) !=
          prefix.substr(0, std::min(prefix.size(), rel.size()))) {
        continue;
      }
      const int sub =
          ::openat(::dirfd(dir), item->d_name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
      if (sub < 0) {
        if (errno == EACCES || errno == ENOENT || errno == ENOTDIR || errno == ELOOP) {
          continue;  // not readable, vanished, or replaced by something else
        }
        close_and_throw(errno);
      }
      try {
        walk(sub, rel, prefix, found);
      } catch (...) {
        ::closedir(dir);
        throw;
      }
    } else if (S_ISREG(stamp->mode) && rel.compare(0, prefix.size(), prefix) == 0) {
      found.push_back(Found{rel, *stamp});  // symlinks, sockets and the like are not listed
    }
  }
  rel.resize(rel_size);
  ::closedir(dir);
}

}  // namespace

// What list() may keep for read() to hand out: the files of a cold 10,000-memory vault, not
// those of an arbitrarily large tree.
constexpr std::size_t k_read_ahead_limit = std::size_t{64} << 20;

std::string blob_oid(std::string_view bytes) { return git::hash_blob(bytes); }

WorktreeSnapshot::WorktreeSnapshot(fs::path root) : m_root(std::move(root)) {}

WorktreeSnapshot::~WorktreeSnapshot() {
  if (m_stat_cache) {
    (void)m_stat_cache->save();
  }
}

StatCache& WorktreeSnapshot::stat_cache() const {
  // Loaded by the first list(): a command that only reads files (search, show) never pays for
  // the ten thousand entries.
  if (!m_stat_cache) {
    std::optional<fs::path> file = StatCache::file_for(m_root);
    m_stat_cache = file ? StatCache(std::move(*file)) : StatCache();
  }
  return *m_stat_cache;
}

std::vector<SnapshotEntry> WorktreeSnapshot::list(std::string_view prefix) const {
  StatCache& stat_cache = this->stat_cache();
  std::vector<SnapshotEntry> entries;
  // Walk the deepest directory the prefix names in full; a partial last component
  // (`specs/sta`) is matched by the filter below.
  const std::string_view dir_part =
      prefix.substr(0, prefix.rfind('/') == std::string_view::npos ? 0 : prefix.rfind('/') + 1);
  std::vector<std::string> parts;
  if (!dir_part.empty()) {
    const auto safe = safe_components(dir_part);
    if (!safe) {
      return entries;
    }
    parts = *safe;
  }
  if (!parts.empty() && parts.front() == ".git") {
    return entries;
  }
  if (!real_directories(m_root, parts, parts.size())) {
    return entries;
  }
  fs::path start = m_root;
  std::string start_rel;
  for (const std::string& part : parts) {
    start /= part;
    start_rel += part + "/";
  }
  const int start_fd = ::open(start.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
  if (start_fd < 0) {
    return entries;  // no such directory: nothing to list
  }
  // The stamps first, in path order: the stat cache keeps its entries in that order, so its
  // lookups read it front to back. Each stamp is taken before its file is read: if the file
  // changes in between, the stamp kept with its id is already out of date and the next run
  // hashes it again.
  std::vector<Found> found;
  walk(start_fd, start_rel, prefix, found);
  std::sort(found.begin(), found.end(),
            [](const Found& a, const Found& b) { return a.path < b.path; });
  entries.reserve(found.size());
  for (Found& file : found) {
    if (std::optional<std::string> oid = stat_cache.find(file.path, file.stamp)) {
      entries.push_back(SnapshotEntry{std::move(file.path), std::move(*oid)});
      continue;
    }
    const std::int64_t hashed_at = realtime_ns();
    const auto bytes = read_regular(m_root / file.path, file.path);
    if (!bytes) {
      continue;  // vanished or replaced while listing
    }
    std::string oid = blob_oid(*bytes);
    stat_cache.store(file.path, file.stamp, oid, hashed_at);
    if (const auto kept = m_read_ahead.find(file.path); kept != m_read_ahead.end()) {
      m_read_ahead_bytes -= kept->second.bytes.size();  // listed again: the newer read wins
      m_read_ahead.erase(kept);
    }
    if (m_read_ahead_bytes + bytes->size() <= k_read_ahead_limit) {
      m_read_ahead_bytes += bytes->size();
      m_read_ahead.emplace(file.path, ReadAhead{file.stamp, std::move(*bytes)});
    }
    entries.push_back(SnapshotEntry{std::move(file.path), std::move(oid)});
  }
  return entries;
}

std::optional<std::string> WorktreeSnapshot::read(std::string_view path) const {
  const auto parts = safe_components(path);
  if (!parts || parts->empty() || parts->front() == ".git") {
    return std::nullopt;
  }
  fs::path file = m_root;
  for (const std::string& part : *parts) {
    file /= part;
  }
  if (const auto it = m_read_ahead.find(std::string(path)); it != m_read_ahead.end()) {
    // Handed out once; a file changed since list() read it is read again. The bytes came
    // through list()'s walk, which never follows a symlink, so they need no directory check;
    // a directory replaced since then gives the path another stamp.
    ReadAhead kept = std::move(it->second);
    m_read_ahead.erase(it);
    m_read_ahead_bytes -= kept.bytes.size();
    if (const std::optional<FileStamp> now = stamp_of(file); now && *now == kept.stamp) {
      return std::move(kept.bytes);
    }
  }
  if (!real_directories(m_root, *parts, parts->size() - 1)) {
    return std::nullopt;
  }
  return read_regular(file, path);
}

}  // namespace gv
