#pragma once

#include <chrono>
#include <string>
#include <string_view>

// Where a command's time goes, for the benchmark and for anyone who asks: once the process has
// a sink (cmd/main.cpp installs one for GIT_VAULT_TRACE_PERFORMANCE), each traced region hands
// it one line when it ends, in the shape of git's GIT_TRACE_PERFORMANCE:
//   git-vault: performance: 0.007512 s: duplicate scoring of 10000 memories
// Without a sink nothing is timed. The sink does the writing, so a region can sit in a pure
// layer (doc/performance.md, "Duplicate scoring timed by the benchmark").
namespace gv::util {

using PerformanceSink = void (*)(std::string_view line);

// nullptr turns tracing off. Set once, before any region starts.
void set_performance_sink(PerformanceSink sink);

// A region is a piece of work done once or a few times per command, so its label is built
// whether or not anyone reads it.
class TracedRegion {
 public:
  explicit TracedRegion(std::string what);
  ~TracedRegion();
  TracedRegion(const TracedRegion&) = delete;
  TracedRegion& operator=(const TracedRegion&) = delete;

 private:
  std::string m_what;
  std::chrono::steady_clock::time_point m_start;
  PerformanceSink m_sink = nullptr;  // the sink when the region started
};

}  // namespace gv::util
