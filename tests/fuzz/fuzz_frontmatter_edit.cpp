// libFuzzer target: the minimal-diff frontmatter writer. On any file it accepts, the edits
// every action makes (a scalar set, a list set, a field removed) must leave the body
// byte-identical, and making them a second time must change nothing (the writer reads back
// what it wrote). Refusing a file is fine only with gv::Error.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "core/error.hpp"
#include "core/memory/frontmatter.hpp"
#include "core/memory/frontmatter_edit.hpp"

namespace {

std::string edit(std::string_view bytes) {
  gv::FrontmatterEditor editor(".memory/10-Memories/MEM-fuzz.md", bytes);
  editor.set_scalar("retrieval_count", "4");
  editor.set_scalar("last_retrieved", "2026-11-30");
  editor.set_list("keywords", {"retry", "back off", "x: y"});
  editor.remove("summary");
  return editor.bytes();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view bytes(reinterpret_cast<const char*>(data), size);
  std::string once;
  try {
    once = edit(bytes);
  } catch (const gv::Error&) {
    return 0;
  }
  const gv::FrontmatterSplit before = gv::split_frontmatter(bytes);
  const gv::FrontmatterSplit after = gv::split_frontmatter(once);
  if (before.body(bytes) != after.body(once)) {
    __builtin_trap();  // an edit of the frontmatter touched the body
  }
  std::string twice;
  try {
    twice = edit(once);
  } catch (const gv::Error&) {
    __builtin_trap();  // the writer cannot read back its own output
  }
  if (twice != once) {
    __builtin_trap();
  }
  return 0;
}
