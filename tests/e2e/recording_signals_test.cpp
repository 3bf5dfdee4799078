#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "tests/e2e/sandbox.hpp"
#include "tests/e2e/vault_fixture.hpp"

namespace recording_signals_test {

using gv::test::Result;
using gv::test::Sandbox;
using nlohmann::json;

namespace {

// Two old, long memories nothing ever retrieved: staleness, size and "never retrieved" make them
// purge candidates (composite 0.3 + 0.25 + 0.2 = 0.75 >= 0.7).
void write_unretrieved_vault(Sandbox& sandbox) {
  sandbox.write(".memory/10-Memories/MEM-old-a.md",
                gv::test::memory_file("Old note about alpha", "2026-01-01", "alpha, first", 0,
                                      "null", {}, 900));
  sandbox.write(".memory/10-Memories/MEM-old-b.md",
                gv::test::memory_file("Old note about beta", "2026-01-01", "beta, second", 0,
                                      "null", {}, 900));
  REQUIRE(sandbox.vault({"index"}).code == 0);
  sandbox.commit_all("vault");
}

}  // namespace

TEST_CASE(
    "while no retrieval was ever recorded, the report and the purge dry run say "
    "\"never retrieved\" is no evidence",
    "[recording][report]") {
  Sandbox sandbox;
  write_unretrieved_vault(sandbox);

  const Result report = sandbox.vault({"distill"});
  INFO(report.err);
  REQUIRE(report.code == 0);
  CHECK_THAT(report.out,
             Catch::Contains("| Retrievals recorded | never: nothing here has recorded "
                             "a retrieval, so \"never retrieved\" is no evidence yet |"));
  CHECK_THAT(report.out, Catch::Contains("| Events recorded | never |"));
  CHECK_THAT(report.out, Catch::Contains("| Recorded by | no agent hooks: `git vault init "
                                         "--agent claude` wires Claude Code's |"));
  CHECK_THAT(report.out, Catch::Contains("**No evidence**: 2 of these candidates have their "
                                         "score \"never retrieved\""));
  CHECK_THAT(report.out, Catch::Contains("review first: \"never retrieved\" is no evidence here"));

  const json document = json::parse(sandbox.vault({"distill", "--json"}).out);
  CHECK(document["recording"]["retrievals"] == false);
  CHECK(document["recording"]["never_retrieved_is_evidence"] == false);
  CHECK(document["recording"]["first_retrieval"].is_null());
  // The scores themselves stay as defined.
  CHECK(document["memories"][0]["zero_retrieval"] == 1.0);

  const Result dry = sandbox.vault({"distill", "--purge", "--dry-run"});
  REQUIRE(dry.code == 0);
  CHECK_THAT(dry.out, Catch::Contains("Note: no retrieval has ever been recorded in this "
                                      "repository"));
  CHECK_THAT(dry.out, Catch::Contains("never retrieved (no evidence: no retrieval was ever "
                                      "recorded here)"));
  const json dry_json =
      json::parse(sandbox.vault({"distill", "--purge", "--dry-run", "--json"}).out);
  CHECK(dry_json["candidates"][0]["retrieval_evidence"] == false);
  CHECK(dry_json["candidates"][0]["never_retrieved"] == true);
}

TEST_CASE("once retrievals and events are recorded, the report says since when and by whom",
          "[recording][report]") {
  Sandbox sandbox;
  write_unretrieved_vault(sandbox);
  REQUIRE(sandbox.vault({"show", "MEM-old-a", "--record"}).code == 0);
  REQUIRE(sandbox
              .vault({"events", "add", "--category", "success", "--type", "t", "--message",
                      "first event"})
              .code == 0);
  REQUIRE(sandbox.vault({"init", "--agent", "claude", "--no-hooks"}).code == 0);

  const Result report = sandbox.vault({"distill"});
  REQUIRE(report.code == 0);
  CHECK_THAT(report.out, Catch::Contains("| Retrievals recorded | yes, last on 2026-11-30 |"));
  CHECK_THAT(report.out,
             Catch::Contains("| Events recorded | yes, the first at 2026-11-30T12:00:00."));
  CHECK_THAT(report.out, Catch::Contains("| Recorded by | the hooks of claude |"));
  CHECK_THAT(report.out, !Catch::Contains("**No evidence**"));
  const json document = json::parse(sandbox.vault({"distill", "--json"}).out);
  CHECK(document["recording"]["retrievals"] == true);
  CHECK(document["recording"]["first_retrieval"] == "2026-11-30");
  CHECK(document["recording"]["last_retrieval"] == "2026-11-30");
  CHECK(document["recording"]["recorded_by"] == json{"claude"});
  const Result dry = sandbox.vault({"distill", "--purge", "--dry-run"});
  CHECK_THAT(dry.out, !Catch::Contains("no evidence"));
}

}  // namespace recording_signals_test
