#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "core/distill/log.hpp"
#include "core/distill/revert.hpp"
#include "core/distill/sub_mode.hpp"
#include "core/distill/sub_mode_registry.hpp"
#include "core/error.hpp"
#include "core/merge/distill_log_merge.hpp"
#include "tests/unit/gate_test_snapshot.hpp"

namespace distill_sub_mode_registry_test {

using gv::distill::SubModeInfo;
using gv::distill::SubModeRegistry;
using Json = nlohmann::ordered_json;

namespace {

// The fixture sub-mode: a whole sub-mode in one class, as a new core/distill/<name>.cpp would
// hold it. It offers every active memory and stamps the selected ones with `fixture: true`.
class Stamp final : public gv::distill::SubMode {
 public:
  [[nodiscard]] std::string_view name() const override { return "stamp"; }
  [[nodiscard]] gv::distill::CandidateSet candidates(
      const gv::distill::SubModeContext& context) const override {
    gv::distill::CandidateSet set;
    for (const gv::Memory& memory : context.state.vault.memories) {
      gv::distill::Candidate candidate;
      candidate.key = memory.id;
      candidate.label = memory.id;
      set.candidates.push_back(std::move(candidate));
    }
    return set;
  }
  [[nodiscard]] gv::distill::Execution execute(
      const gv::distill::SubModeContext& context,
      const std::vector<gv::distill::Candidate>& selected) const override {
    gv::distill::Execution execution;
    execution.draft.type = "stamp";
    for (const gv::distill::Candidate& candidate : selected) {
      const std::string path = ".memory/10-Memories/" + candidate.key + ".md";
      execution.draft.plan.write(path, *context.snapshot.read(path) + "stamped\n");
      execution.draft.affected_memories.push_back(candidate.key);
    }
    return execution;
  }
};

std::unique_ptr<gv::distill::SubMode> make_stamp() { return std::make_unique<Stamp>(); }

// The one row that registers it.
const SubModeInfo k_stamp_row{"stamp", "Stamp memories (test fixture)", "total_stamped", true,
                              make_stamp};

SubModeRegistry with_stamp() {
  SubModeRegistry registry = gv::distill::builtin_sub_modes();
  registry.add(k_stamp_row);
  return registry;
}

gv::distill::NewOperation operation(std::string type, Json affected) {
  gv::distill::NewOperation op;
  op.type = std::move(type);
  op.timestamp = *gv::parse_instant("2026-11-30T12:00:00Z");
  op.affected_memories = std::move(affected);
  return op;
}

}  // namespace

TEST_CASE("the built-in table lists the sub-modes in help order with their counters",
          "[distill][sub-mode]") {
  const SubModeRegistry& builtin = gv::distill::builtin_sub_modes();
  std::vector<std::string_view> names;
  for (const SubModeInfo& row : builtin.rows()) {
    names.push_back(row.name);
    const std::unique_ptr<gv::distill::SubMode> mode = row.make();
    REQUIRE(mode != nullptr);
    CHECK(mode->name() == row.name);  // the row and its file agree on the name
    CHECK_FALSE(row.help.empty());
  }
  CHECK(names == std::vector<std::string_view>{"purge", "merge", "compress", "refine", "gc", "auto",
                                               "revise", "meta", "review", "learn", "dream"});
  std::vector<std::string_view> counters;
  for (const gv::distill::LogCounter& counter : builtin.log_counters()) {
    counters.push_back(counter.counter);
  }
  CHECK(counters == std::vector<std::string_view>{"total_purged", "total_merged",
                                                  "total_compressed", "total_refined",
                                                  "total_gc_deleted", "total_reviewed"});
  CHECK(gv::distill::make_sub_mode("merge")->name() == "merge");
  CHECK(gv::distill::make_sub_mode("stamp") == nullptr);
}

TEST_CASE("a sub-mode registered with one row gets its flag", "[distill][sub-mode]") {
  const SubModeRegistry registry = with_stamp();
  const SubModeInfo* row = registry.choose({"stamp"});
  REQUIRE(row != nullptr);
  CHECK(row->help == "Stamp memories (test fixture)");
  CHECK(registry.choose({}) == nullptr);
  CHECK_THROWS_AS(registry.choose({"stamp", "purge"}), gv::UsageError);
  CHECK_THROWS_WITH(registry.choose({"stamp", "purge"}),
                    "choose one sub-mode: --purge, --merge, --compress, --refine, --gc, --auto, "
                    "--revise, --meta, --review, --learn, --dream or --stamp");
  CHECK_THROWS_WITH(gv::distill::builtin_sub_modes().choose({"gc", "purge"}),
                    "choose one sub-mode: --purge, --merge, --compress, --refine, --gc, --auto, "
                    "--revise, --meta, --review, --learn or --dream");

  // The sub-mode it makes runs like any other: candidates, then a draft of its edits.
  const gv::test::MapSnapshot snapshot({{".memory/10-Memories/MEM-a.md", gv::test::note("a")},
                                        {".memory/10-Memories/MEM-b.md", gv::test::note("b")}});
  const gv::Clock clock{*gv::parse_date("2026-11-30"), *gv::parse_instant("2026-11-30T12:00:00Z")};
  const gv::distill::VaultState state = gv::distill::read_vault_state(snapshot, clock.today);
  const gv::distill::SubModeContext context{state, snapshot, clock, std::nullopt};
  const std::unique_ptr<gv::distill::SubMode> mode = registry.make("stamp");
  REQUIRE(mode != nullptr);
  const gv::distill::CandidateSet set = mode->candidates(context);
  REQUIRE(set.candidates.size() == 2);
  const gv::distill::Execution execution = mode->execute(context, {set.candidates[1]});
  CHECK(execution.draft.affected_memories == Json::array({"MEM-b"}));
}

TEST_CASE("a sub-mode registered with one row gets its log counter", "[distill][sub-mode]") {
  const SubModeRegistry registry = with_stamp();
  gv::distill::DistillLog log;
  log.append(operation("stamp", Json::array({"MEM-a", "MEM-b"})), registry);
  log.append(operation("purge", Json::array({"MEM-c"})), registry);
  const Json doc = Json::parse(log.serialize());
  CHECK(doc["summary"]["total_operations"] == 2);
  CHECK(doc["summary"]["total_stamped"] == 2);
  CHECK(doc["summary"]["total_purged"] == 1);

  // The vault-log merge driver recounts it from the merged operations.
  gv::distill::DistillLog theirs;
  theirs.append(operation("stamp", Json::array({"MEM-x"})), registry);
  Json theirs_doc = Json::parse(theirs.serialize());
  theirs_doc["operations"][0]["id"] = "distill_other";
  const std::optional<std::string> merged =
      gv::merge::merge_distill_logs(log.serialize(), theirs_doc.dump(2), registry);
  REQUIRE(merged);
  CHECK(Json::parse(*merged)["summary"]["total_stamped"] == 3);
  CHECK(Json::parse(*merged)["summary"]["total_operations"] == 3);

  // Without the row the log has no counter for it: only total_operations moves.
  gv::distill::DistillLog plain;
  plain.append(operation("stamp", Json::array({"MEM-a"})));
  CHECK_FALSE(Json::parse(plain.serialize())["summary"].contains("total_stamped"));
}

TEST_CASE("a sub-mode registered with one row gets its revert eligibility", "[distill][sub-mode]") {
  CHECK(gv::distill::revertible_action("stamp", with_stamp()));
  CHECK_FALSE(gv::distill::revertible_action("stamp"));

  SubModeInfo one_way = k_stamp_row;
  one_way.revertible = false;
  SubModeRegistry registry = gv::distill::builtin_sub_modes();
  registry.add(one_way);
  CHECK_FALSE(gv::distill::revertible_action("stamp", registry));
  CHECK(gv::distill::revertible_action("purge", registry));
  CHECK(gv::distill::revertible_action("review", registry));
}

TEST_CASE("a row needs a unique name and a factory", "[distill][sub-mode]") {
  SubModeRegistry registry = with_stamp();
  CHECK_THROWS_WITH(registry.add(k_stamp_row), "sub-mode `stamp` is registered twice");
  SubModeInfo nameless = k_stamp_row;
  nameless.name = "";
  CHECK_THROWS_AS(registry.add(nameless), gv::Error);
  SubModeInfo no_factory = k_stamp_row;
  no_factory.name = "other";
  no_factory.make = nullptr;
  CHECK_THROWS_AS(registry.add(no_factory), gv::Error);
}

}  // namespace distill_sub_mode_registry_test
