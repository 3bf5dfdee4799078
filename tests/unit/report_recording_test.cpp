#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "core/scoring/render.hpp"
#include "core/scoring/report.hpp"
#include "core/scoring/report_json.hpp"
#include "tests/unit/scoring_fixtures.hpp"

namespace report_recording_test {

using gv::Memory;
using gv::scoring_test::k_today;
using gv::scoring_test::memory;
using gv::scoring_test::ymd;
namespace scoring = gv::scoring;

TEST_CASE("retrievals count as recorded once any memory, active or tombstoned, has one",
          "[report][recording]") {
  std::vector<Memory> vault{memory("MEM-a", 100, {"x", "y"}), memory("MEM-b", 100, {"x", "y"})};
  scoring::Report report = scoring::build_report(vault, k_today);
  scoring::Recording none = scoring::retrieval_recording(vault, report.scores);
  CHECK_FALSE(none.retrievals);
  CHECK_FALSE(none.first_retrieval);

  Memory gone = memory("MEM-gone", 200);
  gone.tombstoned = true;
  gone.retrieval_count = 2;
  gone.last_retrieved = ymd(2026, 3, 1);
  vault.push_back(gone);
  vault[1].retrieval_count = 1;
  vault[1].last_retrieved = ymd(2026, 9, 1);
  report = scoring::build_report(vault, k_today);
  const scoring::Recording some = scoring::retrieval_recording(vault, report.scores);
  CHECK(some.retrievals);
  CHECK(some.first_retrieval == ymd(2026, 3, 1));
  CHECK(some.last_retrieval == ymd(2026, 9, 1));
}

TEST_CASE("the report says where its signals come from only when told, in text and JSON",
          "[report][recording]") {
  const std::vector<Memory> vault{memory("MEM-a", 100, {"x", "y"}),
                                  memory("MEM-b", 100, {"x", "y"})};
  scoring::Report report = scoring::build_report(vault, k_today);
  REQUIRE(report.candidates.purge.size() == 2);
  CHECK_THAT(scoring::render_markdown(report), !Catch::Contains("Retrievals recorded"));
  CHECK_FALSE(scoring::report_json(report).contains("recording"));

  report.recording = scoring::retrieval_recording(vault, report.scores);
  const std::string never = scoring::render_markdown(report);
  CHECK_THAT(never, Catch::Contains("| Most retrieved | None |\n| Retrievals recorded | never: "));
  CHECK_THAT(never, Catch::Contains("\n\n**No evidence**: 2 of these candidates have their score "
                                    "\"never retrieved\", but no retrieval has ever been recorded "
                                    "in this repository; review them before purging.\n"));
  CHECK_THAT(never, Catch::Contains("MEM-a, MEM-b; review first: \"never retrieved\" "
                                    "is no evidence here\n"));
  CHECK(scoring::render_json(report) == scoring::report_json(report).dump(2));

  report.recording->retrievals = true;
  report.recording->first_retrieval = ymd(2026, 10, 2);
  report.recording->last_retrieval = ymd(2026, 11, 29);
  report.recording->events = true;
  report.recording->first_event = "2026-11-01T09:00:00.000Z";
  report.recording->recorded_by = {"claude", "gemini"};
  const std::string recorded = scoring::render_markdown(report);
  CHECK_THAT(recorded, Catch::Contains("| Retrievals recorded | yes, the memories' last "
                                       "retrievals from 2026-10-02 to 2026-11-29 |\n| Events "
                                       "recorded | yes, the first at "
                                       "2026-11-01T09:00:00.000Z |\n| Recorded by | the hooks of "
                                       "claude, gemini |\n"));
  CHECK_THAT(recorded, !Catch::Contains("No evidence"));
  CHECK(scoring::render_json(report) == scoring::report_json(report).dump(2));
  const nlohmann::json document = scoring::report_json(report);
  CHECK(document["recording"]["never_retrieved_is_evidence"] == true);
  CHECK(document["recording"]["recorded_by"] == nlohmann::json{"claude", "gemini"});
}

}  // namespace report_recording_test
