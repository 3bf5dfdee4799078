#include <stdlib.h>

#include <catch2/catch.hpp>
#include <filesystem>
#include <set>
#include <string>
#include <vector>

#include "core/error.hpp"
#include "core/gate/cached_gate.hpp"
#include "core/gate/gate.hpp"
#include "core/gate/input.hpp"
#include "core/gate/registry.hpp"
#include "core/hooks/skip.hpp"
#include "core/vault/parse_cache_file.hpp"
#include "tests/unit/gate_test_snapshot.hpp"

namespace gate_registry_test {

using gv::Finding;
using gv::GateCheck;
using gv::GateOptions;
using gv::GateScope;
using gv::Severity;
using gv::test::MapSnapshot;
using gv::test::note;
using gv::test::regenerate;
namespace fs = std::filesystem;

// The gate is data: a table of checks. A fixture check below is one function plus one row, and
// everything else (running it, skipping it by name, keying what the cache remembers) follows
// from the row.

namespace {

// The fixture check: one warning per active memory whose title is "Beta".
std::vector<Finding> beta_titles(gv::GateInput& input) {
  std::vector<Finding> findings;
  for (const gv::IndexRow& row : input.vault().rows) {
    if (row.title == "Beta") {
      Finding finding;
      finding.check = "beta-title";
      finding.severity = Severity::warning;
      finding.path = std::string(row.path);
      finding.message = "a memory titled Beta";
      findings.push_back(std::move(finding));
    }
  }
  return findings;
}

// The built-in table plus the fixture's one row.
std::vector<GateCheck> with_fixture_check() {
  std::vector<GateCheck> table(gv::builtin_gate_checks().begin(), gv::builtin_gate_checks().end());
  table.push_back(GateCheck{"beta-title", Severity::warning, 1, GateScope::vault,
                            "a memory titled Beta", &beta_titles});
  return table;
}

MapSnapshot clean_vault() {
  MapSnapshot snapshot({
      {".memory/10-Memories/MEM-alpha.md", note("Alpha", "", "See [[MEM-beta]].\n")},
      {".memory/10-Memories/MEM-beta.md", note("Beta")},
      {"CLAUDE.local.md", "# Working\n- Prefers tabs ^tr0000000001\n"},
  });
  regenerate(snapshot);
  return snapshot;
}

std::set<std::string> checks_of(const std::vector<Finding>& findings) {
  std::set<std::string> out;
  for (const Finding& finding : findings) {
    out.insert(finding.check);
  }
  return out;
}

// A temporary directory, unique per test (ctest runs cases in parallel), removed after.
struct TempDir {
  fs::path dir;
  TempDir() {
    std::string pattern = (fs::temp_directory_path() / "gv-gate-registry-XXXXXX").string();
    REQUIRE(::mkdtemp(pattern.data()) != nullptr);
    dir = pattern;
  }
  ~TempDir() { fs::remove_all(dir); }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
};

}  // namespace

TEST_CASE("a check added as one function and one row runs, is skipped by name, and is listed",
          "[gate][registry]") {
  const MapSnapshot snapshot = clean_vault();
  const std::vector<GateCheck> table = with_fixture_check();
  GateOptions options;
  CHECK(gv::run_gate(snapshot, options).empty());

  options.checks = table;
  const std::vector<Finding> findings = gv::run_gate(snapshot, options);
  REQUIRE(findings.size() == 1);
  CHECK(findings[0].check == "beta-title");
  CHECK(findings[0].path == ".memory/10-Memories/MEM-beta.md");
  CHECK_FALSE(gv::blocks(findings));

  const gv::hooks::SkipSpec skip = gv::hooks::parse_skip("beta-title", table);
  CHECK(skip.checks == std::set<std::string>{"beta-title"});
  GateOptions skipping = skip.gate_options();
  skipping.checks = table;
  CHECK(gv::run_gate(snapshot, skipping).empty());
  // The built-in table does not know the fixture's name.
  CHECK_THROWS_AS(gv::hooks::parse_skip("beta-title"), gv::UsageError);
  CHECK(gv::find_gate_check(table, "beta-title") == &table.back());
}

TEST_CASE("GIT_VAULT_SKIP names outside the table are rejected with the valid ones",
          "[gate][registry]") {
  CHECK_THROWS_WITH(
      gv::hooks::parse_skip("schema, stale-indx"),
      "GIT_VAULT_SKIP: unknown check 'stale-indx'; valid checks: dangling-link, "
      "distill-log, duplicate-id, id-case-collision, ignored-id, malformed-id, missing-id, "
      "recall-metadata, schema, secret, stale-index, all");
  CHECK_THROWS_AS(gv::hooks::parse_skip("ALL"), gv::UsageError);
  CHECK(gv::hooks::parse_skip("all").gate_options().skip_all);
  for (const GateCheck& check : gv::builtin_gate_checks()) {
    CHECK(gv::hooks::parse_skip(check.name).checks.contains(std::string(check.name)));
  }
}

TEST_CASE("GIT_VAULT_SKIP=all runs no check and reads nothing", "[gate][registry]") {
  MapSnapshot snapshot = clean_vault();
  snapshot.set("CLAUDE.local.md", "- untagged\n");
  REQUIRE(gv::blocks(gv::run_gate(snapshot, {})));
  snapshot.reads = 0;
  CHECK(gv::run_gate(snapshot, gv::hooks::parse_skip("all").gate_options()).empty());
  CHECK(snapshot.reads == 0);
}

TEST_CASE("every built-in check has a unique name, a description and a function",
          "[gate][registry]") {
  std::set<std::string_view> names;
  for (const GateCheck& check : gv::builtin_gate_checks()) {
    CHECK(names.insert(check.name).second);
    CHECK_FALSE(check.description.empty());
    CHECK(check.run != nullptr);
    CHECK(check.version >= 1);
  }
  CHECK(names.size() == 11);
}

TEST_CASE("the check-set key changes with every name, version, severity and scope",
          "[gate][registry]") {
  const std::vector<GateCheck> base = with_fixture_check();
  const std::uint64_t key = gv::check_set_key(base);
  CHECK(key == gv::check_set_key(with_fixture_check()));
  CHECK(key != gv::check_set_key(gv::builtin_gate_checks()));
  std::vector<GateCheck> changed = base;
  changed.back().version = 2;
  CHECK(gv::check_set_key(changed) != key);
  changed = base;
  changed.back().severity = Severity::error;
  CHECK(gv::check_set_key(changed) != key);
  changed = base;
  changed.back().scope = GateScope::working_memory;
  CHECK(gv::check_set_key(changed) != key);
  changed = base;
  changed.back().name = "beta-titles";
  CHECK(gv::check_set_key(changed) != key);
}

TEST_CASE("a remembered vault state is never answered for another check set",
          "[gate][registry][cache]") {
  const MapSnapshot snapshot = clean_vault();
  const std::vector<GateCheck> table = with_fixture_check();
  gv::PersistentParseCache cache;
  GateOptions options;
  options.cache = &cache;
  REQUIRE(gv::run_gate(snapshot, options).empty());  // remembered: no findings

  SECTION("a check added") {
    gv::PersistentParseCache reloaded = gv::PersistentParseCache::from_bytes(cache.to_bytes());
    options.cache = &reloaded;
    options.checks = table;
    CHECK(checks_of(gv::run_gate(snapshot, options)) == std::set<std::string>{"beta-title"});
    // And the other way round: the built-in set does not get the fixture's findings back.
    options.checks = {};
    CHECK(gv::run_gate(snapshot, options).empty());
  }
  SECTION("a check changed: same name, new version") {
    std::vector<GateCheck> changed(gv::builtin_gate_checks().begin(),
                                   gv::builtin_gate_checks().end());
    for (GateCheck& check : changed) {
      if (check.name == "dangling-link") {
        check.version += 1;
        check.run = [](gv::GateInput&) {
          Finding finding;
          finding.check = "dangling-link";
          finding.severity = Severity::warning;
          finding.path = ".memory/10-Memories/MEM-alpha.md";
          finding.message = "the new version's finding";
          return std::vector<Finding>{finding};
        };
      }
    }
    options.checks = changed;
    const std::vector<Finding> findings = gv::run_gate(snapshot, options);
    REQUIRE(findings.size() == 1);
    CHECK(findings[0].message == "the new version's finding");
  }
}

TEST_CASE("the cache file of another check set is read as empty", "[gate][registry][cache]") {
  const TempDir temp;
  const fs::path file = gv::parse_cache_path(temp.dir);
  MapSnapshot snapshot = clean_vault();
  const std::vector<GateCheck> table = with_fixture_check();
  GateOptions builtin;
  GateOptions fixture;
  fixture.checks = table;

  REQUIRE(gv::run_cached_gate(snapshot, file, builtin).empty());
  const std::uint64_t builtin_key = gv::check_set_key(gv::builtin_gate_checks());
  CHECK(gv::PersistentParseCache::load(file, builtin_key).size() == 2);
  CHECK(gv::load_gate_cache(file, builtin).key() == builtin_key);
  const gv::PersistentParseCache other = gv::load_gate_cache(file, fixture);
  CHECK(other.size() == 0);
  CHECK(other.key() == gv::check_set_key(table));
  // Without a key (a reader that wants parses only), any file is read and keeps its key.
  CHECK(gv::PersistentParseCache::load(file).key() == builtin_key);

  // A parse planted under the built-in key (MEM-beta titled "Forged") is trusted by the
  // built-in gate, so the index looks stale to it, but never by the fixture's gate, which
  // parses MEM-beta again and finds the index up to date.
  const std::string beta = ".memory/10-Memories/MEM-beta.md";
  const std::string beta_oid = snapshot.list(beta)[0].oid;
  gv::PersistentParseCache planted = gv::PersistentParseCache::load(file, builtin_key);
  gv::ParsedMemory forged = *planted.find(beta, beta_oid);
  forged.memory->title = "Forged";
  planted.store(beta, beta_oid, forged);
  REQUIRE(planted.save(file));
  snapshot.set(".memory/10-Memories/MEM-alpha.md", note("Alpha", "", "Edited.\n"));
  regenerate(snapshot);  // a new vault state, so nothing is answered from a remembered one

  SECTION("the built-in gate trusts its own file") {
    CHECK(checks_of(gv::run_cached_gate(snapshot, file, builtin)) ==
          std::set<std::string>{"stale-index"});
  }
  SECTION("the fixture's gate does not, and keys the file it writes by its own checks") {
    CHECK(checks_of(gv::run_cached_gate(snapshot, file, fixture)) ==
          std::set<std::string>{"beta-title"});
    CHECK(gv::PersistentParseCache::load(file).key() == gv::check_set_key(table));
    CHECK(gv::PersistentParseCache::load(file, builtin_key).size() == 0);
  }
}

}  // namespace gate_registry_test
