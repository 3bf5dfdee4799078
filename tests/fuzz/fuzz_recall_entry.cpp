// libFuzzer target: the working-memory entry parser (recall). It never throws; every entry it
// reports lies inside the file, in order, and its offsets frame its own line.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>

#include "core/recall/entry.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string bytes(reinterpret_cast<const char*>(data), size);
  const std::size_t lines =
      1 + static_cast<std::size_t>(std::count(bytes.begin(), bytes.end(), '\n'));
  gv::recall::ManagedFile file{"CLAUDE.local.md", "CLAUDE.local.md", gv::recall::Tier::working};
  const gv::recall::ParsedFile parsed = gv::recall::parse_file(file, std::move(bytes));
  std::size_t previous_end = 0;
  for (const gv::recall::Entry& entry : parsed.entries) {
    if (entry.line < 1 || static_cast<std::size_t>(entry.line) > lines ||
        entry.begin < previous_end || entry.begin > entry.content_end ||
        entry.content_end > entry.end || entry.end > parsed.bytes.size() ||
        parsed.bytes.compare(entry.begin, entry.content_end - entry.begin, entry.raw) != 0) {
      __builtin_trap();
    }
    previous_end = entry.end;
  }
  return 0;
}
