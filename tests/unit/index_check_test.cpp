#include "core/vault/index_check.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>
#include <set>

#include "tests/unit/index_test_fixtures.hpp"

namespace index_check_test {

using gv::test::memory;
using gv::test::small_vault;
using gv::test::ymd;

namespace {

using OrderedJson = nlohmann::ordered_json;

const gv::Date k_today = ymd(2026, 11, 30);

gv::CommittedIndexFiles committed_from(const gv::IndexFiles& files) {
  return {files.index_json, files.index_md, files.memories_readme};
}

// The committed files as a regeneration on an earlier day left them.
gv::CommittedIndexFiles committed_earlier(const std::vector<gv::Memory>& memories) {
  return committed_from(gv::render_index_files(memories, ymd(2026, 9, 1)));
}

std::string edited_json(const std::string& json, void (*edit)(OrderedJson&)) {
  OrderedJson document = OrderedJson::parse(json);
  edit(document);
  return document.dump(2) + "\n";
}

std::set<std::string> finding_paths(const std::vector<gv::Finding>& findings) {
  std::set<std::string> paths;
  for (const gv::Finding& finding : findings) {
    paths.insert(finding.path);
  }
  return paths;
}

std::set<std::string> write_paths(const std::vector<gv::FileWrite>& writes) {
  std::set<std::string> paths;
  for (const gv::FileWrite& write : writes) {
    paths.insert(write.path);
  }
  return paths;
}

// The check and the write plan must agree on every input: a file is stale exactly when
// `git vault index` would write it.
std::vector<gv::Finding> check_consistently(const gv::IndexFiles& fresh,
                                            const gv::CommittedIndexFiles& committed) {
  std::vector<gv::Finding> findings = gv::check_index_files(fresh, committed);
  CHECK(finding_paths(findings) == write_paths(gv::plan_index_writes(fresh, committed)));
  for (const gv::Finding& finding : findings) {
    CHECK(finding.check == "stale-index");
    CHECK(finding.severity == gv::Severity::error);
    CHECK(finding.fix == "git vault index");
  }
  return findings;
}

int line_of(const std::string& text, const std::string& needle) {
  const std::size_t at = text.find(needle);
  REQUIRE(at != std::string::npos);
  return 1 + static_cast<int>(std::count(text.begin(), text.begin() + static_cast<long>(at), '\n'));
}

std::vector<gv::Finding> json_findings(const std::vector<gv::Finding>& findings) {
  std::vector<gv::Finding> out;
  for (const gv::Finding& finding : findings) {
    if (finding.path == ".memory/memory-index.json") {
      out.push_back(finding);
    }
  }
  return out;
}

}  // namespace

TEST_CASE("files equal to a regeneration are not stale and are not written", "[index]") {
  const gv::IndexFiles fresh = gv::render_index_files(small_vault(), k_today);
  CHECK(check_consistently(fresh, committed_from(fresh)).empty());
  CHECK(gv::plan_index_writes(fresh, committed_from(fresh)).empty());
}

TEST_CASE("an index that differs only in generated_at is not stale and stays untouched",
          "[index]") {
  const gv::IndexFiles fresh = gv::render_index_files(small_vault(), k_today);
  CHECK(check_consistently(fresh, committed_earlier(small_vault())).empty());
  CHECK(gv::plan_index_writes(fresh, committed_earlier(small_vault())).empty());

  gv::CommittedIndexFiles datetime = committed_from(fresh);
  datetime.index_json = edited_json(
      fresh.index_json, [](OrderedJson& d) { d["generated_at"] = "2026-04-15T00:00:00Z"; });
  CHECK(check_consistently(fresh, datetime).empty());
  // The date is swapped as text: a value that needs escaping reads back the same.
  gv::CommittedIndexFiles odd = committed_from(fresh);
  odd.index_json = edited_json(fresh.index_json,
                               [](OrderedJson& d) { d["generated_at"] = "caf\u00e9 \"q\" \\ \t"; });
  CHECK(check_consistently(fresh, odd).empty());
  // A date that is not a string keeps nothing: the file is rewritten.
  gv::CommittedIndexFiles number = committed_from(fresh);
  number.index_json = edited_json(fresh.index_json, [](OrderedJson& d) { d["generated_at"] = 7; });
  CHECK_FALSE(check_consistently(fresh, number).empty());
}

TEST_CASE("a memory missing from the index makes it stale", "[index]") {
  std::vector<gv::Memory> fewer = small_vault();
  std::erase_if(fewer, [](const gv::Memory& m) { return m.id == "MEM-b-retry"; });
  gv::CommittedIndexFiles committed = committed_earlier(small_vault());
  committed.index_json = gv::render_index_json(fewer, "2026-09-01");
  const gv::IndexFiles fresh = gv::render_index_files(small_vault(), k_today);

  const auto findings = check_consistently(fresh, committed);
  REQUIRE(findings.size() == 1);
  CHECK(findings[0].path == ".memory/memory-index.json");
  CHECK(findings[0].id == "MEM-b-retry");
  CHECK(findings[0].message == "MEM-b-retry is missing from the index");
  // Where a regeneration puts it: the line of the entry that sorts after it.
  CHECK(findings[0].line == line_of(*committed.index_json, "\"id\": \"MEM-c-old\""));

  const auto writes = gv::plan_index_writes(fresh, committed);
  REQUIRE(writes.size() == 1);
  CHECK(writes[0].bytes == fresh.index_json);  // rewritten with today's date
}

TEST_CASE("a memory that sorts after every entry is placed at the last entry's line", "[index]") {
  std::vector<gv::Memory> more = small_vault();
  more.push_back(memory("MEM-z-last", "Last", ymd(2026, 1, 1)));
  gv::CommittedIndexFiles committed = committed_earlier(small_vault());
  const auto findings = check_consistently(gv::render_index_files(more, k_today), committed);
  REQUIRE(json_findings(findings).size() == 1);
  std::string last;
  for (const gv::Memory& m : small_vault()) {
    last = std::max(last, m.id);
  }
  CHECK(json_findings(findings)[0].line == line_of(*committed.index_json, "\"id\": \"" + last));
}

TEST_CASE("every differing entry is named at its own line", "[index]") {
  // Many entries: their lines are found in one pass over the file, each the line of its id.
  std::vector<gv::Memory> many;
  for (int i = 0; i < 300; ++i) {
    many.push_back(memory(fmt::format("MEM-n-{:03}", i), "Note", ymd(2026, 1, 1)));
  }
  std::vector<gv::Memory> drifted = many;
  for (gv::Memory& m : drifted) {
    m.retrieval_count = 7;
  }
  gv::CommittedIndexFiles committed = committed_earlier(many);
  committed.index_json = gv::render_index_json(drifted, "2026-09-01");
  const auto findings = check_consistently(gv::render_index_files(many, k_today), committed);
  REQUIRE(findings.size() == many.size());
  for (const gv::Finding& finding : findings) {
    CHECK(finding.line == line_of(*committed.index_json, "\"id\": \"" + finding.id + "\""));
  }
}

TEST_CASE("an index entry without a memory file is an orphan", "[index]") {
  std::vector<gv::Memory> more = small_vault();
  more.push_back(memory("MEM-e-gone", "Gone", ymd(2026, 1, 1)));
  gv::CommittedIndexFiles committed = committed_earlier(small_vault());
  committed.index_json = gv::render_index_json(more, "2026-09-01");

  const auto findings =
      check_consistently(gv::render_index_files(small_vault(), k_today), committed);
  REQUIRE(findings.size() == 1);
  CHECK(findings[0].id == "MEM-e-gone");
  CHECK(findings[0].message == "orphaned entry MEM-e-gone has no readable memory file");
  CHECK(findings[0].line == 75);  // the entry's `"id":` line
}

TEST_CASE("a drifted retrieval_count makes the index stale", "[index]") {
  std::vector<gv::Memory> drifted = small_vault();
  for (gv::Memory& m : drifted) {
    if (m.id == "MEM-b-retry") {
      m.retrieval_count = 5;
    }
  }
  gv::CommittedIndexFiles committed = committed_earlier(small_vault());
  committed.index_json = gv::render_index_json(drifted, "2026-09-01");

  const auto findings =
      check_consistently(gv::render_index_files(small_vault(), k_today), committed);
  REQUIRE(findings.size() == 1);
  CHECK(findings[0].id == "MEM-b-retry");
  CHECK(findings[0].line == 23);
  CHECK(findings[0].message ==
        "entry MEM-b-retry differs from its memory file: retrieval_count (index 5, memory "
        "file 3)");
}

TEST_CASE("a drifted title makes the index stale and is named", "[index]") {
  gv::CommittedIndexFiles committed = committed_earlier(small_vault());
  committed.index_json = edited_json(*committed.index_json, [](OrderedJson& d) {
    d["entries"][0]["title"] = "Editor";
    d["entries"][1]["summary"] = std::string(50, 'x');
  });
  const auto findings =
      check_consistently(gv::render_index_files(small_vault(), k_today), committed);
  REQUIRE(findings.size() == 2);
  CHECK(
      findings[0].message ==
      R"(entry MEM-a-editor differs from its memory file: title (index "Editor", memory file "Éditeur café ✓"))");
  CHECK(findings[1].message == "entry MEM-b-retry differs from its memory file: summary");
}

TEST_CASE("an entry missing a generated key or carrying an extra one is drift", "[index]") {
  gv::CommittedIndexFiles committed = committed_earlier(small_vault());
  committed.index_json = edited_json(*committed.index_json, [](OrderedJson& d) {
    d["entries"][0].erase("status");
    d["entries"][0]["custom"] = 1;
  });
  const auto findings =
      check_consistently(gv::render_index_files(small_vault(), k_today), committed);
  REQUIRE(findings.size() == 1);
  CHECK(findings[0].message ==
        "entry MEM-a-editor differs from its memory file: status (missing), custom (not "
        "generated)");
}

TEST_CASE("an index with version 1 is stale because a regeneration rewrites it", "[index]") {
  gv::CommittedIndexFiles committed = committed_earlier(small_vault());
  committed.index_json =
      edited_json(*committed.index_json, [](OrderedJson& d) { d["version"] = 1; });
  const auto findings =
      check_consistently(gv::render_index_files(small_vault(), k_today), committed);
  REQUIRE(findings.size() == 1);
  CHECK(findings[0].message == R"(version is 1; a regeneration writes "1.0.0")");
}

TEST_CASE("header counts, entry order and formatting are checked too", "[index]") {
  const gv::IndexFiles fresh = gv::render_index_files(small_vault(), k_today);
  gv::CommittedIndexFiles committed = committed_earlier(small_vault());

  SECTION("total_tokens") {
    committed.index_json =
        edited_json(*committed.index_json, [](OrderedJson& d) { d["total_tokens"] = 1; });
    const auto findings = check_consistently(fresh, committed);
    REQUIRE(findings.size() == 1);
    CHECK(findings[0].message == "total_tokens is 1; a regeneration writes 175");
  }
  SECTION("entry order") {
    committed.index_json = edited_json(
        *committed.index_json, [](OrderedJson& d) { std::swap(d["entries"][0], d["entries"][3]); });
    const auto findings = check_consistently(fresh, committed);
    REQUIRE(findings.size() == 1);
    CHECK(findings[0].message == "entries are not sorted by id");
  }
  SECTION("formatting") {
    committed.index_json = OrderedJson::parse(*committed.index_json).dump() + "\n";
    const auto findings = check_consistently(fresh, committed);
    REQUIRE(findings.size() == 1);
    CHECK(findings[0].message == "differs from a regeneration in formatting or key order");
  }
  SECTION("missing generated_at") {
    committed.index_json =
        edited_json(*committed.index_json, [](OrderedJson& d) { d.erase("generated_at"); });
    const auto findings = check_consistently(fresh, committed);
    REQUIRE(findings.size() == 1);
    CHECK(findings[0].message == "no `generated_at` key");
  }
  SECTION("extra top-level key") {
    committed.index_json =
        edited_json(*committed.index_json, [](OrderedJson& d) { d["note"] = "hi"; });
    const auto findings = check_consistently(fresh, committed);
    REQUIRE(findings.size() == 1);
    CHECK(findings[0].message == "unexpected top-level key `note`");
  }
}

TEST_CASE("a corrupt index is stale with the line of the fault", "[index]") {
  gv::CommittedIndexFiles committed = committed_earlier(small_vault());
  committed.index_json = "{\n  \"version\": \"1.0.0\",\n  oops\n}\n";
  const auto findings =
      check_consistently(gv::render_index_files(small_vault(), k_today), committed);
  REQUIRE(findings.size() == 1);
  CHECK(findings[0].line == 3);
  CHECK(findings[0].message.rfind("invalid JSON: ", 0) == 0);
}

TEST_CASE("a hand-edited index.md or README.md is stale at the first changed line", "[index]") {
  const gv::IndexFiles fresh = gv::render_index_files(small_vault(), k_today);
  gv::CommittedIndexFiles committed = committed_from(fresh);
  committed.index_md = *committed.index_md + "- Last updated: 2026-09-01\n";
  committed.memories_readme->replace(committed.memories_readme->find("Total: 3"), 8, "Total: 2");

  const auto findings = check_consistently(fresh, committed);
  REQUIRE(findings.size() == 2);
  CHECK(findings[0].path == ".memory/20-Indices/index.md");
  CHECK(findings[0].message == "differs from a regeneration");
  CHECK(findings[0].line == 43);
  CHECK(findings[1].path == ".memory/10-Memories/README.md");
  CHECK(findings[1].line == 3);

  const auto writes = gv::plan_index_writes(fresh, committed);
  REQUIRE(writes.size() == 2);
  CHECK(writes[0].bytes == fresh.index_md);
  CHECK(writes[1].bytes == fresh.memories_readme);
}

TEST_CASE("missing generated files are stale and all three are written", "[index]") {
  const gv::IndexFiles fresh = gv::render_index_files({}, k_today);
  const auto findings = check_consistently(fresh, gv::CommittedIndexFiles{});
  REQUIRE(findings.size() == 3);
  for (const gv::Finding& finding : findings) {
    CHECK(finding.message == "missing; a regeneration creates it");
  }
  const auto writes = gv::plan_index_writes(fresh, gv::CommittedIndexFiles{});
  REQUIRE(writes.size() == 3);
  CHECK(writes[0].path == ".memory/memory-index.json");
  CHECK(writes[1].path == ".memory/20-Indices/index.md");
  CHECK(writes[2].path == ".memory/10-Memories/README.md");
  CHECK(writes[0].bytes == fresh.index_json);
}

TEST_CASE("json findings only concern memory-index.json", "[index]") {
  std::vector<gv::Memory> changed = small_vault();
  changed[0].title = "Renamed";  // tombstoned: not listed in the Markdown files
  const gv::IndexFiles fresh = gv::render_index_files(changed, k_today);
  const auto findings = check_consistently(fresh, committed_earlier(small_vault()));
  CHECK(json_findings(findings).size() == findings.size());
  REQUIRE(findings.size() == 1);
  CHECK(findings[0].id == "MEM-c-old");
}

}  // namespace index_check_test
