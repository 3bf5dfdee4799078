#include "core/util/mapped_file.hpp"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <utility>

#include "core/util/file.hpp"

namespace gv::util {
namespace {

std::atomic<bool> g_keep_mappings{false};

void unmap(void* mapping, std::size_t size) {
  if (mapping != nullptr && !g_keep_mappings.load(std::memory_order_relaxed)) {
    ::munmap(mapping, size);
  }
}

}  // namespace

void MappedFile::keep_mappings_until_exit() {
  g_keep_mappings.store(true, std::memory_order_relaxed);
}

std::optional<MappedFile> MappedFile::open(const std::filesystem::path& path, Pages pages) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    return std::nullopt;
  }
  MappedFile file;
  struct ::stat info {};
  if (::fstat(fd, &info) == 0 && S_ISREG(info.st_mode) && info.st_size > 0) {
    const int flags = MAP_PRIVATE | (pages == Pages::populate ? MAP_POPULATE : 0);
    void* mapping =
        ::mmap(nullptr, static_cast<std::size_t>(info.st_size), PROT_READ, flags, fd, 0);
    if (mapping != MAP_FAILED) {
      file.m_mapping = mapping;
      file.m_size = static_cast<std::size_t>(info.st_size);
    }
  }
  ::close(fd);
  if (file.m_mapping == nullptr) {
    try {
      file.m_owned = read_file(path);
    } catch (const std::exception&) {
      return std::nullopt;
    }
  }
  return file;
}

MappedFile::MappedFile(MappedFile&& other) noexcept
    : m_mapping(std::exchange(other.m_mapping, nullptr)),
      m_size(std::exchange(other.m_size, 0)),
      m_owned(std::move(other.m_owned)) {}

MappedFile& MappedFile::operator=(MappedFile&& other) noexcept {
  if (this != &other) {
    unmap(m_mapping, m_size);
    m_mapping = std::exchange(other.m_mapping, nullptr);
    m_size = std::exchange(other.m_size, 0);
    m_owned = std::move(other.m_owned);
  }
  return *this;
}

MappedFile::~MappedFile() { unmap(m_mapping, m_size); }

std::string_view MappedFile::view() const {
  return m_mapping != nullptr ? std::string_view(static_cast<const char*>(m_mapping), m_size)
                              : std::string_view(m_owned);
}

}  // namespace gv::util
