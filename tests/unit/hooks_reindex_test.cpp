#include <catch2/catch.hpp>

#include "core/hooks/reindex.hpp"
#include "core/vault/index_files.hpp"
#include "tests/unit/index_test_fixtures.hpp"

namespace hooks_reindex_test {

using gv::CommittedIndexFiles;
using gv::hooks::plan_reindex;
using gv::test::small_vault;
using gv::test::ymd;

TEST_CASE("after a merge that left the index files current, no reindex commit is planned",
          "[hooks]") {
  const auto fresh = gv::render_index_files(small_vault(), ymd(2026, 11, 30));
  // Another day's generated_at alone is not staleness (D4).
  const auto older = gv::render_index_files(small_vault(), ymd(2026, 11, 1));
  CHECK_FALSE(plan_reindex(small_vault(), {older.index_json, fresh.index_md, fresh.memories_readme},
                           ymd(2026, 11, 30)));
}

TEST_CASE("a merge that added a memory plans one reindex commit of the stale files", "[hooks]") {
  auto before = small_vault();
  before.pop_back();  // the branch that did not have MEM-a-editor
  const auto old_files = gv::render_index_files(before, ymd(2026, 11, 1));
  const CommittedIndexFiles committed{old_files.index_json, old_files.index_md,
                                      old_files.memories_readme};
  const auto plan = plan_reindex(small_vault(), committed, ymd(2026, 11, 30));
  REQUIRE(plan);
  const auto fresh = gv::render_index_files(small_vault(), ymd(2026, 11, 30));
  CHECK(plan->changes.size() == 3);
  CHECK(plan->changes.at(".memory/memory-index.json") == fresh.index_json);
  CHECK(plan->changes.at(".memory/20-Indices/index.md") == fresh.index_md);
  CHECK(plan->changes.at(".memory/10-Memories/README.md") == fresh.memories_readme);
  CHECK(plan->subject == "vault(reindex): regenerate index files after merge");
  const std::string message = plan->message();
  CHECK(message.starts_with("vault(reindex): regenerate index files after merge\n\n"));
  CHECK(message.find("  .memory/memory-index.json\n") != std::string::npos);
  CHECK(message.ends_with("\n\nVault-Action: reindex\n"));
}

}  // namespace hooks_reindex_test
