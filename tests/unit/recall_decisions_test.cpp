#include <catch2/catch.hpp>

#include "core/error.hpp"
#include "core/recall/decisions.hpp"

namespace recall_decisions_test {

namespace {

using gv::recall::Action;
using gv::recall::CandidateKind;
using gv::recall::Decision;

gv::recall::Analysis two_candidates() {
  gv::recall::Analysis analysis;
  gv::recall::Candidate pressure;
  pressure.kind = CandidateKind::pressure;
  pressure.id = "tr0000000001";
  gv::recall::Candidate superseded;
  superseded.kind = CandidateKind::superseded;
  superseded.id = "tr0000000002";
  analysis.pressure.push_back(pressure);
  analysis.superseded.push_back(superseded);
  return analysis;
}

}  // namespace

TEST_CASE("actions are read by name or letter", "[recall][decisions]") {
  CHECK(gv::recall::parse_action("k") == Action::keep);
  CHECK(gv::recall::parse_action("PIN") == Action::pin);
  CHECK(gv::recall::parse_action("snooze") == Action::snooze);
  CHECK(gv::recall::parse_action("d") == Action::demote);
  CHECK(gv::recall::parse_action("archive") == Action::archive);
  CHECK(gv::recall::parse_action("mark-superseded") == Action::mark_superseded);
  CHECK(gv::recall::parse_action("m") == Action::mark_superseded);
  CHECK_FALSE(gv::recall::parse_action("delete"));
  CHECK_FALSE(gv::recall::parse_action(""));
}

TEST_CASE("a --decide value names an id, an action and for snooze a duration",
          "[recall][decisions]") {
  const auto plain = gv::recall::parse_decide_arg("tr0000000001=demote");
  CHECK(plain.id == "tr0000000001");
  CHECK(plain.decision == Decision{Action::demote, 30});
  const auto caret = gv::recall::parse_decide_arg("^tr0000000001=snooze:14");
  CHECK(caret.id == "tr0000000001");
  CHECK(caret.decision == Decision{Action::snooze, 14});
  CHECK(gv::recall::parse_decide_arg("tr0000000001=s:7d").decision == Decision{Action::snooze, 7});
  CHECK_THROWS_AS(gv::recall::parse_decide_arg("tr0000000001"), gv::UsageError);
  CHECK_THROWS_AS(gv::recall::parse_decide_arg("TR0000000001=keep"), gv::UsageError);
  CHECK_THROWS_AS(gv::recall::parse_decide_arg("tr0000000001=burn"), gv::UsageError);
  CHECK_THROWS_AS(gv::recall::parse_decide_arg("tr0000000001=pin:3"), gv::UsageError);
  CHECK_THROWS_AS(gv::recall::parse_decide_arg("tr0000000001=snooze:0"), gv::UsageError);
  CHECK_THROWS_AS(gv::recall::parse_decide_arg("tr0000000001=snooze:x"), gv::UsageError);
}

TEST_CASE("apply-all fills in the recommended action where --decide is silent",
          "[recall][decisions]") {
  const auto analysis = two_candidates();
  const auto all = gv::recall::resolve_decisions(analysis, {}, true);
  CHECK(all.at("tr0000000001") == Decision{Action::demote, 30});
  CHECK(all.at("tr0000000002") == Decision{Action::archive, 30});
  const auto mixed = gv::recall::resolve_decisions(analysis, {"tr0000000001=pin"}, true);
  CHECK(mixed.at("tr0000000001") == Decision{Action::pin, 30});
  CHECK(mixed.at("tr0000000002") == Decision{Action::archive, 30});
  const auto only = gv::recall::resolve_decisions(analysis, {"tr0000000002=keep"}, false);
  CHECK(only.size() == 1);
  CHECK(only.at("tr0000000002") == Decision{Action::keep, 30});
}

TEST_CASE("option --decide refuses non-candidates, repeats and actions a kind does not offer",
          "[recall][decisions]") {
  const auto analysis = two_candidates();
  CHECK_THROWS_WITH(gv::recall::resolve_decisions(analysis, {"tr00000000ff=keep"}, false),
                    Catch::Contains("^tr00000000ff is not a candidate"));
  CHECK_THROWS_WITH(
      gv::recall::resolve_decisions(analysis, {"tr0000000001=keep", "tr0000000001=pin"}, false),
      Catch::Contains("decided twice"));
  CHECK_THROWS_WITH(gv::recall::resolve_decisions(analysis, {"tr0000000002=demote"}, false),
                    Catch::Contains("archive, keep"));
}

TEST_CASE("terminal answers", "[recall][decisions]") {
  CHECK(gv::recall::parse_mode_answer("a") == gv::recall::Mode::apply_all);
  CHECK(gv::recall::parse_mode_answer(" Apply all ") == gv::recall::Mode::apply_all);
  CHECK(gv::recall::parse_mode_answer("i") == gv::recall::Mode::individually);
  CHECK(gv::recall::parse_mode_answer("c") == gv::recall::Mode::cancel);
  CHECK_FALSE(gv::recall::parse_mode_answer("maybe"));

  CHECK(gv::recall::parse_candidate_answer("d", CandidateKind::pressure) ==
        Decision{Action::demote, 30});
  CHECK(gv::recall::parse_candidate_answer("s", CandidateKind::pressure) ==
        Decision{Action::snooze, 30});
  CHECK(gv::recall::parse_candidate_answer("s 14", CandidateKind::pressure) ==
        Decision{Action::snooze, 14});
  CHECK(gv::recall::parse_candidate_answer("s 14d", CandidateKind::pressure) ==
        Decision{Action::snooze, 14});
  CHECK(gv::recall::parse_candidate_answer("s14d", CandidateKind::pressure) ==
        Decision{Action::snooze, 14});
  CHECK_FALSE(gv::recall::parse_candidate_answer("k 3", CandidateKind::pressure));
  CHECK_FALSE(gv::recall::parse_candidate_answer("", CandidateKind::pressure));
  CHECK(gv::recall::parse_candidate_answer("a", CandidateKind::superseded) ==
        Decision{Action::archive, 30});
  CHECK_FALSE(gv::recall::parse_candidate_answer("d", CandidateKind::superseded));
  CHECK_FALSE(gv::recall::parse_candidate_answer("p", CandidateKind::superseded));
}

}  // namespace recall_decisions_test
