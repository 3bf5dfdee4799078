#include "core/util/heap.hpp"

#if defined(GV_HAVE_MALLINFO2)
#include <malloc.h>
#endif
#include <sys/mman.h>
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdlib>

// GCC names AddressSanitizer with a macro, clang with a feature test.
#if defined(__SANITIZE_ADDRESS__)
#define GV_HEAP_SANITIZED 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define GV_HEAP_SANITIZED 1
#endif
#endif

namespace gv::util {

#if !defined(GV_HEAP_SANITIZED) && defined(GV_HAVE_MALLINFO2)
namespace {

constexpr std::uintptr_t k_heap_huge_page = std::uintptr_t{2} << 20U;
// Address space only: a page is backed when it is first touched.
constexpr std::uintptr_t k_reserve = std::uintptr_t{1} << 30U;
constexpr std::uintptr_t k_page = 4096;

std::uintptr_t align_up(std::uintptr_t value) {
  return (value + k_heap_huge_page - 1) & ~(k_heap_huge_page - 1);
}

// The C library has allocated before main (its own start-up does), so the heap already had a
// top of about 128 KiB, its first page or two written. Growing past the moved break frees what
// was left of that top as an ordinary free block, and small requests would be carved from it
// page by page: a hook's run faulted in 14 of its small pages. Taken whole and kept, untouched,
// it leaves every later block to the huge pages. The block is found by what is free below the
// reserve; when the request is not served from there, it is given back and nothing changes.
void retire_old_top(std::uintptr_t boundary) {
  const struct mallinfo2 info = mallinfo2();
  if (info.fordblks <= info.keepcost + k_page) {
    return;  // nothing worth keeping is free below the reserve
  }
  const std::size_t free_below = info.fordblks - info.keepcost;
  void* const block = std::malloc(free_below - sizeof(std::size_t));  // its header is the rest
  if (block != nullptr && reinterpret_cast<std::uintptr_t>(block) >= boundary) {
    std::free(block);
  }
}

}  // namespace
#endif

void tune_heap() {
#if !defined(GV_HAVE_MALLINFO2)
  // The tuning speaks to glibc's allocator (mallopt, mallinfo2; CMakeLists.txt checks for them).
  // Other C libraries keep their own defaults: it only saves page faults.
  return;
#else
  // A run allocates and frees buffers of megabytes (a file read whole, a rendered index) many
  // times. By default glibc maps each one afresh and unmaps it on free, so every reuse faults
  // its pages in again. Kept in the heap, freed pages are reused as they are.
  (void)mallopt(M_MMAP_THRESHOLD, 32 * 1024 * 1024);
  // Nor is the top of the heap handed back: growing again would not be advised as below.
  (void)mallopt(M_TRIM_THRESHOLD, 1024 * 1024 * 1024);
  // No "fast bins": glibc parks small freed blocks there unmerged and merges them all at the
  // next large request, when they have long left the cache; at 100,000 memories that merging
  // was 8% of a report. Merged as they are freed (the per-thread cache still takes most frees
  // first), a report over 100,000 memories took 1.61 -> 1.35 s and working memory of 50,000
  // entries 642 -> 563 ms (doc/performance.md, "Page faults and the heap").
  (void)mallopt(M_MXFAST, 0);

  // Every 4 KiB page a process touches for the first time is a page fault, and on the virtual
  // machines git-vault is measured on each costs 10 to 20 microseconds, where a 2 MiB huge page
  // costs about 150: a warm report over 1,000 memories touched 900 heap pages, a third of its
  // time. So the heap grows once, by an address-space reserve, and the reserve is marked for
  // transparent huge pages before anything is written to it (a 2 MiB block with one small page
  // in it stays small). Where the system offers no huge pages the advice does nothing.
  //
  // The break is first moved (a gap glibc accepts as another sbrk user's) so that the chunk
  // that makes the heap grow, and the header of the free space after it, end just below a
  // 2 MiB boundary: those are the only bytes malloc writes while growing, and the reserve is
  // advised from that boundary on. The chunk asks for more than the heap has left, so that it
  // cannot come from there; it is kept, untouched, as address space.
#if defined(GV_HEAP_SANITIZED)
  // The sanitizer's allocator does not use the break at all, and would report the kept chunk.
  return;
#else
  auto* const current = static_cast<char*>(::sbrk(0));
  if (current == reinterpret_cast<char*>(-1)) {
    return;
  }
  const std::uintptr_t request = mallinfo2().keepcost + k_page;
  const std::uintptr_t chunk = (request + 8 + 15) & ~std::uintptr_t{15};  // glibc's chunk size
  const auto now = reinterpret_cast<std::uintptr_t>(current);
  const std::uintptr_t boundary = align_up(now + chunk + 2 * k_page);
  const std::uintptr_t start = boundary - k_page - chunk;
  if (::sbrk(static_cast<std::intptr_t>(start - now)) == reinterpret_cast<void*>(-1)) {
    return;
  }
  (void)mallopt(M_TOP_PAD, static_cast<int>(k_reserve));
  void* const growth = std::malloc(request);
  const auto end = reinterpret_cast<std::uintptr_t>(::sbrk(0));
  (void)mallopt(M_TOP_PAD, 128 * 1024);  // glibc's default again for any later growth
  const std::uintptr_t stop = end & ~(k_heap_huge_page - 1);
  if (growth != nullptr && reinterpret_cast<std::uintptr_t>(growth) < boundary && stop > boundary) {
#if defined(MADV_HUGEPAGE)
    (void)::madvise(reinterpret_cast<void*>(boundary), stop - boundary, MADV_HUGEPAGE);
#endif
  } else {
    std::free(growth);  // the heap did not grow as planned: nothing to keep
    return;
  }
  retire_old_top(boundary);
#endif
#endif
}

}  // namespace gv::util
