#include <stdlib.h>

#include <algorithm>
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <nlohmann/json.hpp>
#include <string>

#include "core/gate/cached_gate.hpp"
#include "core/gate/gate.hpp"
#include "core/gate/print.hpp"
#include "core/vault/index_files.hpp"
#include "core/vault/parse_cache_file.hpp"
#include "core/vault/vault.hpp"
#include "tests/unit/gate_test_snapshot.hpp"

namespace gate_incremental_test {

using gv::Finding;
using gv::test::MapSnapshot;
using gv::test::note;
using gv::test::regenerate;
namespace fs = std::filesystem;

// The cached gate, run over a sequence of vault states with one cache file carried from run to
// run as the pre-commit hook carries it, must give exactly the findings of a gate without any
// cache. Each step also checks that the full gate's answer is the interesting one, so a cache
// that answered "clean" everywhere could not pass.

namespace {

MapSnapshot clean_vault() {
  MapSnapshot snapshot({
      {".memory/10-Memories/MEM-alpha.md", note("Alpha", "", "See [[MEM-beta]].\n")},
      {".memory/10-Memories/MEM-beta.md", note("Beta")},
      {".memory/10-Memories/MEM-gamma.md", note("Gamma", "category: PATTERN\n")},
      {"CLAUDE.local.md", "# Working\n- Prefers tabs ^tr0000000001\n"},
  });
  regenerate(snapshot);
  return snapshot;
}

std::string read_file(const fs::path& file) {
  std::ifstream in(file, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

void write_file(const fs::path& file, const std::string& bytes) {
  std::ofstream out(file, std::ios::binary | std::ios::trunc);
  out << bytes;
}

// Unique per test: ctest runs test cases in parallel processes.
fs::path unique_temp_dir() {
  std::string pattern = (fs::temp_directory_path() / "gv-gate-incremental-XXXXXX").string();
  REQUIRE(::mkdtemp(pattern.data()) != nullptr);
  return pattern;
}

struct CacheDir {
  fs::path dir = unique_temp_dir();
  fs::path file = gv::parse_cache_path(dir);
  CacheDir() = default;
  ~CacheDir() { fs::remove_all(dir); }
  CacheDir(const CacheDir&) = delete;
  CacheDir& operator=(const CacheDir&) = delete;
};

// The findings as the user sees them: every field of every finding, in order.
std::string shown(const std::vector<Finding>& findings) {
  return gv::findings_json(findings).dump();
}

// Runs the cached gate twice (the second run answers from the remembered state) and the uncached
// gate, checks that all three agree, and returns the findings.
std::vector<Finding> agree(const MapSnapshot& snapshot, const CacheDir& cache) {
  const std::vector<Finding> full = gv::run_gate(snapshot, {});
  const std::vector<Finding> first = gv::run_cached_gate(snapshot, cache.file, {});
  const std::vector<Finding> again = gv::run_cached_gate(snapshot, cache.file, {});
  CHECK(shown(first) == shown(full));
  CHECK(shown(again) == shown(full));
  return full;
}

bool has_check(const std::vector<Finding>& findings, const std::string& check) {
  return std::any_of(findings.begin(), findings.end(),
                     [&](const Finding& finding) { return finding.check == check; });
}

}  // namespace

TEST_CASE("the cached gate gives the uncached findings through a history of vault changes",
          "[gate][cache]") {
  const CacheDir cache;
  MapSnapshot snapshot = clean_vault();
  CHECK(agree(snapshot, cache).empty());
  const MapSnapshot committed = snapshot;  // a state to go back to, as `git reset --hard` does

  SECTION("an edited memory without a reindex, then with one") {
    snapshot.set(".memory/10-Memories/MEM-beta.md", note("Beta, edited"));
    CHECK(has_check(agree(snapshot, cache), "stale-index"));
    regenerate(snapshot);
    CHECK(agree(snapshot, cache).empty());
  }
  SECTION("an added memory, first with a schema error and no reindex") {
    snapshot.set(".memory/10-Memories/MEM-delta.md", "---\ntitle: \"Delta\"\n---\n\n# Delta\n");
    CHECK(has_check(agree(snapshot, cache), "schema"));
    snapshot.set(".memory/10-Memories/MEM-delta.md", note("Delta"));
    CHECK(has_check(agree(snapshot, cache), "stale-index"));
    regenerate(snapshot);
    CHECK(agree(snapshot, cache).empty());
  }
  SECTION("a deleted memory that another one links to") {
    snapshot.erase(".memory/10-Memories/MEM-beta.md");
    CHECK(has_check(agree(snapshot, cache), "stale-index"));
    regenerate(snapshot);
    const auto findings = agree(snapshot, cache);
    REQUIRE(findings.size() == 1);
    CHECK(findings[0].check == "dangling-link");
  }
  SECTION("a renamed memory, and one renamed to differ from another only in case") {
    snapshot.set(".memory/10-Memories/MEM-epsilon.md", note("Gamma", "category: PATTERN\n"));
    snapshot.erase(".memory/10-Memories/MEM-gamma.md");
    CHECK(has_check(agree(snapshot, cache), "stale-index"));
    regenerate(snapshot);
    CHECK(agree(snapshot, cache).empty());
    snapshot.set(".memory/10-Memories/MEM-Alpha.md", note("Alpha two"));
    regenerate(snapshot);
    CHECK(has_check(agree(snapshot, cache), "id-case-collision"));
  }
  SECTION("a changed index and nothing else") {
    snapshot.set(".memory/20-Indices/index.md", "# tampered\n");
    CHECK(has_check(agree(snapshot, cache), "stale-index"));
    const std::string json = *snapshot.read(".memory/memory-index.json");
    snapshot.set(".memory/memory-index.json", json.substr(0, json.size() - 2) + " }\n");
    CHECK(has_check(agree(snapshot, cache), "stale-index"));
  }
  SECTION("working-memory ids change while the vault stays as it was") {
    snapshot.set("CLAUDE.local.md", "# Working\n- Prefers tabs\n");
    CHECK(has_check(agree(snapshot, cache), "missing-id"));
    snapshot.set("CLAUDE.local.md",
                 "# Working\n- Prefers tabs ^tr0000000001\n- Also ^tr0000000001\n");
    CHECK_FALSE(agree(snapshot, cache).empty());
  }
  SECTION("a corrupt cache file") {
    std::string bytes = read_file(cache.file);
    REQUIRE(bytes.size() > 64);
    for (std::size_t i = 40; i < bytes.size(); i += 7) {
      bytes[i] = static_cast<char>(bytes[i] ^ 0x5a);
    }
    write_file(cache.file, bytes);
    snapshot.set(".memory/10-Memories/MEM-beta.md", note("Beta, edited"));
    CHECK(has_check(agree(snapshot, cache), "stale-index"));
    write_file(cache.file, "not a cache");
    CHECK(has_check(agree(snapshot, cache), "stale-index"));
  }
  SECTION("a cache file cut short, as a crash during a write without rename would leave it") {
    snapshot.set(".memory/10-Memories/MEM-beta.md", note("Beta, edited"));
    CHECK(has_check(agree(snapshot, cache), "stale-index"));
    const std::string bytes = read_file(cache.file);
    write_file(cache.file, bytes.substr(0, bytes.size() - 3));
    regenerate(snapshot);
    CHECK(agree(snapshot, cache).empty());
  }
  SECTION("a cache filled by later states, then the older state again") {
    snapshot.set(".memory/10-Memories/MEM-beta.md", note("Beta, edited", "", "[[MEM-zeta]]\n"));
    regenerate(snapshot);
    CHECK(has_check(agree(snapshot, cache), "dangling-link"));
    snapshot.erase(".memory/10-Memories/MEM-alpha.md");
    CHECK(has_check(agree(snapshot, cache), "stale-index"));
    CHECK(agree(committed, cache).empty());
  }
}

TEST_CASE("a one-file change appends to the cache file instead of rewriting it", "[gate][cache]") {
  const CacheDir cache;
  MapSnapshot snapshot = clean_vault();
  (void)gv::run_cached_gate(snapshot, cache.file, {});
  const std::string before = read_file(cache.file);
  REQUIRE_FALSE(before.empty());

  snapshot.set(".memory/10-Memories/MEM-beta.md", note("Beta, edited"));
  regenerate(snapshot);
  CHECK(gv::run_cached_gate(snapshot, cache.file, {}).empty());
  const std::string after = read_file(cache.file);
  CHECK(after.size() > before.size());
  CHECK(after.substr(0, before.size()) == before);
}

TEST_CASE("a remembered vault state is answered without writing the cache file", "[gate][cache]") {
  const CacheDir cache;
  MapSnapshot snapshot = clean_vault();
  CHECK(gv::run_cached_gate(snapshot, cache.file, {}).empty());
  snapshot.set(".memory/10-Memories/MEM-beta.md", note("Beta, edited"));
  regenerate(snapshot);
  CHECK(gv::run_cached_gate(snapshot, cache.file, {}).empty());
  const auto written = fs::last_write_time(cache.file);
  const std::string bytes = read_file(cache.file);

  CHECK(gv::run_cached_gate(snapshot, cache.file, {}).empty());
  CHECK(fs::last_write_time(cache.file) == written);
  CHECK(read_file(cache.file) == bytes);
}

TEST_CASE("the cached gate parses only the memory files whose blob ids are new", "[gate][cache]") {
  const CacheDir cache;
  MapSnapshot snapshot = clean_vault();
  CHECK(gv::run_cached_gate(snapshot, cache.file, {}).empty());
  // A memory the cache has seen is taken from it: a cache entry planted under MEM-alpha's blob
  // id with another title shows up in the index check, which proves the file was not parsed.
  const std::string alpha = ".memory/10-Memories/MEM-alpha.md";
  const std::string alpha_oid = snapshot.list(alpha)[0].oid;
  gv::PersistentParseCache planted = gv::PersistentParseCache::load(cache.file);
  gv::ParsedMemory forged = *planted.find(alpha, alpha_oid);
  forged.memory->title = "Forged";
  planted.store(alpha, alpha_oid, forged);
  REQUIRE(planted.save(cache.file));

  snapshot.set(".memory/10-Memories/MEM-beta.md", note("Beta, edited"));
  regenerate(snapshot);  // from the files: Alpha
  const auto findings = gv::run_cached_gate(snapshot, cache.file, {});
  CHECK(has_check(findings, "stale-index"));  // the cache says Forged
}

TEST_CASE("memories come back in id order when path order differs from it", "[gate][vault]") {
  // `MEM-a-b.md` sorts before `MEM-a.md` ('-' < '.'), but the id MEM-a sorts first.
  const MapSnapshot snapshot({
      {".memory/10-Memories/MEM-a.md", note("A")},
      {".memory/10-Memories/MEM-a-b.md", note("A b")},
      {".memory/10-Memories/MEM-b.md", note("B")},
  });
  REQUIRE(snapshot.list(".memory/10-Memories/")[0].path == ".memory/10-Memories/MEM-a-b.md");
  gv::PersistentParseCache cache;
  for (gv::ParseCache* with :
       {static_cast<gv::ParseCache*>(nullptr), static_cast<gv::ParseCache*>(&cache),
        static_cast<gv::ParseCache*>(&cache)}) {
    const gv::Vault vault = gv::load_vault(snapshot, with);
    REQUIRE(vault.memories.size() == 3);
    CHECK(vault.memories[0].id == "MEM-a");
    CHECK(vault.memories[1].id == "MEM-a-b");
    CHECK(vault.memories[2].id == "MEM-b");
  }
}

}  // namespace gate_incremental_test
