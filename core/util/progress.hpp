#pragma once

#include <chrono>
#include <cstddef>
#include <string>

// Progress for work that takes a while, on stderr, in git's own shape:
// `Reading memories:  45% (4500/10000)` redrawn in place, then
// `Reading memories: 100% (10000/10000), done.` (doc/architecture.md, "Output").
// Nothing is shown unless the process turned progress on (stderr a terminal, no -q, no pager
// on the same terminal) and the work has run longer than GIT_PROGRESS_DELAY seconds (git's
// variable; 1 by default), so quick commands and scripts never see it.
namespace gv::util {

// Called by the session once the output settings are known, and again with false when a pager
// takes over the terminal.
void enable_progress(bool on);

class Progress {
 public:
  Progress(std::string title, std::size_t total);
  ~Progress();
  Progress(const Progress&) = delete;
  Progress& operator=(const Progress&) = delete;

  // `done` units of the total are finished. From the thread that created the Progress.
  void update(std::size_t done);
  // Prints the `, done.` line if anything was shown; the destructor calls it.
  void finish();

 private:
  void draw(bool last);

  std::string m_title;
  std::size_t m_total = 0;
  std::size_t m_done = 0;
  std::chrono::steady_clock::time_point m_start;
  std::chrono::steady_clock::time_point m_drawn_at;
  bool m_active = false;  // progress was on when the work started
  bool m_shown = false;
  bool m_finished = false;
};

}  // namespace gv::util
