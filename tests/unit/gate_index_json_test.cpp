#include <algorithm>
#include <catch2/catch.hpp>

#include "core/gate/index_json.hpp"
#include "core/git/blob_hasher.hpp"
#include "core/vault/index_files.hpp"
#include "tests/unit/index_test_fixtures.hpp"

namespace gate_index_json_test {

using gv::Memory;

namespace {

std::vector<Memory> sorted(std::vector<Memory> memories) {
  std::sort(memories.begin(), memories.end(),
            [](const Memory& a, const Memory& b) { return a.id < b.id; });
  return memories;
}

std::optional<std::string> assemble(const std::vector<Memory>& memories, std::string_view date) {
  std::vector<std::string> texts;
  for (const Memory& memory : memories) {
    auto text = gv::index_entry_text(memory);
    REQUIRE(text);
    texts.push_back(*text);
  }
  const std::vector<std::string_view> views(texts.begin(), texts.end());
  return gv::assemble_index_json(gv::index_rows(memories), views, date);
}

}  // namespace

TEST_CASE("memory-index.json assembled from entry texts equals the full rendering",
          "[gate][index]") {
  std::vector<Memory> memories = sorted(gv::test::small_vault());
  Memory invalid =
      gv::test::memory("MEM-e-bytes", std::string("bad \xff byte\ttab"), gv::test::ymd(2026, 1, 2));
  invalid.keywords = {"", "quote\"d"};
  memories.push_back(invalid);

  const auto assembled = assemble(memories, "2026-11-30");
  REQUIRE(assembled);
  CHECK(*assembled == gv::render_index_json(memories, "2026-11-30"));

  SECTION("one memory") {
    const std::vector<Memory> one{memories[1]};
    CHECK(assemble(one, "x") == gv::render_index_json(one, "x"));
  }
  SECTION("no memory") {
    CHECK(assemble({}, "2026-11-30") == gv::render_index_json({}, "2026-11-30"));
  }
}

TEST_CASE("an entry text is the entry alone, indented as inside the entries array",
          "[gate][index]") {
  const Memory memory = gv::test::memory("MEM-x", "X", gv::test::ymd(2026, 1, 2));
  const auto text = gv::index_entry_text(memory);
  REQUIRE(text);
  CHECK(text->starts_with("    {\n      \"id\": \"MEM-x\",\n"));
  CHECK(text->ends_with("\n    }"));
}

TEST_CASE("assembling refuses entry texts that do not match the memories", "[gate][index]") {
  const std::vector<Memory> memories = sorted(gv::test::small_vault());
  CHECK_FALSE(gv::assemble_index_json(gv::index_rows(memories), {}, "d"));
}

TEST_CASE("the blob id of the assembled index is hashed without assembling it", "[gate][index]") {
  const std::vector<Memory> memories = sorted(gv::test::small_vault());
  std::vector<std::string> texts;
  for (const Memory& memory : memories) {
    texts.push_back(*gv::index_entry_text(memory));
  }
  const std::vector<std::string_view> views(texts.begin(), texts.end());
  const auto rows = gv::index_rows(memories);
  const auto whole = gv::assemble_index_json(rows, views, "2026-11-30");
  REQUIRE(whole);
  CHECK(gv::assembled_index_json_oid(rows, views, "2026-11-30") == gv::git::hash_blob(*whole));
  CHECK(gv::assembled_index_json_oid({}, {}, "2026-11-30") ==
        gv::git::hash_blob(gv::render_index_json({}, "2026-11-30")));
  CHECK_FALSE(gv::assembled_index_json_oid(rows, {}, "2026-11-30"));
}

}  // namespace gate_index_json_test
