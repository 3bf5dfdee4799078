#include "tests/e2e/vault_fixture.hpp"

#include <fmt/format.h>

#include <catch2/catch.hpp>

namespace gv::test {

std::string memory_file(std::string_view title, std::string_view created, std::string_view keywords,
                        int retrieval_count, std::string_view last_retrieved,
                        std::string_view extra, int body_words, std::string_view topic) {
  std::string body;
  for (int i = 0; i < body_words; ++i) {
    body += fmt::format("w{}{}", i, (i % 10 == 9) ? "\n" : " ");
  }
  return fmt::format(
      "---\ntitle: \"{}\"\ncreated: {}\ntags: [PATTERN]\ntopic: \"{}\"\nsource: \"user input\"\n"
      "modified: {}\nkeywords: [{}]\nsummary: \"{} summary\"\nretrieval_count: {}\n"
      "last_retrieved: {}\n{}---\n\n# {}\n\n{}\n",
      title, created, topic, created, keywords, title, retrieval_count, last_retrieved, extra,
      title, body);
}

void write_scored_vault(Sandbox& sandbox) {
  sandbox.write(".memory/10-Memories/MEM-alpha.md",
                memory_file("Alpha", "2026-11-20", "a, b, c, d, e", 0, "null"));
  sandbox.write(".memory/10-Memories/MEM-beta.md",
                memory_file("Beta", "2026-08-01", "a, b, c, x", 2, "2026-10-31", {}, 698));
  sandbox.write(".memory/10-Memories/MEM-gamma.md",
                memory_file("Gamma", "2026-05-01", "z", 0, "null", {}, 10, "python/x"));
  sandbox.write(".memory/10-Memories/MEM-delta.md",
                memory_file("Delta", "2026-01-01", "a, b", 0, "null"));
  sandbox.write(".memory/10-Memories/MEM-eps.md",
                memory_file("Eps", "2026-02-01", "q", 0, "null",
                            "status: tombstoned\ntombstoned_at: 2026-11-25\n"
                            "tombstone_reason: \"purge\"\n"));
  // A repository that keeps specs/state.json, as the agents' planning tools do: actions refresh
  // its memory_health (D8). Without one, none is created (tests/e2e/working_memory_test.cpp).
  sandbox.write("specs/state.json", "{}\n");
  const Result index = sandbox.vault({"index"});
  INFO(index.err);
  REQUIRE(index.code == 0);
  sandbox.commit_all("vault fixture");
}

}  // namespace gv::test
