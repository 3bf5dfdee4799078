#include "core/util/trace.hpp"

#include <fmt/format.h>

#include <atomic>

namespace gv::util {
namespace {

std::atomic<PerformanceSink> g_sink{nullptr};

}  // namespace

void set_performance_sink(PerformanceSink sink) { g_sink = sink; }

TracedRegion::TracedRegion(std::string what) : m_what(std::move(what)), m_sink(g_sink.load()) {
  if (m_sink != nullptr) {
    m_start = std::chrono::steady_clock::now();
  }
}

TracedRegion::~TracedRegion() {
  if (m_sink == nullptr) {
    return;
  }
  const std::chrono::duration<double> took = std::chrono::steady_clock::now() - m_start;
  m_sink(fmt::format("git-vault: performance: {:.6f} s: {}\n", took.count(), m_what));
}

}  // namespace gv::util
