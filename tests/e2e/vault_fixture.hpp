#pragma once

#include <string>
#include <string_view>

#include "tests/e2e/sandbox.hpp"

namespace gv::test {

// A memory file with the usual frontmatter; `extra` is appended to the frontmatter verbatim and
// `body_words` filler words follow the title, so token counts are easy to work out by hand:
// the body is `# <title words>` plus the filler.
std::string memory_file(std::string_view title, std::string_view created, std::string_view keywords,
                        int retrieval_count, std::string_view last_retrieved,
                        std::string_view extra = {}, int body_words = 10,
                        std::string_view topic = "tests/e2e");

// Writes the five-memory vault the e2e tests share (today is 2026-11-30):
//   MEM-alpha  created 2026-11-20, keywords a..e, never retrieved, 15 tokens
//   MEM-beta   created 2026-08-01, keywords a b c x, retrieved 2 times (2026-10-31), 910 tokens
//   MEM-gamma  created 2026-05-01, keyword z, topic python/x, never retrieved, 15 tokens
//   MEM-delta  created 2026-01-01, keywords a b, never retrieved, 15 tokens
//   MEM-eps    tombstoned 2026-11-25 by purge
// then regenerates the index files with `git vault index` and commits everything.
void write_scored_vault(Sandbox& sandbox);

}  // namespace gv::test
