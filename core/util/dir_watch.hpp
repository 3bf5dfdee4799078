#pragma once

#include <filesystem>
#include <string>
#include <vector>

// Tells a long-lived process whether anything changed under some folders since it last asked,
// without walking them: `git vault mcp` answers a call on a 10,000-memory vault without stat-ing
// 10,000 files when nothing changed between calls (doc/agent.md, "One process, many calls").
// Built on Linux inotify. Where inotify is not available (another system, no kernel support, the
// watch limit reached, a folder that cannot be watched) changed() always says yes, so a caller that
// rescans on yes is never wrong, only slower.
namespace gv::util {

class DirWatch {
 public:
  struct Root {
    std::filesystem::path path;
    bool recursive = true;  // every folder below it too (`.git` excepted)
  };

  // Watches each root. A root that does not exist is watched through its parent, so its
  // creation counts as a change.
  explicit DirWatch(std::vector<Root> roots);
  ~DirWatch();
  DirWatch(const DirWatch&) = delete;
  DirWatch& operator=(const DirWatch&) = delete;

  // True when something under the roots may have changed since the last call (the first call
  // always says yes). Reads the pending events without waiting; a kernel write is queued before
  // the writing call returns, so a change made before changed() is asked is reported.
  [[nodiscard]] bool changed();

  // False when inotify could not be used (changed() is then always true).
  [[nodiscard]] bool active() const { return m_fd >= 0; }

 private:
  void watch_all();

  std::vector<Root> m_roots;
  int m_fd = -1;
  bool m_first = true;
};

}  // namespace gv::util
