#include <fmt/format.h>

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>
#include <string>

#include "core/gate/gate.hpp"
#include "core/gate/print.hpp"
#include "core/gate/range.hpp"
#include "core/gate/vault_checks.hpp"
#include "core/vault/index_files.hpp"
#include "core/vault/parse_cache_file.hpp"
#include "core/vault/vault.hpp"
#include "tests/unit/gate_test_snapshot.hpp"

namespace gate_checks_test {

using gv::Finding;
using gv::GateOptions;
using gv::Severity;
using gv::test::MapSnapshot;
using gv::test::note;
using gv::test::regenerate;

namespace {

MapSnapshot clean_vault() {
  MapSnapshot snapshot({
      {".memory/10-Memories/MEM-alpha.md", note("Alpha", "", "See [[MEM-beta]].\n")},
      {".memory/10-Memories/MEM-beta.md", note("Beta")},
      {"CLAUDE.local.md", "# Working\n- Prefers tabs ^tr0000000001\n"},
      {"memory/registers/people.md", "- Sam is the PM ^tr0000000002\n"},
  });
  regenerate(snapshot);
  return snapshot;
}

std::vector<std::string> checks_of(const std::vector<Finding>& findings) {
  std::vector<std::string> out;
  for (const Finding& finding : findings) {
    out.push_back(finding.check);
  }
  return out;
}

}  // namespace

TEST_CASE("a clean vault passes every gate", "[gate]") {
  const MapSnapshot snapshot = clean_vault();
  const auto findings = gv::run_gate(snapshot, {});
  CHECK(findings.empty());
  CHECK_FALSE(gv::blocks(findings));
}

TEST_CASE("a repository without a vault or working memory has nothing to check", "[gate]") {
  const MapSnapshot snapshot({{"README.md", "hello\n"}, {".memory/00-Inbox/.gitkeep", ""}});
  CHECK(gv::run_gate(snapshot, {}).empty());
}

TEST_CASE("memories without any generated index file are stale", "[gate]") {
  const MapSnapshot snapshot({{".memory/10-Memories/MEM-a.md", note("A")}});
  const auto findings = gv::run_gate(snapshot, {});
  REQUIRE(findings.size() == 3);
  for (const Finding& finding : findings) {
    CHECK(finding.check == "stale-index");
    CHECK(finding.severity == Severity::error);
    CHECK(finding.fix == "git vault index && git add :/.memory");
  }
  CHECK(findings[0].path == ".memory/10-Memories/README.md");
  CHECK(findings[1].path == ".memory/20-Indices/index.md");
  CHECK(findings[2].path == ".memory/memory-index.json");
}

TEST_CASE("an edited memory without a regeneration makes the index stale", "[gate]") {
  MapSnapshot snapshot = clean_vault();
  snapshot.set(".memory/10-Memories/MEM-beta.md", note("Beta renamed"));
  const auto findings = gv::run_gate(snapshot, {});
  REQUIRE_FALSE(findings.empty());
  CHECK(gv::blocks(findings));
  bool named = false;
  for (const Finding& finding : findings) {
    CHECK(finding.check == "stale-index");
    named = named || (finding.path == ".memory/memory-index.json" && finding.id == "MEM-beta");
  }
  CHECK(named);
}

TEST_CASE("schema errors carry the memory's path and line", "[gate]") {
  MapSnapshot snapshot = clean_vault();
  snapshot.set(".memory/10-Memories/MEM-gamma.md", "---\ntitle: \"Gamma\"\n---\n\n# Gamma\n");
  regenerate(snapshot);  // the broken file is not in the index, so only the schema error stays
  const auto findings = gv::run_gate(snapshot, {});
  REQUIRE(findings.size() == 1);
  CHECK(findings[0].check == "schema");
  CHECK(findings[0].severity == Severity::error);
  CHECK(findings[0].path == ".memory/10-Memories/MEM-gamma.md");
  CHECK(findings[0].line.has_value());
  CHECK(findings[0].fix ==
        "add a line created: 2026-01-31 (the day it was written) to the frontmatter");
}

TEST_CASE("memory ids that differ only in case collide", "[gate]") {
  MapSnapshot snapshot = clean_vault();
  snapshot.set(".memory/10-Memories/MEM-Alpha.md", note("Alpha again"));
  regenerate(snapshot);
  const auto findings = gv::run_gate(snapshot, {});
  REQUIRE(findings.size() == 1);
  CHECK(findings[0].check == "id-case-collision");
  CHECK(findings[0].path == ".memory/10-Memories/MEM-alpha.md");  // `A` sorts before `a`
  CHECK(findings[0].message ==
        "memory id MEM-alpha differs from MEM-Alpha only in case: they are one file on macOS "
        "and Windows");
}

TEST_CASE("working-memory id findings come from every managed file", "[gate]") {
  MapSnapshot snapshot = clean_vault();
  snapshot.set("CLAUDE.local.md",
               "# Working\n- Prefers tabs ^tr0000000001\n- untagged\n- bad ^tr12\n");
  snapshot.set("memory/archive/2026/old.md", "- archived ^tr0000000001\n");
  const auto findings = gv::run_gate(snapshot, {});
  REQUIRE(checks_of(findings) ==
          std::vector<std::string>{"missing-id", "malformed-id", "duplicate-id"});
  CHECK(findings[0].path == "CLAUDE.local.md");
  CHECK(findings[0].line == 3);
  CHECK(findings[1].line == 4);
  CHECK(findings[1].severity == Severity::error);
  CHECK(findings[2].path == "memory/archive/2026/old.md");
  CHECK(findings[2].line == 1);
  CHECK(findings[2].message ==
        "duplicate id ^tr0000000001 on 2 lines: CLAUDE.local.md line 2, memory/archive/2026/old.md "
        "line 1");
}

TEST_CASE("dangling wiki links warn and never block", "[gate]") {
  MapSnapshot snapshot = clean_vault();
  snapshot.set(".memory/10-Memories/MEM-alpha.md",
               note("Alpha", "",
                    "See [[MEM-beta]].\n\nAnd [[MEM-gone|the old one]].\n"
                    "Also [[MEM-dead.md]] and [[20-Indices/index]].\n"));
  snapshot.set(".memory/10-Memories/MEM-dead.md",
               note("Dead", "status: tombstoned\ntombstoned_at: 2026-02-01\n"));
  regenerate(snapshot);
  const auto findings = gv::run_gate(snapshot, {});
  REQUIRE(findings.size() == 2);
  CHECK_FALSE(gv::blocks(findings));
  CHECK(findings[0].check == "dangling-link");
  CHECK(findings[0].line == 9);
  CHECK(findings[0].message == "link [[MEM-gone]] names no memory");
  CHECK(findings[1].line == 10);
  CHECK(findings[1].message == "link [[MEM-dead.md]] names a tombstoned memory");
}

TEST_CASE("skipped checks are left out", "[gate]") {
  MapSnapshot snapshot = clean_vault();
  snapshot.set("CLAUDE.local.md", "- untagged\n");
  GateOptions options;
  options.skip = {"missing-id"};
  CHECK(gv::run_gate(snapshot, options).empty());
}

TEST_CASE("a remembered vault state answers without reading memory files", "[gate][cache]") {
  MapSnapshot snapshot = clean_vault();
  snapshot.set(".memory/10-Memories/MEM-alpha.md", note("Alpha", "", "[[MEM-nowhere]]\n"));
  regenerate(snapshot);
  gv::PersistentParseCache cache;
  GateOptions options;
  options.cache = &cache;
  const auto first = gv::run_gate(snapshot, options);
  REQUIRE(first.size() == 1);

  gv::PersistentParseCache reloaded = gv::PersistentParseCache::from_bytes(cache.to_bytes());
  options.cache = &reloaded;
  snapshot.reads = 0;
  const auto second = gv::run_gate(snapshot, options);
  // Only working memory, which is always read: CLAUDE.local.md (twice: listed, then parsed), the
  // register, the recall metadata.json the recall-metadata check asks for, and the distill log
  // the distill-log check asks for; the secret check reads those five again (the memory files'
  // lines it takes from their cached parses).
  CHECK(snapshot.reads == 10);
  REQUIRE(second.size() == 1);
  CHECK(second[0].message == first[0].message);
  CHECK(second[0].line == first[0].line);

  SECTION("a changed memory is parsed again; the others come from the cache") {
    snapshot.set(".memory/10-Memories/MEM-beta.md", note("Beta 2"));
    regenerate(snapshot);
    snapshot.reads = 0;
    const auto third = gv::run_gate(snapshot, options);
    CHECK(third.size() == 1);
    // Working memory (10), MEM-beta.md, the top of memory-index.json for its date (the generated
    // files are compared by blob id, never read whole). The link's line comes from the cached
    // parse of MEM-alpha.md, which is not read again.
    CHECK(snapshot.reads == 12);
  }
  SECTION("a stale index is still caught with cached entry texts") {
    snapshot.set(".memory/10-Memories/MEM-beta.md", note("Beta 2"));
    const auto third = gv::run_gate(snapshot, options);
    CHECK(gv::blocks(third));
  }
}

TEST_CASE("range findings are reported under the first commit that has them", "[gate][range]") {
  Finding a;
  a.check = "missing-id";
  a.path = "CLAUDE.local.md";
  a.line = 3;
  a.message = "entry has no id: \"x\"";
  Finding moved = a;
  moved.line = 5;  // same finding after lines were inserted above it
  Finding b = a;
  b.message = "entry has no id: \"y\"";

  const auto out = gv::first_introduced({{"c1", {}}, {"c2", {a}}, {"c3", {moved, b}}});
  REQUIRE(out.size() == 2);
  CHECK(out[0].commit == "c2");
  REQUIRE(out[0].findings.size() == 1);
  CHECK(out[0].findings[0].line == 3);
  CHECK(out[1].commit == "c3");
  REQUIRE(out[1].findings.size() == 1);
  CHECK(out[1].findings[0].message == "entry has no id: \"y\"");
}

TEST_CASE("first_introduced leaves out what the base had, a dangling link by its target",
          "[gate][range]") {
  Finding tombstoned;
  tombstoned.check = "dangling-link";
  tombstoned.severity = Severity::warning;
  tombstoned.path = ".memory/10-Memories/MEM-a.md";
  tombstoned.line = 4;
  tombstoned.message = "link [[MEM-b]] names a tombstoned memory";
  Finding gone = tombstoned;  // after a gc deleted MEM-b
  gone.message = "link [[MEM-b]] names no memory";
  Finding other = gone;
  other.message = "link [[MEM-c]] names no memory";

  const auto out = gv::first_introduced({{"c1", {gone, other}}}, {tombstoned});
  REQUIRE(out.size() == 1);
  REQUIRE(out[0].findings.size() == 1);
  CHECK(out[0].findings[0].message == "link [[MEM-c]] names no memory");
  CHECK(gv::first_introduced({{"c1", {gone}}}, {gone}).empty());
  CHECK(gv::first_introduced({{"c1", {gone}}}).size() == 1);
}

TEST_CASE("findings print as path:line lines with their fix and a count", "[gate][print]") {
  Finding missing;
  missing.check = "missing-id";
  missing.path = "CLAUDE.local.md";
  missing.line = 3;
  missing.message = "entry has no id: \"x\"";
  missing.fix = "git vault recall init-ids --yes";
  Finding warning;
  warning.check = "dangling-link";
  warning.severity = Severity::warning;
  warning.path = ".memory/10-Memories/MEM-a.md";
  warning.message = "link [[MEM-b]] names no memory";

  CHECK(gv::format_findings({}).empty());
  CHECK(gv::format_findings({missing, warning}) ==
        "CLAUDE.local.md:3: error: entry has no id: \"x\" [missing-id]\n"
        "  fix: git vault recall init-ids --yes\n"
        ".memory/10-Memories/MEM-a.md: warning: link [[MEM-b]] names no memory [dangling-link]\n"
        "1 entry is missing IDs.\n"
        "Run git vault recall init-ids --yes first to tag all entries.\n"
        "1 error, 1 warning\n");

  const auto json = gv::findings_json({missing, warning});
  CHECK(json.dump() ==
        R"({"schema":1,"ok":false,"findings":[)"
        R"({"check":"missing-id","severity":"error","path":"CLAUDE.local.md","line":3,"id":null,)"
        R"("message":"entry has no id: \"x\"","fix":"git vault recall init-ids --yes"},)"
        R"({"check":"dangling-link","severity":"warning","path":".memory/10-Memories/MEM-a.md",)"
        R"("line":null,"id":null,"message":"link [[MEM-b]] names no memory","fix":null}]})");
  CHECK(gv::findings_json({warning})["ok"] == true);
}

TEST_CASE("findings of one check are grouped, cut at the limit, with one shared fix",
          "[gate][print]") {
  std::vector<Finding> findings;
  for (int i = 0; i < 5; ++i) {
    Finding stale;
    stale.check = "stale-index";
    stale.path = fmt::format(".memory/10-Memories/MEM-{}.md", i);
    stale.message = "missing from the index";
    stale.fix = "git vault index";
    findings.push_back(stale);
  }
  Finding other;
  other.check = "schema";
  other.path = ".memory/10-Memories/MEM-x.md";
  other.line = 2;
  other.message = "title is required";
  other.fix = "add `title:` on line 2";
  findings.insert(findings.begin() + 1, other);

  CHECK(gv::format_finding_lines(findings, {2}) ==
        ".memory/10-Memories/MEM-0.md: error: missing from the index [stale-index]\n"
        ".memory/10-Memories/MEM-1.md: error: missing from the index [stale-index]\n"
        "  ... and 3 more errors [stale-index] (--limit 0 lists them all)\n"
        "  fix: git vault index\n"
        ".memory/10-Memories/MEM-x.md:2: error: title is required [schema]\n"
        "  fix: add `title:` on line 2\n");
  // 0 lists every finding; differing fixes stay under their own finding.
  findings[2].fix = "git vault index --check";
  const std::string all = gv::format_finding_lines(findings, {0});
  CHECK_THAT(all, Catch::Contains("MEM-4.md: error"));
  CHECK_THAT(all, Catch::Contains("MEM-1.md: error: missing from the index [stale-index]\n"
                                  "  fix: git vault index --check\n"));
}

TEST_CASE("many findings that say the same of different ids in one file are one line",
          "[gate][print]") {
  std::vector<Finding> findings;
  for (int i = 0; i < 30; ++i) {
    Finding stale;
    stale.check = "stale-index";
    stale.path = ".memory/memory-index.json";
    stale.id = fmt::format("MEM-{:02}", i);
    stale.message = stale.id + " is missing from the index";
    stale.fix = "git vault index";
    findings.push_back(stale);
  }
  Finding readme;
  readme.check = "stale-index";
  readme.path = ".memory/10-Memories/README.md";
  readme.line = 3;
  readme.message = "differs from a regeneration";
  readme.fix = "git vault index";
  findings.push_back(readme);
  CHECK(gv::format_finding_lines(findings, {20}) ==
        ".memory/memory-index.json: error: 30 memories are missing from the index (MEM-00, "
        "MEM-01, MEM-02, ...) [stale-index]\n"
        ".memory/10-Memories/README.md:3: error: differs from a regeneration [stale-index]\n"
        "  fix: git vault index\n");
  // Within the limit, each stays on its own line; --limit 0 lists them all.
  CHECK_THAT(gv::format_finding_lines(findings, {40}), Catch::Contains("MEM-29 is missing"));
  CHECK_THAT(gv::format_finding_lines(findings, {0}), Catch::Contains("MEM-29 is missing"));
}

TEST_CASE("a finding's severity is coloured only when asked", "[gate][print]") {
  Finding finding;
  finding.check = "schema";
  finding.path = "a.md";
  finding.line = 1;
  finding.message = "m";
  CHECK(gv::format_finding_line(finding) == "a.md:1: error: m [schema]");
  CHECK(gv::format_finding_line(finding, true) == "a.md:1: \x1b[1;31merror\x1b[m: m [schema]");
  finding.severity = Severity::warning;
  CHECK(gv::format_finding_line(finding, true) == "a.md:1: \x1b[33mwarning\x1b[m: m [schema]");
}

TEST_CASE("a range finding the tip no longer has is a note naming the commit that fixed it",
          "[gate][range]") {
  Finding a;
  a.check = "stale-index";
  a.path = ".memory/memory-index.json";
  a.message = "MEM-x is missing from the index";
  a.fix = "git vault index && git add :/.memory";
  Finding b = a;
  b.message = "MEM-y is missing from the index";

  // c1 introduces a, c2 adds b, c3 fixes a, c4 keeps b: the tip still has b.
  const std::vector<gv::CommitFindings> checked = {
      {"c1", {a}, {}}, {"c2", {a, b}, {}}, {"c3", {b}, {}}, {"c4", {b}, {}}};
  std::vector<gv::CommitFindings> introduced = gv::first_introduced(checked);
  gv::mark_fixed_later(introduced, checked);
  REQUIRE(introduced.size() == 2);
  CHECK(introduced[0].commit == "c1");
  CHECK(introduced[0].findings[0].severity == Severity::note);
  CHECK(introduced[0].findings[0].fix.empty());
  CHECK(introduced[0].fixed_in == std::vector<std::string>{"c3"});
  CHECK(introduced[1].commit == "c2");
  CHECK(introduced[1].findings[0].severity == Severity::error);
  CHECK(introduced[1].findings[0].fix == a.fix);
  CHECK(introduced[1].fixed_in == std::vector<std::string>{""});
  CHECK(gv::blocks(introduced[1].findings));
  CHECK_FALSE(gv::blocks(introduced[0].findings));
}

}  // namespace gate_checks_test
