#include "core/util/mapped_file.hpp"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdint>
#include <string_view>
#include <utility>

#include "core/error.hpp"
#include "core/util/file.hpp"

// MAP_POPULATE (Linux) faults a mapping in with the mmap call; MADV_HUGEPAGE (Linux) asks for
// transparent huge pages. Both only save page faults: where the system lacks them the pages are
// faulted in on first touch, with the same bytes.
#if !defined(MAP_POPULATE)
#define MAP_POPULATE 0
#endif

namespace gv::util {
namespace {

std::atomic<bool> g_keep_mappings{false};

void unmap(void* mapping, std::size_t size) {
  if (mapping != nullptr && !g_keep_mappings.load(std::memory_order_relaxed)) {
    ::munmap(mapping, size);
  }
}

constexpr std::size_t k_huge_page = std::size_t{2} << 20U;

std::size_t round_up(std::size_t size) { return (size + k_huge_page - 1) & ~(k_huge_page - 1); }

// Whether the kernel hands out transparent huge pages to memory advised for them. Without them
// the copy is worse than the mapping: its 4 KiB pages are faulted in one by one.
bool huge_pages_offered() {
  static const bool offered = [] {
    const int fd = ::open("/sys/kernel/mm/transparent_hugepage/enabled", O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
      return false;
    }
    char text[128] = {};
    const ::ssize_t got = ::read(fd, text, sizeof text - 1);
    ::close(fd);
    const std::string_view modes(text, got > 0 ? static_cast<std::size_t>(got) : 0);
    return modes.find("[always]") != std::string_view::npos ||
           modes.find("[madvise]") != std::string_view::npos;
  }();
  return offered;
}

}  // namespace

void MappedFile::keep_mappings_until_exit() {
  g_keep_mappings.store(true, std::memory_order_relaxed);
}

bool MappedFile::copy_in(int fd, std::size_t size) {
  // One huge page more than needed, so the copy can start on a 2 MiB boundary.
  const std::size_t length = round_up(size) + k_huge_page;
  void* mapping =
      ::mmap(nullptr, length, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (mapping == MAP_FAILED) {
    return false;
  }
  auto* const start = reinterpret_cast<char*>(
      (reinterpret_cast<std::uintptr_t>(mapping) + k_huge_page - 1) & ~(k_huge_page - 1));
#if defined(MADV_HUGEPAGE)
  (void)::madvise(start, round_up(size), MADV_HUGEPAGE);
#endif
#if defined(MADV_POPULATE_WRITE)
  // Faulted in by one call rather than page by page inside read(); older kernels refuse it,
  // and the read faults them in instead.
  (void)::madvise(start, round_up(size), MADV_POPULATE_WRITE);
#endif
  std::size_t done = 0;
  while (done < size) {
    const ::ssize_t got = ::pread(fd, start + done, size - done, static_cast<::off_t>(done));
    if (got <= 0) {
      if (got < 0 && errno == EINTR) {
        continue;
      }
      ::munmap(mapping, length);
      return false;
    }
    done += static_cast<std::size_t>(got);
  }
  m_mapping = mapping;
  m_mapping_size = length;
  m_data = start;
  m_size = size;
  return true;
}

std::optional<MappedFile> MappedFile::open(const std::filesystem::path& path, Pages pages) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    return std::nullopt;
  }
  MappedFile file;
  struct ::stat info {};
  if (::fstat(fd, &info) == 0 && S_ISREG(info.st_mode) && info.st_size > 0) {
    const auto size = static_cast<std::size_t>(info.st_size);
    // Below 1 MiB the copy would zero at least twice the bytes it reads, to spare the misses
    // of a few hundred pages.
    const bool copied = pages == Pages::copy && size >= k_huge_page / 2 && huge_pages_offered() &&
                        file.copy_in(fd, size);
    const int flags = MAP_PRIVATE | (pages != Pages::on_demand ? MAP_POPULATE : 0);
    void* mapping = copied ? MAP_FAILED : ::mmap(nullptr, size, PROT_READ, flags, fd, 0);
    if (mapping != MAP_FAILED) {
      file.m_mapping = mapping;
      file.m_mapping_size = size;
      file.m_data = static_cast<const char*>(mapping);
      file.m_size = size;
    }
  }
  ::close(fd);
  if (file.m_mapping == nullptr) {
    try {
      file.m_owned = read_file(path);
    } catch (const Error&) {
      return std::nullopt;  // unreadable; running out of memory is not, and goes on up
    }
  }
  return file;
}

MappedFile::MappedFile(MappedFile&& other) noexcept
    : m_mapping(std::exchange(other.m_mapping, nullptr)),
      m_mapping_size(std::exchange(other.m_mapping_size, 0)),
      m_data(std::exchange(other.m_data, nullptr)),
      m_size(std::exchange(other.m_size, 0)),
      m_owned(std::move(other.m_owned)) {}

MappedFile& MappedFile::operator=(MappedFile&& other) noexcept {
  if (this != &other) {
    unmap(m_mapping, m_mapping_size);
    m_mapping = std::exchange(other.m_mapping, nullptr);
    m_mapping_size = std::exchange(other.m_mapping_size, 0);
    m_data = std::exchange(other.m_data, nullptr);
    m_size = std::exchange(other.m_size, 0);
    m_owned = std::move(other.m_owned);
  }
  return *this;
}

MappedFile::~MappedFile() { unmap(m_mapping, m_mapping_size); }

std::string_view MappedFile::view() const {
  return m_mapping != nullptr ? std::string_view(m_data, m_size) : std::string_view(m_owned);
}

}  // namespace gv::util
