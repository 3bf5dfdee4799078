#pragma once

#include <cstddef>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

namespace gv::util {

// A file's bytes, mapped read-only (only the pages read are loaded), or read into memory where
// mapping fails. Move-only; the view lives as long as the object.
class MappedFile {
 public:
  // How the bytes come in.
  // - on_demand: mapped; a page is loaded when first read.
  // - populate: mapped, every page up front: one call instead of a page fault per 64 KiB read,
  //   for files read whole (on a virtual machine a fault can cost more than reading the page).
  // - copy: for files of megabytes read whole, start to end (the git index, the gate
  //   baseline's entries): read into memory backed by 2 MiB pages. Walking a mapped file
  //   misses the TLB at every 4 KiB page, which on a virtual machine cost 3.5 ms for a 12 MB
  //   index; copied, the file is in hand in 1 ms and walked in 0.2 (doc/performance.md,
  //   "Files read whole"). Mapped as `populate` where the system offers no huge pages, for a
  //   small file, or when the copy fails.
  enum class Pages { on_demand, populate, copy };
  // nullopt when the file does not exist or cannot be opened.
  [[nodiscard]] static std::optional<MappedFile> open(const std::filesystem::path& path,
                                                      Pages pages = Pages::on_demand);

  MappedFile(MappedFile&& other) noexcept;
  MappedFile& operator=(MappedFile&& other) noexcept;
  MappedFile(const MappedFile&) = delete;
  MappedFile& operator=(const MappedFile&) = delete;
  ~MappedFile();

  [[nodiscard]] std::string_view view() const;

  // From now on mappings are left in place when their objects go, for a process about to exit:
  // unmapping a file's pages one mapping at a time costs several times what the exit's teardown
  // of the whole address space costs for them (doc/performance.md, "The hook's start-up").
  // Only for a run that maps a bounded number of files, as the commit hook does.
  static void keep_mappings_until_exit();

 private:
  MappedFile() = default;

  // Maps the file into memory backed by huge pages; false when it cannot.
  bool copy_in(int fd, std::size_t size);

  void* m_mapping = nullptr;  // what munmap is given: the file's mapping or the copy's
  std::size_t m_mapping_size = 0;
  const char* m_data = nullptr;
  std::size_t m_size = 0;
  std::string m_owned;  // when not mapped
};

}  // namespace gv::util
