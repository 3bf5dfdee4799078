#include "core/vault/index_carry_over.hpp"

#include <catch2/catch.hpp>

#include "tests/unit/index_test_fixtures.hpp"

namespace index_carry_over_test {

using gv::test::memory;
using gv::test::ymd;

namespace {

// The entry fields carry-over reads; the rest of IndexEntryRecord stays empty.
struct Row {
  std::string id;
  std::int64_t retrieval_count;
  std::optional<gv::Date> last_retrieved;
};

gv::ExistingIndex index_of(const std::vector<Row>& rows) {
  gv::ExistingIndex index;
  for (const Row& row : rows) {
    gv::IndexEntryRecord entry;
    entry.id = row.id;
    entry.retrieval_count = row.retrieval_count;
    entry.last_retrieved = row.last_retrieved;
    index.entries.push_back(std::move(entry));
  }
  return index;
}

}  // namespace

TEST_CASE("counts kept only in the index are carried into frontmatter", "[index]") {
  gv::Memory counted = memory("MEM-b", "B", ymd(2026, 4, 13));  // frontmatter says 0, never
  gv::Memory ahead = memory("MEM-a", "A", ymd(2026, 4, 13));
  ahead.retrieval_count = 9;  // frontmatter ahead of the index: nothing to carry
  ahead.last_retrieved = ymd(2026, 10, 1);
  gv::Memory mixed = memory("MEM-c", "C", ymd(2026, 4, 13));
  mixed.retrieval_count = 10;  // larger here, but the index has the later date
  mixed.last_retrieved = ymd(2026, 5, 1);
  gv::Memory unindexed = memory("MEM-d", "D", ymd(2026, 4, 13));

  const gv::ExistingIndex index = index_of({
      {"MEM-b", 72, ymd(2026, 9, 18)},
      {"MEM-a", 3, ymd(2026, 9, 1)},
      {"MEM-c", 2, ymd(2026, 6, 1)},
      {"MEM-orphan", 50, ymd(2026, 9, 1)},
  });

  const auto carry = gv::retrieval_carry_over({unindexed, mixed, counted, ahead}, index);
  REQUIRE(carry.size() == 2);
  CHECK(carry[0].id == "MEM-b");
  CHECK(carry[0].retrieval_count == 72);
  CHECK(carry[0].last_retrieved == ymd(2026, 9, 18));
  CHECK(carry[1].id == "MEM-c");
  CHECK_FALSE(carry[1].retrieval_count);
  CHECK(carry[1].last_retrieved == ymd(2026, 6, 1));
}

TEST_CASE("a repeated index id carries its largest count and latest date", "[index]") {
  const auto carry = gv::retrieval_carry_over({memory("MEM-a", "A", ymd(2026, 1, 1))},
                                              index_of({{"MEM-a", 4, ymd(2026, 3, 1)},
                                                        {"MEM-a", 2, ymd(2026, 5, 1)},
                                                        {"MEM-a", 1, std::nullopt}}));
  REQUIRE(carry.size() == 1);
  CHECK(carry[0].retrieval_count == 4);
  CHECK(carry[0].last_retrieved == ymd(2026, 5, 1));
}

TEST_CASE("tombstoned memories keep their carried counts too", "[index]") {
  gv::Memory gone = memory("MEM-a", "A", ymd(2026, 1, 1));
  gone.tombstoned = true;
  gone.tombstoned_at = ymd(2026, 11, 1);
  const auto carry = gv::retrieval_carry_over({gone}, index_of({{"MEM-a", 1, std::nullopt}}));
  REQUIRE(carry.size() == 1);
  CHECK(carry[0].retrieval_count == 1);
  CHECK_FALSE(carry[0].last_retrieved);
}

TEST_CASE("nothing is carried when frontmatter already holds the index's values", "[index]") {
  gv::Memory same = memory("MEM-a", "A", ymd(2026, 1, 1));
  same.retrieval_count = 3;
  same.last_retrieved = ymd(2026, 2, 1);
  CHECK(gv::retrieval_carry_over({same}, index_of({{"MEM-a", 3, ymd(2026, 2, 1)}})).empty());
  CHECK(gv::retrieval_carry_over({same}, index_of({})).empty());
}

TEST_CASE("carried values apply to the memories that scoring and the index see", "[index]") {
  gv::Memory a = memory("MEM-a", "A", ymd(2026, 1, 1));
  a.retrieval_count = 2;
  a.last_retrieved = ymd(2026, 3, 1);
  const gv::Memory b = memory("MEM-b", "B", ymd(2026, 1, 1));
  const std::vector<gv::RetrievalCarry> carry = {{"MEM-a", std::nullopt, ymd(2026, 4, 1)},
                                                 {"MEM-b", 7, std::nullopt}};
  const auto applied = gv::with_carried_retrievals({a, b}, carry);
  REQUIRE(applied.size() == 2);
  CHECK(applied[0].retrieval_count == 2);
  CHECK(applied[0].last_retrieved == ymd(2026, 4, 1));
  CHECK(applied[1].retrieval_count == 7);
  CHECK_FALSE(applied[1].last_retrieved);
}

}  // namespace index_carry_over_test
