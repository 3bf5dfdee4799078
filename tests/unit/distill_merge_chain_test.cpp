#include <catch2/catch.hpp>

#include "core/distill/merge.hpp"
#include "core/distill/sub_mode.hpp"
#include "tests/unit/gate_test_snapshot.hpp"

namespace distill_merge_chain_test {

namespace {

std::string path(const std::string& id) { return ".memory/10-Memories/" + id + ".md"; }

std::string memory(const std::string& title, const std::string& keywords, int retrievals,
                   const std::string& body = "\nText.\n") {
  return gv::test::note(title,
                        "topic: \"chain\"\nkeywords: [" + keywords +
                            "]\nretrieval_count: " + std::to_string(retrievals) + "\n",
                        body);
}

}  // namespace

TEST_CASE("a merge chain resolves every secondary to the last primary", "[merge][chain]") {
  using Map = std::map<std::string, std::string>;
  CHECK(gv::distill::final_primaries({}).empty());
  CHECK(gv::distill::final_primaries(Map{{"B", "A"}, {"A", "C"}}) == Map{{"A", "C"}, {"B", "C"}});
  CHECK(gv::distill::final_primaries(Map{{"B", "A"}, {"D", "A"}, {"A", "C"}, {"C", "E"}}) ==
        Map{{"A", "E"}, {"B", "E"}, {"C", "E"}, {"D", "E"}});
  CHECK(gv::distill::final_primaries(Map{{"B", "A"}, {"D", "C"}}) == Map{{"B", "A"}, {"D", "C"}});
}

TEST_CASE("merging B into A and then A into C tombstones B merged_into C", "[merge][chain]") {
  // A-B overlap 100%, C-A 75%, C-B 33% (no pair): the run merges B into A first, then A into C.
  const gv::test::MapSnapshot snapshot({
      {path("MEM-a"), memory("A", "x1, x2, x3, x4, x5", 5)},
      {path("MEM-b"), memory("B", "x1, x2, x3", 1)},
      {path("MEM-c"), memory("C", "x3, x4, x5, y1", 10)},
      {path("MEM-r"), memory("R", "zz", 1, "\nSee [[MEM-b]].\n")},
  });
  const gv::Clock clock{*gv::parse_date("2026-11-30"), *gv::parse_instant("2026-11-30T12:00:00Z")};
  const gv::distill::VaultState state = gv::distill::read_vault_state(snapshot, clock.today);
  const gv::distill::SubModeContext context{state, snapshot, clock, std::nullopt};
  const std::unique_ptr<gv::distill::SubMode> merge = gv::distill::make_sub_mode("merge");
  const gv::distill::CandidateSet set = merge->candidates(context);
  std::vector<std::string> keys;
  for (const gv::distill::Candidate& candidate : set.candidates) {
    keys.push_back(candidate.key);
  }
  REQUIRE(keys == std::vector<std::string>{"MEM-a+MEM-b", "MEM-c+MEM-a"});

  const gv::distill::Execution execution = merge->execute(context, set.candidates);
  const auto& changes = execution.draft.plan.changes;
  CHECK_THAT(*changes.at(path("MEM-b")),
             Catch::Contains("tombstone_reason: \"merged_into:MEM-c\"\n"));
  CHECK_THAT(*changes.at(path("MEM-a")),
             Catch::Contains("tombstone_reason: \"merged_into:MEM-c\"\n"));
  CHECK(changes.at(path("MEM-b"))->find("merged_into:MEM-a") == std::string::npos);
  CHECK_THAT(*changes.at(path("MEM-r")), Catch::Contains("See [[MEM-c]]."));
  CHECK_THAT(*changes.at(path("MEM-c")), Catch::Contains("## Merged From MEM-a"));
  // The log still records each merge as it happened.
  REQUIRE(execution.draft.affected_memories.size() == 2);
  CHECK(execution.draft.affected_memories[0]["primary"] == "MEM-a");
  CHECK(execution.draft.affected_memories[1]["primary"] == "MEM-c");
}

}  // namespace distill_merge_chain_test
