#include "core/memory/parse_parallel.hpp"

#include <algorithm>
#include <atomic>
#include <thread>

namespace gv {
namespace {

// Below this many files, starting threads costs more than it saves.
constexpr std::size_t k_parallel_minimum = 64;

}  // namespace

std::vector<std::optional<ParsedMemory>> parse_in_parallel(
    const std::vector<ParseJob>& jobs,
    const std::function<void(std::size_t, const ParsedMemory&)>& then) {
  std::vector<std::optional<ParsedMemory>> out(jobs.size());
  std::atomic<std::size_t> next{0};
  const auto work = [&] {
    for (std::size_t i = next++; i < jobs.size(); i = next++) {
      if (jobs[i].bytes != nullptr && *jobs[i].bytes) {
        out[i] = parse_memory(jobs[i].path, **jobs[i].bytes, jobs[i].blob_oid);
        if (then) {
          then(i, *out[i]);
        }
      }
    }
  };
  const unsigned threads = std::max(1U, std::min(8U, std::thread::hardware_concurrency()));
  std::vector<std::thread> helpers;
  for (unsigned t = 1; t < threads && jobs.size() >= k_parallel_minimum; ++t) {
    helpers.emplace_back(work);
  }
  work();
  for (std::thread& helper : helpers) {
    helper.join();
  }
  return out;
}

}  // namespace gv
