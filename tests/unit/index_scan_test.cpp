// The fast path of read_index (core/vault/index_scan.hpp) against the full reader: wherever it
// answers, the answer is the full reader's, with no findings; on anything odd it steps aside.
#include "core/vault/index_scan.hpp"

#include <catch2/catch.hpp>
#include <random>
#include <string>

#include "core/vault/index_files.hpp"
#include "core/vault/index_reader.hpp"
#include "tests/unit/index_test_fixtures.hpp"

namespace index_scan_test {

namespace {

constexpr std::string_view k_path = ".memory/memory-index.json";

void require_equal(const gv::ExistingIndex& fast, const gv::ExistingIndex& full) {
  REQUIRE(fast.entries.size() == full.entries.size());
  for (std::size_t i = 0; i < fast.entries.size(); ++i) {
    CHECK(fast.entries[i].id == full.entries[i].id);
    CHECK(fast.entries[i].retrieval_count == full.entries[i].retrieval_count);
    CHECK(fast.entries[i].last_retrieved == full.entries[i].last_retrieved);
    CHECK(fast.entries[i].tombstoned_at == full.entries[i].tombstoned_at);
  }
}

// The fast path's contract on one document.
void check_agrees(const std::string& bytes) {
  const std::optional<gv::ExistingIndex> fast = gv::scan_clean_index(bytes);
  if (!fast) {
    return;
  }
  const gv::IndexReadResult full = gv::read_index_fully(k_path, bytes);
  INFO(bytes);
  REQUIRE(full.index.has_value());
  CHECK(full.findings.empty());
  require_equal(*fast, *full.index);
}

}  // namespace

TEST_CASE("the fast index scan reads what git-vault writes exactly as the full reader", "[index]") {
  std::vector<gv::Memory> memories = gv::test::small_vault();
  memories[0].retrieval_count = 72;
  memories[0].last_retrieved = gv::test::ymd(2026, 9, 18);
  const std::string bytes =
      gv::render_index_files(memories, gv::test::ymd(2026, 11, 30)).index_json;
  const std::optional<gv::ExistingIndex> fast = gv::scan_clean_index(bytes);
  REQUIRE(fast.has_value());  // the common case takes the fast path
  const gv::IndexReadResult full = gv::read_index_fully(k_path, bytes);
  REQUIRE(full.index.has_value());
  require_equal(*fast, *full.index);
  CHECK(fast->entries.size() == memories.size());

  SECTION("every single-byte change, deletion and insertion still agrees or steps aside") {
    std::mt19937 random(11);
    const std::string alphabet = "{}[]\",:\\ 0123456789-.eEnulltrue\x01\xc3\xa9\xff";
    for (int round = 0; round < 3000; ++round) {
      std::string mutated = bytes;
      const std::size_t at = random() % mutated.size();
      switch (random() % 3) {
        case 0:
          mutated[at] = alphabet[random() % alphabet.size()];
          break;
        case 1:
          mutated.erase(at, 1 + random() % 3);
          break;
        default:
          mutated.insert(at, 1, alphabet[random() % alphabet.size()]);
          break;
      }
      check_agrees(mutated);
    }
  }
}

TEST_CASE("the fast index scan steps aside for anything the full reader would report", "[index]") {
  for (const std::string& bytes : {
           std::string(R"({"entries": [{"id": "MEM-a", "retrieval_count": -1}]})"),
           std::string(R"({"entries": [{"id": "MEM-a", "retrieval_count": 2.5}]})"),
           std::string(R"({"entries": [{"id": "MEM-a", "last_retrieved": "soon"}]})"),
           std::string(R"({"entries": [{"id": ""}]})"),
           std::string(R"({"entries": [{"id": "MEM-a", "id": "MEM-b"}]})"),
           std::string(R"({"entries": [3]})"),
           std::string(R"({"entries": {}})"),
           std::string(R"({"version": 1})"),
           std::string(R"({"entries": [{"id": "MEM-\u0061"}]})"),
           std::string(R"({"entries": []} x)"),
           std::string(R"([])"),
       }) {
    INFO(bytes);
    CHECK_FALSE(gv::scan_clean_index(bytes).has_value());
  }
  // Variants the full reader takes cleanly are taken by the fast path too.
  const auto read =
      gv::scan_clean_index(R"({"version": 1, "generated_at": "2026-04-15T00:00:00Z", "entries": [)"
                           R"({"id": "MEM-a", "title": "caf\u00e9", "retrieval_count": 8}]})");
  CHECK_FALSE(read.has_value());  // a \u escape anywhere: the full reader decides
  const auto plain = gv::scan_clean_index(
      "{\"version\": 1, \"entries\": [{\"id\": \"MEM-a\", \"title\": \"caf\xc3\xa9\", "
      "\"retrieval_count\": 8, \"last_retrieved\": \"\", \"tombstoned_at\": \"2026-01-02\"}]}");
  REQUIRE(plain.has_value());
  REQUIRE(plain->entries.size() == 1);
  CHECK(plain->entries[0].retrieval_count == 8);
  CHECK_FALSE(plain->entries[0].last_retrieved);
  CHECK(plain->entries[0].tombstoned_at == "2026-01-02");
}

}  // namespace index_scan_test
