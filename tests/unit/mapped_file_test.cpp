// MappedFile gives a file's bytes however they come in: mapped on demand, mapped up front, or
// copied into memory backed by huge pages (core/util/mapped_file.hpp). Each way must give the
// same bytes, for files on either side of the size where copying starts.
#include "core/util/mapped_file.hpp"

#include <stdlib.h>

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <string>

namespace mapped_file_test {

namespace fs = std::filesystem;
using gv::util::MappedFile;

namespace {

fs::path unique_temp_dir() {
  std::string pattern = (fs::temp_directory_path() / "gv-mapped-XXXXXX").string();
  REQUIRE(::mkdtemp(pattern.data()) != nullptr);
  return pattern;
}

std::string pattern_bytes(std::size_t size) {
  std::string out(size, '\0');
  std::uint32_t state = 12345;
  for (char& c : out) {
    state = state * 1103515245U + 12345U;
    c = static_cast<char>(state >> 24U);
  }
  return out;
}

}  // namespace

TEST_CASE("every way of reading a file gives its bytes", "[mapped-file]") {
  const fs::path dir = unique_temp_dir();
  for (const std::size_t size :
       {std::size_t{1}, std::size_t{4096}, std::size_t{1} << 20U, (std::size_t{3} << 20U) + 17}) {
    const fs::path file = dir / ("f" + std::to_string(size));
    const std::string bytes = pattern_bytes(size);
    {
      std::ofstream out(file, std::ios::binary);
      out << bytes;
    }
    for (const MappedFile::Pages pages :
         {MappedFile::Pages::on_demand, MappedFile::Pages::populate, MappedFile::Pages::copy}) {
      INFO("size " << size << ", mode " << static_cast<int>(pages));
      std::optional<MappedFile> mapped = MappedFile::open(file, pages);
      REQUIRE(mapped);
      CHECK(mapped->view() == bytes);
      // Moved, the bytes go with it.
      MappedFile moved = std::move(*mapped);
      CHECK(moved.view() == bytes);
    }
  }
  const fs::path empty = dir / "empty";
  { std::ofstream out(empty); }
  std::optional<MappedFile> none = MappedFile::open(empty, MappedFile::Pages::copy);
  REQUIRE(none);
  CHECK(none->view().empty());
  CHECK_FALSE(MappedFile::open(dir / "missing", MappedFile::Pages::copy));
  fs::remove_all(dir);
}

}  // namespace mapped_file_test
