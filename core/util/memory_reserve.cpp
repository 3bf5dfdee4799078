#include "core/util/memory_reserve.hpp"

#include <sys/mman.h>

#include <atomic>
#include <cstddef>
#include <new>

namespace gv::util {
namespace {

// Enough for nlohmann::json to free an array of several hundred thousand values (16 bytes each,
// twice over while its vector grows) once the allocation that failed has unwound.
constexpr std::size_t k_reserve_bytes = std::size_t{16} << 20U;

std::atomic<void*> g_reserve{nullptr};

void on_allocation_failure() { throw_out_of_memory(); }

}  // namespace

void keep_memory_reserve() {
  // Address space only: no page of it is ever written, so it costs no memory and no page
  // fault, but it counts against `ulimit -v` (and a data limit, and strict overcommit) as
  // what malloc would need, and giving it back makes that much room for the unwinding.
  void* const reserve = ::mmap(nullptr, k_reserve_bytes, PROT_READ | PROT_WRITE,
                               MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (reserve == MAP_FAILED) {
    return;  // no room even for this: allocations fail as they would have
  }
  g_reserve.store(reserve);
  std::set_new_handler(on_allocation_failure);
}

void throw_out_of_memory() {
  // The handler goes with the reserve: a later failure throws at once. Any thread may get here
  // first; the reserve is given back once.
  std::set_new_handler(nullptr);
  if (void* const reserve = g_reserve.exchange(nullptr); reserve != nullptr) {
    ::munmap(reserve, k_reserve_bytes);
  }
  throw std::bad_alloc();
}

}  // namespace gv::util
