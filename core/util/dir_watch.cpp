#include "core/util/dir_watch.hpp"

#include <unistd.h>

// inotify is Linux's. Elsewhere no watch is ever active and changed() always says yes, which
// keeps every answer right and only costs the rescan (core/util/dir_watch.hpp).
#if __has_include(<sys/inotify.h>)
#include <sys/inotify.h>
#define GV_HAVE_INOTIFY 1
#endif

#include <array>
#include <cerrno>
#include <system_error>

namespace gv::util {
#if defined(GV_HAVE_INOTIFY)
namespace {

// Every way a file's bytes or a folder's listing can change, and the watched folder itself
// going away (deleted, moved, or its watch dropped).
constexpr std::uint32_t k_mask = IN_MODIFY | IN_ATTRIB | IN_CLOSE_WRITE | IN_MOVED_FROM |
                                 IN_MOVED_TO | IN_CREATE | IN_DELETE | IN_DELETE_SELF |
                                 IN_MOVE_SELF | IN_ONLYDIR;

}  // namespace

DirWatch::DirWatch(std::vector<Root> roots) : m_roots(std::move(roots)) {
  m_fd = ::inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
  if (m_fd >= 0) {
    watch_all();
  }
}
#else
DirWatch::DirWatch(std::vector<Root> roots) : m_roots(std::move(roots)) {}
void DirWatch::watch_all() {}
bool DirWatch::changed() { return true; }
#endif

DirWatch::~DirWatch() {
  if (m_fd >= 0) {
    ::close(m_fd);
  }
}

#if defined(GV_HAVE_INOTIFY)
void DirWatch::watch_all() {
  namespace fs = std::filesystem;
  const auto add = [&](const fs::path& dir) {
    if (::inotify_add_watch(m_fd, dir.c_str(), k_mask) < 0) {
      ::close(m_fd);  // watch limit reached, or no permission: fall back to "always changed"
      m_fd = -1;
    }
  };
  for (const Root& watched : m_roots) {
    const fs::path& root = watched.path;
    std::error_code ec;
    if (!fs::is_directory(root, ec)) {
      add(root.parent_path());  // its creation shows up there
    } else if (!watched.recursive) {
      add(root);
    } else {
      add(root);
      fs::recursive_directory_iterator it(root, fs::directory_options::skip_permission_denied, ec);
      for (; m_fd >= 0 && !ec && it != fs::recursive_directory_iterator(); it.increment(ec)) {
        if (it->path().filename() == ".git") {
          it.disable_recursion_pending();
        } else if (it->is_directory(ec) && !it->is_symlink(ec)) {
          add(it->path());
        }
      }
      if (ec && m_fd >= 0) {
        ::close(m_fd);
        m_fd = -1;
      }
    }
    if (m_fd < 0) {
      return;
    }
  }
}

bool DirWatch::changed() {
  if (m_fd < 0) {
    return true;
  }
  bool any = m_first;
  bool rewatch = false;
  m_first = false;
  alignas(struct inotify_event) std::array<char, 16384> buffer{};
  for (;;) {
    const ssize_t got = ::read(m_fd, buffer.data(), buffer.size());
    if (got < 0 && errno == EINTR) {
      continue;
    }
    if (got <= 0) {
      break;  // EAGAIN: nothing more is queued
    }
    any = true;
    for (ssize_t at = 0; at < got;) {
      const auto* event = reinterpret_cast<const struct inotify_event*>(buffer.data() + at);
      // A new folder needs its own watch; a lost queue or a dropped watch needs them all again.
      if ((event->mask & (IN_ISDIR | IN_Q_OVERFLOW | IN_IGNORED | IN_DELETE_SELF | IN_MOVE_SELF)) !=
          0) {
        rewatch = true;
      }
      at += static_cast<ssize_t>(sizeof(struct inotify_event) + event->len);
    }
  }
  if (rewatch) {
    ::close(m_fd);
    m_fd = ::inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
    if (m_fd >= 0) {
      watch_all();
    }
  }
  return any;
}

#endif

}  // namespace gv::util
