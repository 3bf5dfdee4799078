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
  // Whether every page is mapped up front: one call instead of a page fault per 64 KiB read, for
  // files read whole (on a virtual machine a fault can cost more than reading the page).
  enum class Pages { on_demand, populate };
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

  void* m_mapping = nullptr;
  std::size_t m_size = 0;
  std::string m_owned;  // when not mapped
};

}  // namespace gv::util
