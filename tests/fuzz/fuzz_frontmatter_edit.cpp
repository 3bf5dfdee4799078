// libFuzzer target: the minimal-diff frontmatter writer. On any file it accepts, the edits
// every action makes (a scalar set, a list set, a field removed) must leave the body
// byte-identical, land where the parser reads (the retrieval count parses back as set), and,
// when no key is repeated, change nothing when made a second time (a repeated key is edited at
// its first occurrence, as the parser reads it, so removing it again removes the next one).
// Refusing a file is fine only with gv::Error.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <set>
#include <string>
#include <string_view>

#include "core/error.hpp"
#include "core/memory/frontmatter.hpp"
#include "core/memory/frontmatter_edit.hpp"
#include "core/memory/parse.hpp"

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
  // Actions edit only memories that parse without errors; on those the count reads back.
  const gv::ParsedMemory original =
      gv::parse_memory(".memory/10-Memories/MEM-fuzz.md", bytes, std::string(40, '0'));
  const bool clean =
      original.memory && std::none_of(original.findings.begin(), original.findings.end(),
                                      [](const gv::Finding& finding) {
                                        return finding.severity == gv::Severity::error;
                                      });
  if (clean) {
    const gv::ParsedMemory parsed =
        gv::parse_memory(".memory/10-Memories/MEM-fuzz.md", once, std::string(40, '0'));
    if (parsed.memory && parsed.memory->retrieval_count != 4) {
      __builtin_trap();  // the edit landed where the parser does not look
    }
  }
  std::set<std::string> keys;
  for (const gv::FrontmatterKey& key : before.keys) {
    if (!keys.insert(key.key).second) {
      return 0;  // a repeated key: see above
    }
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
