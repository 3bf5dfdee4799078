#include "core/util/progress.hpp"

#include <fmt/format.h>
#include <unistd.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>

namespace gv::util {
namespace {

std::atomic<bool> g_enabled{false};

// Redraws at most this often: a terminal that scrolls fast slows the work it reports.
constexpr auto k_redraw = std::chrono::milliseconds(100);

std::chrono::milliseconds start_delay() {
  // git's GIT_PROGRESS_DELAY, in whole seconds; anything unreadable keeps the default.
  if (const char* value = std::getenv("GIT_PROGRESS_DELAY"); value != nullptr && *value != '\0') {
    char* end = nullptr;
    const long seconds = std::strtol(value, &end, 10);
    if (*end == '\0' && seconds >= 0 && seconds < 3600) {
      return std::chrono::seconds(seconds);
    }
  }
  return std::chrono::seconds(1);
}

}  // namespace

void enable_progress(bool on) { g_enabled = on; }

Progress::Progress(std::string title, std::size_t total)
    : m_title(std::move(title)),
      m_total(total),
      m_start(std::chrono::steady_clock::now()),
      m_active(g_enabled && ::isatty(STDERR_FILENO) != 0) {}

Progress::~Progress() { finish(); }

void Progress::update(std::size_t done) {
  m_done = done;
  if (!m_active || m_finished || !g_enabled) {
    return;
  }
  const auto now = std::chrono::steady_clock::now();
  if (!m_shown && now - m_start < start_delay()) {
    return;
  }
  if (m_shown && now - m_drawn_at < k_redraw) {
    return;
  }
  m_drawn_at = now;
  draw(false);
}

void Progress::finish() {
  if (m_finished) {
    return;
  }
  m_finished = true;
  if (m_shown && g_enabled) {
    m_done = m_total;
    draw(true);
  }
}

void Progress::draw(bool last) {
  m_shown = true;
  const std::size_t percent = m_total == 0 ? 100 : m_done * 100 / m_total;
  const std::string line = fmt::format("\r{}: {:3}% ({}/{}){}", m_title, percent, m_done, m_total,
                                       last ? ", done.\n" : "");
  std::fputs(line.c_str(), stderr);
  std::fflush(stderr);
}

}  // namespace gv::util
