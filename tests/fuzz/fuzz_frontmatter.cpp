// libFuzzer target: the memory file parser (frontmatter, schema, tokens, links). parse_memory
// promises never to throw on bad input, so any exception is a finding.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "core/memory/parse.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view bytes(reinterpret_cast<const char*>(data), size);
  const gv::ParsedMemory parsed = gv::parse_memory(".memory/10-Memories/MEM-fuzz.md", bytes,
                                                   "0000000000000000000000000000000000000000");
  if (parsed.memory && parsed.memory->id != "MEM-fuzz") {
    __builtin_trap();
  }
  return 0;
}
