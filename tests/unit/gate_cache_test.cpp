#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

#include "core/vault/parse_cache_file.hpp"
#include "tests/unit/index_test_fixtures.hpp"

namespace gate_cache_test {

using gv::Finding;
using gv::Memory;
using gv::ParsedMemory;
using gv::PersistentParseCache;
using gv::Severity;
using gv::test::ymd;

namespace {

Memory full_memory() {
  Memory m = gv::test::memory("MEM-full", "Full \"title\" é", ymd(2026, 4, 13));
  m.blob_oid = "0123456789abcdef0123456789abcdef01234567";
  m.modified = ymd(2026, 5, 2);
  m.tags = {"PATTERN", "x"};
  m.topic = "python/libs";
  m.keywords = {"retry", " Backoff "};
  m.summary = "sum\nmary";
  m.source = "seed";
  m.category = "PATTERN";
  m.retrieval_count = -3;  // the codec must not assume non-negative numbers
  m.last_retrieved = ymd(2026, 5, 1);
  m.tombstoned = true;
  m.tombstoned_at = ymd(1960, 1, 1);
  m.tombstone_reason = "purge";
  m.token_count = 123456789012;
  m.links = {"MEM-a", "MEM-b"};
  m.link_lines = {12, 40};
  return m;
}

Finding finding(std::string check, std::optional<int> line) {
  Finding f;
  f.check = std::move(check);
  f.severity = Severity::warning;
  f.path = ".memory/10-Memories/MEM-full.md";
  f.line = line;
  f.id = "MEM-full";
  f.message = "message";
  f.fix = "fix";
  return f;
}

void check_same(const Memory& a, const Memory& b) {
  CHECK(a.id == b.id);
  CHECK(a.path == b.path);
  CHECK(a.blob_oid == b.blob_oid);
  CHECK(a.title == b.title);
  CHECK(a.created == b.created);
  CHECK(a.modified == b.modified);
  CHECK(a.tags == b.tags);
  CHECK(a.topic == b.topic);
  CHECK(a.keywords == b.keywords);
  CHECK(a.summary == b.summary);
  CHECK(a.source == b.source);
  CHECK(a.category == b.category);
  CHECK(a.retrieval_count == b.retrieval_count);
  CHECK(a.last_retrieved == b.last_retrieved);
  CHECK(a.tombstoned == b.tombstoned);
  CHECK(a.tombstoned_at == b.tombstoned_at);
  CHECK(a.tombstone_reason == b.tombstone_reason);
  CHECK(a.token_count == b.token_count);
  CHECK(a.links == b.links);
  CHECK(a.link_lines == b.link_lines);
}

PersistentParseCache filled_cache() {
  PersistentParseCache cache;
  cache.store(".memory/10-Memories/MEM-full.md", "oid1",
              ParsedMemory{full_memory(),
                           {finding("schema", 4), finding("schema", std::nullopt)},
                           {{12, "GitHub token"}, {30, "private key"}}});
  cache.store(".memory/10-Memories/MEM-bad.md", "oid2",
              ParsedMemory{std::nullopt, {finding("schema", 1)}, {}});
  cache.store_fragment(".memory/10-Memories/MEM-full.md", "oid1", "    {\n      \"id\": 1\n    }");
  cache.store_state("digest-a", {finding("dangling-link", 9)});
  return cache;
}

// A cache of more entries than a save keeps unused (4,096), all stored in this process.
PersistentParseCache five_thousand_entries() {
  PersistentParseCache cache;
  for (int i = 0; i < 5000; ++i) {
    cache.store("p" + std::to_string(i), "o", ParsedMemory{});
  }
  return cache;
}

}  // namespace

TEST_CASE("the parse cache round-trips every field of a parsed memory", "[gate][cache]") {
  const PersistentParseCache loaded = PersistentParseCache::from_bytes(filled_cache().to_bytes());
  REQUIRE(loaded.size() == 2);

  const ParsedMemory* full = loaded.find(".memory/10-Memories/MEM-full.md", "oid1");
  REQUIRE(full != nullptr);
  REQUIRE(full->memory);
  check_same(*full->memory, full_memory());
  REQUIRE(full->findings.size() == 2);
  CHECK(full->findings[0].line == 4);
  CHECK_FALSE(full->findings[1].line);
  CHECK(full->findings[0].severity == Severity::warning);
  CHECK(full->findings[0].fix == "fix");
  CHECK(full->secrets ==
        std::vector<gv::secrets::SecretFinding>{{12, "GitHub token"}, {30, "private key"}});

  const ParsedMemory* bad = loaded.find(".memory/10-Memories/MEM-bad.md", "oid2");
  REQUIRE(bad != nullptr);
  CHECK_FALSE(bad->memory);
  CHECK(bad->findings.size() == 1);
  CHECK(bad->secrets.empty());

  CHECK(loaded.find(".memory/10-Memories/MEM-full.md", "oid2") == nullptr);
  CHECK(loaded.find_fragment(".memory/10-Memories/MEM-full.md", "oid1") ==
        std::optional<std::string_view>("    {\n      \"id\": 1\n    }"));
  CHECK_FALSE(loaded.find_fragment(".memory/10-Memories/MEM-bad.md", "oid2"));

  const auto* state = loaded.find_state("digest-a");
  REQUIRE(state != nullptr);
  REQUIRE(state->size() == 1);
  CHECK((*state)[0].check == "dangling-link");
  CHECK(loaded.find_state("digest-b") == nullptr);
  CHECK_FALSE(loaded.dirty());
}

TEST_CASE("find_value hands out what find does, as the caller's own value", "[gate][cache]") {
  PersistentParseCache stored = filled_cache();  // entries stored in this process
  PersistentParseCache loaded = PersistentParseCache::from_bytes(stored.to_bytes());  // from a file
  for (PersistentParseCache* cache : {&stored, &loaded}) {
    std::optional<ParsedMemory> full = cache->find_value(".memory/10-Memories/MEM-full.md", "oid1");
    REQUIRE(full);
    REQUIRE(full->memory);
    check_same(*full->memory, full_memory());
    CHECK(full->findings.size() == 2);
    full->memory->title = "changed by the caller";  // the cache keeps its own bytes
    const ParsedMemory* again = cache->find(".memory/10-Memories/MEM-full.md", "oid1");
    REQUIRE(again != nullptr);
    check_same(*again->memory, full_memory());

    std::optional<ParsedMemory> bad = cache->find_value(".memory/10-Memories/MEM-bad.md", "oid2");
    REQUIRE(bad);
    CHECK_FALSE(bad->memory);
    CHECK(bad->findings.size() == 1);
    CHECK_FALSE(cache->find_value(".memory/10-Memories/MEM-full.md", "oid2"));
  }
}

TEST_CASE("an entry taken with find_value counts as used when the cache is saved",
          "[gate][cache]") {
  PersistentParseCache cache = five_thousand_entries();
  PersistentParseCache reloaded = PersistentParseCache::from_bytes(cache.to_bytes());
  for (int i = 0; i < 10; ++i) {
    CHECK(reloaded.find_value("p" + std::to_string(i), "o"));
  }
  const PersistentParseCache pruned = PersistentParseCache::from_bytes(reloaded.to_bytes());
  CHECK(pruned.size() == 10 + 4096);
  for (int i = 0; i < 10; ++i) {
    CHECK(pruned.find("p" + std::to_string(i), "o") != nullptr);
  }
}

TEST_CASE("a cached row reads the index fields straight from the stored bytes", "[gate][cache]") {
  const PersistentParseCache cache = PersistentParseCache::from_bytes(filled_cache().to_bytes());
  const Memory full = full_memory();
  const auto row = cache.find_row(".memory/10-Memories/MEM-full.md", "oid1");
  REQUIRE(row);
  REQUIRE(row->row);
  CHECK(row->row->id == full.id);
  CHECK(row->row->path == full.path);
  CHECK(row->row->title == full.title);
  CHECK(row->row->topic == full.topic);
  CHECK(row->row->category == full.category);
  CHECK(row->row->created == full.created);
  CHECK(row->row->tombstoned == full.tombstoned);
  CHECK(row->row->token_count == full.token_count);
  CHECK(row->row->links == std::vector<std::string_view>(full.links.begin(), full.links.end()));
  CHECK(row->row->link_lines == full.link_lines);
  CHECK(row->has_findings);
  CHECK(row->secrets ==
        std::vector<std::pair<int, std::string_view>>{{12, "GitHub token"}, {30, "private key"}});
  CHECK(row->fragment == std::optional<std::string_view>("    {\n      \"id\": 1\n    }"));

  const auto bad = cache.find_row(".memory/10-Memories/MEM-bad.md", "oid2");
  REQUIRE(bad);
  CHECK_FALSE(bad->row);
  CHECK(bad->has_findings);
  CHECK_FALSE(bad->fragment);
  CHECK_FALSE(cache.find_row(".memory/10-Memories/MEM-full.md", "other-oid"));
}

TEST_CASE("a damaged or foreign cache file is ignored", "[gate][cache]") {
  const std::string good = filled_cache().to_bytes();
  REQUIRE(PersistentParseCache::from_bytes(good).size() == 2);

  SECTION("truncated") {
    CHECK(PersistentParseCache::from_bytes(good.substr(0, good.size() - 1)).size() == 0);
    CHECK(PersistentParseCache::from_bytes(good.substr(0, 10)).size() == 0);
  }
  SECTION("one byte changed in the body") {
    std::string bad = good;
    bad[bad.size() / 2] = static_cast<char>(bad[bad.size() / 2] ^ 0x20);
    const PersistentParseCache cache = PersistentParseCache::from_bytes(bad);
    CHECK(cache.size() == 0);
    CHECK(cache.find_state("digest-a") == nullptr);
  }
  SECTION("another format version") {
    std::string other = good;
    other[4] = static_cast<char>(other[4] + 1);
    CHECK(PersistentParseCache::from_bytes(other).size() == 0);
  }
  SECTION("not a cache at all") {
    CHECK(PersistentParseCache::from_bytes("").size() == 0);
    CHECK(PersistentParseCache::from_bytes(std::string(100, '\xff')).size() == 0);
  }
}

TEST_CASE("the cache file is written atomically and only when something changed", "[gate][cache]") {
  const auto dir = std::filesystem::temp_directory_path() / "gv-gate-cache-test";
  std::filesystem::remove_all(dir);
  const auto file = gv::parse_cache_path(dir);
  CHECK(file == dir / "git-vault" / "parse-cache");

  PersistentParseCache missing = PersistentParseCache::load(file);
  CHECK(missing.size() == 0);
  CHECK(missing.save(file));
  CHECK_FALSE(std::filesystem::exists(file));  // nothing to save

  PersistentParseCache cache = filled_cache();
  REQUIRE(cache.save(file));
  REQUIRE(std::filesystem::exists(file));
  CHECK(std::distance(std::filesystem::directory_iterator(file.parent_path()),
                      std::filesystem::directory_iterator()) == 1);  // no temporary left

  const PersistentParseCache loaded = PersistentParseCache::load(file);
  CHECK(loaded.size() == 2);
  CHECK(loaded.find_state("digest-a") != nullptr);
  std::filesystem::remove_all(dir);
}

TEST_CASE("saving keeps entries used in this run and drops the oldest beyond the bound",
          "[gate][cache]") {
  PersistentParseCache cache = five_thousand_entries();
  PersistentParseCache reloaded = PersistentParseCache::from_bytes(cache.to_bytes());
  CHECK(reloaded.size() == 5000);  // all used in the run that stored them

  // A later run uses 10 of them: those stay, plus at most 4096 unused ones.
  for (int i = 0; i < 10; ++i) {
    CHECK(reloaded.find("p" + std::to_string(i), "o") != nullptr);
  }
  reloaded.store_state("d", {});
  const PersistentParseCache pruned = PersistentParseCache::from_bytes(reloaded.to_bytes());
  CHECK(pruned.size() == 10 + 4096);
  for (int i = 0; i < 10; ++i) {
    CHECK(pruned.find("p" + std::to_string(i), "o") != nullptr);
  }
}

TEST_CASE("the cache remembers at most sixteen vault states, newest first", "[gate][cache]") {
  PersistentParseCache cache;
  for (int i = 0; i < 20; ++i) {
    cache.store_state("d" + std::to_string(i), {});
  }
  cache.store_state("d5", {finding("x", 1)});  // re-storing moves it to the front
  const PersistentParseCache loaded = PersistentParseCache::from_bytes(cache.to_bytes());
  CHECK(loaded.find_state("d19") != nullptr);
  CHECK(loaded.find_state("d5") != nullptr);
  CHECK(loaded.find_state("d5")->size() == 1);
  CHECK(loaded.find_state("d4") != nullptr);
  CHECK(loaded.find_state("d3") == nullptr);  // 19..5 minus the moved 5, plus 5, plus 4
}
TEST_CASE("a journal record appended to the file adds entries and replaces the states",
          "[gate][cache]") {
  const std::string base = filled_cache().to_bytes();
  PersistentParseCache cache = PersistentParseCache::from_bytes(base);
  REQUIRE(cache.find(".memory/10-Memories/MEM-full.md", "oid1") != nullptr);
  cache.store(".memory/10-Memories/MEM-new.md", "oid3", ParsedMemory{std::nullopt, {}, {}});
  cache.store_fragment(".memory/10-Memories/MEM-full.md", "oid1", "newer");
  cache.store_state("digest-b", {});
  const std::string record = cache.journal_record();
  CHECK(record.substr(0, 4) == "GVPJ");

  const PersistentParseCache loaded = PersistentParseCache::from_bytes(base + record);
  CHECK(loaded.size() == 3);
  CHECK(loaded.find(".memory/10-Memories/MEM-new.md", "oid3") != nullptr);
  REQUIRE(loaded.find(".memory/10-Memories/MEM-full.md", "oid1") != nullptr);
  check_same(*loaded.find(".memory/10-Memories/MEM-full.md", "oid1")->memory, full_memory());
  CHECK(loaded.find_fragment(".memory/10-Memories/MEM-full.md", "oid1") ==
        std::optional<std::string_view>("newer"));
  CHECK(loaded.find_state("digest-b") != nullptr);
  CHECK(loaded.find_state("digest-a") != nullptr);

  SECTION("a torn record is ignored with everything after it") {
    const PersistentParseCache torn =
        PersistentParseCache::from_bytes(base + record.substr(0, record.size() - 1) + record);
    CHECK(torn.size() == 2);
    CHECK(torn.find_state("digest-b") == nullptr);
    CHECK(torn.find_fragment(".memory/10-Memories/MEM-full.md", "oid1") ==
          std::optional<std::string_view>("    {\n      \"id\": 1\n    }"));
  }
  SECTION("compacting folds the journal in") {
    const std::string compacted = PersistentParseCache::from_bytes(base + record).to_bytes();
    CHECK(compacted.find("GVPJ") == std::string::npos);
    const PersistentParseCache again = PersistentParseCache::from_bytes(compacted);
    CHECK(again.size() == 3);
    CHECK(again.find_fragment(".memory/10-Memories/MEM-full.md", "oid1") ==
          std::optional<std::string_view>("newer"));
  }
}

TEST_CASE("saving appends a small change and compacts a damaged file", "[gate][cache]") {
  const auto dir = std::filesystem::temp_directory_path() / "gv-gate-cache-journal-test";
  std::filesystem::remove_all(dir);
  const auto file = gv::parse_cache_path(dir);
  REQUIRE(filled_cache().save(file));
  const auto base_size = std::filesystem::file_size(file);

  PersistentParseCache cache = PersistentParseCache::load(file);
  cache.store_state("digest-b", {finding("x", 2)});
  REQUIRE(cache.save(file));
  CHECK(std::filesystem::file_size(file) > base_size);
  {
    // The old bytes are untouched and a record follows them.
    std::ifstream in(file, std::ios::binary);
    const std::string bytes{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
    CHECK(bytes.substr(0, base_size) == filled_cache().to_bytes());
    CHECK(bytes.substr(base_size, 4) == "GVPJ");
  }

  PersistentParseCache reloaded = PersistentParseCache::load(file);
  CHECK(reloaded.find_state("digest-b") != nullptr);
  CHECK(reloaded.size() == 2);

  {
    std::ofstream junk(file, std::ios::binary | std::ios::app);
    junk << "GVPJ torn";
  }
  PersistentParseCache damaged = PersistentParseCache::load(file);
  CHECK(damaged.find_state("digest-b") != nullptr);
  damaged.store_state("digest-c", {});
  REQUIRE(damaged.save(file));
  const PersistentParseCache compacted = PersistentParseCache::load(file);
  CHECK(compacted.find_state("digest-c") != nullptr);
  CHECK(compacted.size() == 2);
  CHECK(std::filesystem::file_size(file) == compacted.to_bytes().size());
  std::filesystem::remove_all(dir);
}

}  // namespace gate_cache_test
