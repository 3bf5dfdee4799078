#include "core/memory/parse_parallel.hpp"

#include <algorithm>
#include <atomic>
#include <exception>
#include <functional>
#include <system_error>
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
  // A failure on any thread (out of memory, as a rule) stops the others and is thrown here, on
  // the caller's thread: an exception leaving a thread's function would end the process.
  std::atomic<bool> failed{false};
  std::vector<std::exception_ptr> errors;
  const auto work = [&](std::exception_ptr& error) {
    try {
      for (std::size_t i = next++; i < jobs.size() && !failed; i = next++) {
        if (jobs[i].bytes != nullptr && *jobs[i].bytes) {
          out[i] = parse_memory(jobs[i].path, **jobs[i].bytes, jobs[i].blob_oid);
          if (then) {
            then(i, *out[i]);
          }
        }
      }
    } catch (...) {
      error = std::current_exception();
      failed = true;
    }
  };
  const unsigned threads = std::max(1U, std::min(8U, std::thread::hardware_concurrency()));
  const unsigned wanted = jobs.size() >= k_parallel_minimum ? threads : 1U;
  errors.resize(wanted);
  {
    // Joined on the way out, also when the work throws (what std::jthread does; libc++ has
    // jthread only from LLVM 18).
    struct Joined {
      std::vector<std::thread> threads;
      Joined() = default;
      Joined(const Joined&) = delete;
      Joined& operator=(const Joined&) = delete;
      ~Joined() {
        for (std::thread& thread : threads) {
          thread.join();
        }
      }
    } helpers;
    helpers.threads.reserve(wanted);
    for (unsigned t = 1; t < wanted; ++t) {
      try {
        helpers.threads.emplace_back(work, std::ref(errors[t]));
      } catch (const std::system_error&) {
        break;  // no thread to be had (a process or memory limit): fewer threads do it
      }
    }
    work(errors[0]);
  }
  for (const std::exception_ptr& error : errors) {
    if (error) {
      std::rethrow_exception(error);
    }
  }
  return out;
}

}  // namespace gv
