#include <catch2/catch.hpp>

#include "core/distill/dream_rules.hpp"
#include "core/distill/learn_rules.hpp"
#include "core/distill/meta_rules.hpp"
#include "core/distill/review_rules.hpp"
#include "core/distill/revise_rules.hpp"
#include "core/distill/telemetry_support.hpp"
#include "tests/secret_corpus.hpp"
#include "tests/unit/telemetry_fixtures.hpp"

namespace telemetry_rules_test {

using namespace gv;
using namespace gv::distill;
using gv::test::event;
using gv::test::EventSpec;
using gv::test::memory;
using gv::test::simple_terms;

namespace {

// `count` deviations at one checkpoint, each in the session `sessions[i]`.
std::vector<events::Event> strikes(const std::vector<std::string>& sessions,
                                   std::optional<std::int64_t> task, std::string message,
                                   std::string checkpoint = "phase_2") {
  std::vector<events::Event> out;
  for (std::size_t i = 0; i < sessions.size(); ++i) {
    EventSpec spec;
    spec.id = fmt::format("evt_{}_abcdef", i + 1);
    spec.session = sessions[i];
    spec.task = task;
    spec.message = message;
    spec.checkpoint = checkpoint;
    out.push_back(event(spec));
  }
  return out;
}

events::Prompt prompt(std::string display, std::string session, std::int64_t ms) {
  events::Prompt p;
  p.display = std::move(display);
  p.session_id = std::move(session);
  p.has_session = true;
  p.timestamp_ms = ms;
  p.project = "/repo";
  return p;
}

}  // namespace

TEST_CASE("revise: a task number correlates only as a whole number in source", "[telemetry]") {
  CHECK(source_names_task("specs/259_retry_hooks/reports/a.md", 259));
  CHECK(source_names_task("task 0259", 259));
  CHECK_FALSE(source_names_task("specs/2590_x", 259));
  CHECK_FALSE(source_names_task("user input", 259));
}

TEST_CASE("revise: three strikes in distinct sessions contradict, two do not", "[telemetry]") {
  const std::vector<Memory> vault{memory("MEM-retry", {"retry"}, "specs/259_retry/summary.md"),
                                  memory("MEM-other", {"other"}, "specs/7_x")};
  SECTION("three sessions") {
    const ReviseResult result =
        classify_revise(vault, strikes({"s1", "s2", "s3"}, 259, "Retry skipped"), simple_terms());
    REQUIRE(result.memories.size() == 1);
    const MemoryVerdict& verdict = result.memories[0];
    CHECK(verdict.memory_id == "MEM-retry");
    CHECK(verdict.bucket == ReviseBucket::contradicted);
    CHECK(verdict.rule == k_rule_three_strikes);
    CHECK(verdict.sessions == 3);
    CHECK(verdict.checkpoint == "phase_2");
    CHECK(verdict.evidence_ids ==
          std::vector<std::string>{"evt_1_abcdef", "evt_2_abcdef", "evt_3_abcdef"});
    CHECK(verdict.correlations[0].rule == k_rule_task_in_source);
    CHECK(result.count(ReviseBucket::contradicted) == 1);
    CHECK_THAT(proposed_revision(verdict, "2026-12-01"),
               Catch::Contains("- \"Retry skipped\" (3 times: evt_1_abcdef, evt_2_abcdef, "
                               "evt_3_abcdef)"));
  }
  SECTION("two sessions") {
    const ReviseResult result =
        classify_revise(vault, strikes({"s1", "s2"}, 259, "Retry skipped"), simple_terms());
    REQUIRE(result.memories.size() == 1);
    CHECK(result.memories[0].bucket == ReviseBucket::corroborated);
    CHECK(result.memories[0].rule == k_rule_below_three_strikes);
  }
  SECTION("three repeats in one session are one strike") {
    const ReviseResult result =
        classify_revise(vault, strikes({"s1", "s1", "s1"}, 259, "Retry skipped"), simple_terms());
    REQUIRE(result.memories.size() == 1);
    CHECK(result.memories[0].bucket == ReviseBucket::corroborated);
    CHECK(result.memories[0].sessions == 1);
  }
  SECTION("different checkpoints do not add up") {
    std::vector<events::Event> events = strikes({"s1", "s2"}, 259, "Retry skipped");
    const std::vector<events::Event> third = strikes({"s3"}, 259, "Retry skipped", "phase_3");
    events.insert(events.end(), third.begin(), third.end());
    CHECK(classify_revise(vault, events, simple_terms()).memories[0].bucket ==
          ReviseBucket::corroborated);
  }
}

TEST_CASE("revise: without a task match, keyword overlap of 30% correlates", "[telemetry]") {
  const std::vector<Memory> vault{memory("MEM-cache", {"cache", "invalidation", "hooks"}),
                                  memory("MEM-b", {"unrelated"})};
  EventSpec hit{.id = "e1", .message = "cache invalidation failed badly again"};
  EventSpec miss{.id = "e2", .message = "cache warmed during deployment rollout today"};
  const ReviseResult result = classify_revise(vault, {event(hit), event(miss)}, simple_terms());
  REQUIRE(result.memories.size() == 1);
  REQUIRE(result.memories[0].correlations.size() == 1);
  CHECK(result.memories[0].correlations[0].event_id == "e1");
  CHECK(result.memories[0].correlations[0].rule == k_rule_keyword_overlap);
  CHECK(result.memories[0].correlations[0].overlap == Approx(2.0 / 5.0));
  CHECK(result.correlated_events == 1);
}

TEST_CASE("revise: an event goes to its highest overlap, the first by id on a tie", "[telemetry]") {
  // Listed out of id order: the scan is by id, so MEM-a wins the tie with MEM-c, and MEM-z's
  // larger overlap beats both wherever it sits.
  const std::vector<Memory> vault{memory("MEM-c", {"cache", "other"}),
                                  memory("MEM-a", {"cache", "words"}),
                                  memory("MEM-none", {"unrelated"})};
  EventSpec tie{.id = "e1", .message = "cache layer failed"};  // terms: cache, layer, failed
  ReviseResult result = classify_revise(vault, {event(tie)}, simple_terms());
  REQUIRE(result.memories.size() == 1);
  CHECK(result.memories[0].memory_id == "MEM-a");
  CHECK(result.memories[0].correlations[0].overlap == Approx(1.0 / 3.0));

  std::vector<Memory> with_z = vault;
  with_z.push_back(memory("MEM-z", {"cache", "layer"}));
  result = classify_revise(with_z, {event(tie)}, simple_terms());
  REQUIRE(result.memories.size() == 1);
  CHECK(result.memories[0].memory_id == "MEM-z");
  CHECK(result.memories[0].correlations[0].overlap == Approx(2.0 / 3.0));
}

TEST_CASE("revise: tombstoned memories are never correlated", "[telemetry]") {
  Memory gone = memory("MEM-gone", {"retry"}, "specs/259_x");
  gone.tombstoned = true;
  CHECK(classify_revise({gone}, strikes({"s1", "s2", "s3"}, 259, "Retry skipped"), simple_terms())
            .memories.empty());
}

TEST_CASE("revise: uncovered recurring events are gaps, system changes escalate", "[telemetry]") {
  const std::vector<Memory> vault{memory("MEM-a", {"alpha"})};
  SECTION("knowledge gap") {
    const ReviseResult result = classify_revise(
        vault, strikes({"s1", "s2", "s3"}, std::nullopt, "Lockfile drift broke the build"),
        simple_terms());
    REQUIRE(result.gaps.size() == 1);
    CHECK(result.gaps[0].key == "gap-phase-2-deviation");
    CHECK(result.gaps[0].rule == k_rule_gap_knowledge);
    CHECK_FALSE(result.gaps[0].system_change());
    CHECK(result.gaps[0].evidence_ids.size() == 3);
  }
  SECTION("system change") {
    const ReviseResult result = classify_revise(
        vault, strikes({"s1", "s2", "s3"}, std::nullopt, "The commit hook rejected it"),
        simple_terms());
    REQUIRE(result.gaps.size() == 1);
    CHECK(result.gaps[0].system_change());
  }
  SECTION("two sessions are no gap") {
    CHECK(classify_revise(vault, strikes({"s1", "s2"}, std::nullopt, "Lockfile drift"),
                          simple_terms())
              .gaps.empty());
  }
}

TEST_CASE("revise: OTel error types cited in detail travel with the evidence", "[telemetry]") {
  std::vector<events::Event> events = strikes({"s1", "s2", "s3"}, 259, "Retry skipped");
  events[0].detail["error.type"] = "ENOENT";
  const ReviseResult result =
      classify_revise({memory("MEM-r", {"x"}, "specs/259_r")}, events, simple_terms());
  CHECK(result.memories[0].otel_error_types == std::vector<std::string>{"ENOENT"});
}

TEST_CASE("meta: recurring deviations at a checkpoint become proposals", "[telemetry]") {
  SECTION("three sessions") {
    const MetaResult result =
        find_meta_proposals(strikes({"s1", "s2", "s3"}, 1, "Skipped verification"), simple_terms());
    REQUIRE(result.proposals.size() == 1);
    const MetaProposal& proposal = result.proposals[0];
    CHECK(proposal.key == "meta-phase-2-deviation");
    CHECK(proposal.rule == k_rule_recurring_at_checkpoint);
    CHECK(proposal.affected_area == "checkpoint phase_2");
    CHECK(proposal.evidence_ids.size() == 3);
  }
  SECTION("two sessions, or one session three times") {
    CHECK(find_meta_proposals(strikes({"s1", "s2"}, 1, "x"), simple_terms()).proposals.empty());
    CHECK(
        find_meta_proposals(strikes({"s1", "s1", "s1"}, 1, "x"), simple_terms()).proposals.empty());
  }
  SECTION("without a checkpoint only when a part of the system is named") {
    std::vector<events::Event> events = strikes({"s1", "s2", "s3"}, 1, "Tests were slow");
    for (events::Event& e : events) {
      e.checkpoint.reset();
    }
    CHECK(find_meta_proposals(events, simple_terms()).proposals.empty());
    events[1].message = "The review skill gave up";
    const MetaResult named = find_meta_proposals(events, simple_terms());
    REQUIRE(named.proposals.size() == 1);
    CHECK(named.proposals[0].affected_area == k_default_affected_area);
  }
}

TEST_CASE("meta: reflection difficulties recurring in three sessions", "[telemetry]") {
  std::vector<events::Event> events;
  for (int i = 0; i < 3; ++i) {
    EventSpec spec{.id = fmt::format("r{}", i),
                   .category = "success",
                   .event_type = "reflection",
                   .session = fmt::format("s{}", i),
                   .message = "reflection"};
    spec.detail["what_was_hard"] = "flaky integration tests on the runner";
    events.push_back(event(spec));
  }
  const MetaResult result = find_meta_proposals(events, simple_terms());
  REQUIRE(result.proposals.size() == 1);
  CHECK(result.proposals[0].rule == k_rule_recurring_reflection);
  CHECK(result.reflections == 3);
  events.pop_back();
  CHECK(find_meta_proposals(events, simple_terms()).proposals.empty());
}

TEST_CASE("review: every statement rests on cited records of each tier", "[telemetry]") {
  const std::vector<Memory> vault{memory("MEM-hooks", {"hooks", "retry"}, "", "Hooks retry"),
                                  memory("MEM-else", {"other"})};
  ReviewSources sources;
  sources.memories = &vault;
  sources.events = std::vector<events::Event>{
      event({.id = "e1", .message = "hooks timed out", .timestamp = "2026-11-01T00:00:00Z"}),
      event({.id = "e2", .message = "unrelated", .timestamp = "2026-11-02T00:00:00Z"})};
  sources.prompts = std::vector<events::Prompt>{prompt("why do hooks hang", "a", 1000)};
  sources.artifacts = {{"specs/archive/001_x/summaries/s.md", "# S\n\nThe hooks were slow.\n"}};
  const ReviewAnswer answer = answer_review("Why do hooks fail?", sources, simple_terms());
  REQUIRE(answer.evidence.size() == 4);
  CHECK(answer.evidence[0].tier == "Vault / memory");
  CHECK(answer.evidence[0].record == "MEM-hooks");
  CHECK(answer.evidence[1].record == "e1");
  CHECK(answer.evidence[2].tier == "Tier 3 / history.jsonl");
  CHECK(answer.evidence[3].record == "specs/archive/001_x/summaries/s.md:3");
  const std::string text = render_review(answer, "Why do hooks fail?");
  CHECK_THAT(text, Catch::Contains("- [Tier 2 / events.jsonl] e1: hooks timed out"));
  CHECK_THAT(text, Catch::Contains("OTel not enabled for this session/repo"));
}

TEST_CASE("review: a question of short words never searches on its stop words", "[telemetry]") {
  CHECK(question_terms("what is the rust ci node?") ==
        std::vector<std::string>{"rust", "ci", "node"});
  const std::vector<Memory> vault{memory("MEM-other", {"theme"}, "", "The other thing"),
                                  memory("MEM-ci", {"ci", "node"}, "", "CI runs on Node 20")};
  ReviewSources sources;
  sources.memories = &vault;
  sources.events = std::vector<events::Event>{
      event({.id = "e1", .message = "the build then broke", .timestamp = "2026-11-01T00:00:00Z"}),
      event(
          {.id = "e2", .message = "rust toolchain missing", .timestamp = "2026-11-02T00:00:00Z"})};
  const ReviewAnswer answer = answer_review("what is the rust ci node?", sources, simple_terms());
  std::vector<std::string> cited;
  for (const Citation& citation : answer.evidence) {
    cited.push_back(citation.record);
  }
  // "the", "then", "other" and "theme" are never matched: only whole words of the question.
  CHECK(cited == std::vector<std::string>{"MEM-ci", "e2"});
}

TEST_CASE("review: a memory or an event the question names by id comes first", "[telemetry]") {
  const std::vector<Memory> vault{
      memory("MEM-hooks", {"hooks", "retry"}, "", "Hooks retry"),
      memory("MEM-2026-03-05-001-clean-break", {"naming"}, "", "Clean break renames")};
  ReviewSources sources;
  sources.memories = &vault;
  sources.events = std::vector<events::Event>{
      event({.id = "evt_17_abcdef", .message = "renamed", .timestamp = "2026-11-01T00:00:00Z"})};
  const ReviewAnswer answer = answer_review(
      "Does MEM-2026-03-05-001-clean-break still hold after evt_17_abcdef and the hooks?", sources,
      simple_terms());
  REQUIRE(answer.evidence.size() == 3);
  CHECK(answer.evidence[0].record == "MEM-2026-03-05-001-clean-break");
  CHECK(answer.evidence[1].record == "MEM-hooks");
  CHECK(answer.evidence[2].record == "evt_17_abcdef");
  CHECK_THAT(answer.answer[0],
             Catch::StartsWith("The question names MEM-2026-03-05-001-clean-break: \"Clean break "
                               "renames\""));
}

TEST_CASE("revise: what a memory quotes of 200,000 events is a bounded digest", "[telemetry]") {
  std::vector<std::string> ids;
  std::vector<std::string> messages;
  for (int i = 0; i < 200000; ++i) {
    ids.push_back(fmt::format("evt_{}", i));
    messages.push_back(fmt::format("Skipped the retry step on runner {}", i % 9));
  }
  const std::string digest = evidence_digest(ids, messages);
  CHECK(digest.size() < 1000);
  CHECK_THAT(digest, Catch::StartsWith("- \"Skipped the retry step on runner 0\" (22223 times: "
                                       "evt_0, evt_9, evt_18 and 22220 more)\n"));
  CHECK_THAT(digest, Catch::EndsWith("- and 4 other messages (88888 events)\n"));
  MemoryVerdict verdict;
  verdict.evidence_ids = ids;
  verdict.evidence_messages = messages;
  verdict.sessions = 40;
  verdict.event_type = "deviation";
  verdict.checkpoint = "phase_2";
  CHECK(proposed_revision(verdict, "2026-11-30").size() < 1500);
}

TEST_CASE("revise: a gap's title is whole words of its most frequent message", "[telemetry]") {
  CHECK(whole_words("Lockfile drift broke the nightly build on every runner we have", 40) ==
        "Lockfile drift broke the nightly build");
  CHECK(whole_words("short", 40) == "short");
  CHECK(whole_words("one,\ntwo  three", 9) == "one, two");
  ReviseGap gap;
  gap.event_type = "deviation";
  gap.evidence_ids = {"a", "b", "c"};
  gap.evidence_messages = {"Rare thing", "Lockfile drift broke the nightly build again and again",
                           "Lockfile drift broke the nightly build again and again"};
  CHECK(gap_title(gap) == "Lockfile drift broke the nightly build again and again");
  gap.evidence_messages.push_back(
      "A message long enough that sixty bytes end it inside a word, somewhere");
  gap.evidence_messages.push_back(gap.evidence_messages.back());
  gap.evidence_messages.push_back(gap.evidence_messages.back());
  CHECK(gap_title(gap) == "A message long enough that sixty bytes end it inside a word");
  CHECK_THAT(gap_guidance(gap), Catch::StartsWith("This keeps happening at checkpoint"));
}

TEST_CASE("the telemetry readers count an event id once and withhold secrets", "[telemetry]") {
  const std::string token = gv::test::cat({"gh", "p_", gv::test::fake(gv::test::k_alnum, 36, 1)});
  TelemetryInputs inputs;
  inputs.read_events = [&](const events::EventFilter&) {
    events::EventQuery query;
    query.events.push_back(
        event({.id = "e1", .session = "a", .message = "push failed with " + token}));
    query.events.push_back(event({.id = "e2", .session = "b"}));
    query.events.push_back(event({.id = "e1", .session = "c", .message = "a repeat"}));
    query.events.back().detail = {{"reason", "token " + token + " expired"}};
    query.events[1].detail = {{"nested", {{"reason", "token " + token}}}};
    return query;
  };
  inputs.read_history = [&](std::optional<std::int64_t>) {
    events::HistoryQuery query;
    query.exists = true;
    query.prompts.push_back(prompt("use password=Tr0ub4dor&3xyz for the db", "s", 1));
    return query;
  };
  const events::EventQuery query = read_events(inputs, {});
  REQUIRE(query.events.size() == 2);
  CHECK(query.events[0].event_id == "e1");
  CHECK(query.events[0].session_id == "a");  // the first line with the id stands
  CHECK(query.events[0].message == "push failed with [secret withheld: GitHub token]");
  CHECK(query.events[1].detail.dump().find(token) == std::string::npos);
  CHECK(read_history(inputs, std::nullopt).prompts[0].display ==
        "use password=[secret withheld: password assignment] for the db");
}

TEST_CASE("review: a missing store or history gives its degraded message", "[telemetry]") {
  const std::vector<Memory> vault;
  ReviewSources sources;
  sources.memories = &vault;
  const ReviewAnswer answer = answer_review("anything about hooks", sources, simple_terms());
  CHECK(std::find(answer.unavailable.begin(), answer.unavailable.end(),
                  "No events captured yet in specs/events.jsonl for this query.") !=
        answer.unavailable.end());
  CHECK(std::find(answer.unavailable.begin(), answer.unavailable.end(),
                  "history.jsonl not found or empty for this repo/session.") !=
        answer.unavailable.end());
  CHECK_THAT(answer.answer[0], Catch::StartsWith("No record in the vault"));
}

TEST_CASE("learn: candidates are classified by overlap and harvested ones skipped", "[telemetry]") {
  const std::vector<Memory> vault{memory("MEM-hooks", {"hooks", "retry", "backoff"}),
                                  memory("MEM-cache", {"cache", "ttl"})};
  events::ArchivedTask task;
  task.number = 259;
  task.archived_at = "2026-11-20T00:00:00Z";
  task.record_path = "specs/archive/state.json";
  const auto candidate = [](std::size_t index, std::string content,
                            std::vector<std::string> keywords) {
    events::MemoryCandidate c;
    c.index = index;
    c.content = std::move(content);
    c.category = "pattern";
    c.suggested_keywords = std::move(keywords);
    return c;
  };
  task.candidates = {candidate(0, "Hooks retry with backoff", {"hooks", "retry", "backoff"}),
                     candidate(1, "Cache entries", {"cache", "memory", "disk"}),
                     candidate(2, "Brand new idea\nmore", {"novel"}),
                     candidate(3, "Already taken", {"x"})};
  task.candidates[3].harvested_at = "2026-11-21T00:00:00Z";
  events::ArchivedTask old = task;
  old.number = 12;
  old.archived_at = "2026-01-01T00:00:00Z";
  old.candidates = {candidate(0, "Old one", {"unique"})};
  const HarvestScan scan =
      scan_harvest({task, old}, vault, simple_terms(), *parse_date("2026-12-01"));
  REQUIRE(scan.proposals.size() == 4);
  CHECK(scan.proposals[0].key == "T259-1");
  CHECK(scan.proposals[0].op == HarvestOp::update);
  CHECK(scan.proposals[0].target_id == "MEM-hooks");
  CHECK(scan.proposals[0].category == "PATTERN");
  CHECK(scan.proposals[1].op == HarvestOp::extend);
  CHECK(scan.proposals[1].target_id == "MEM-cache");
  CHECK(scan.proposals[2].op == HarvestOp::create);
  CHECK(scan.proposals[2].title == "Brand new idea");
  CHECK(scan.proposals[3].key == "T12-1");
  CHECK(scan.tasks_with_candidates == 2);
  CHECK(scan.in_window == std::vector<std::int64_t>{259});
  CHECK(scan.past_window == std::vector<std::int64_t>{12});
}

TEST_CASE("dream: themes recur in three distinct sessions, not in one", "[telemetry]") {
  const std::vector<Memory> vault{memory("MEM-x", {"unrelated"})};
  SECTION("three sessions") {
    const DreamResult result = find_dream_themes(
        {prompt("speed up the parser benchmark", "a", 1000),
         prompt("parser benchmark regressed", "b", 2000),
         prompt("profile parser benchmark again", "c", 3000), prompt("update readme", "c", 4000)},
        vault, {}, simple_terms());
    REQUIRE(result.themes.size() == 1);
    const DreamTheme& theme = result.themes[0];
    CHECK(theme.sessions == 3);
    CHECK(theme.prompts == 3);
    CHECK(theme.rule == k_rule_dream_recurring);
    CHECK(theme.terms.front() == "parser");
    CHECK(theme.samples.front() == "profile parser benchmark again");
    CHECK(result.prompts_scanned == 4);
  }
  SECTION("repeats in one session") {
    CHECK(find_dream_themes({prompt("parser benchmark", "a", 1), prompt("parser benchmark", "a", 2),
                             prompt("parser benchmark", "b", 3)},
                            vault, {}, simple_terms())
              .themes.empty());
  }
  SECTION("covered by a memory or an open task") {
    const std::vector<events::Prompt> prompts{prompt("parser benchmark", "a", 1),
                                              prompt("parser benchmark", "b", 2),
                                              prompt("parser benchmark", "c", 3)};
    const DreamResult by_memory =
        find_dream_themes(prompts, {memory("MEM-p", {"parser", "benchmark"})}, {}, simple_terms());
    CHECK(by_memory.themes.empty());
    REQUIRE(by_memory.covered.size() == 1);
    CHECK(by_memory.covered[0].covered_rule == k_rule_covered_by_memory);
    CHECK(by_memory.covered[0].covered_by == "MEM-p");
    const auto open = open_task_lines(
        "# TODO\n\n### 12. Parser benchmark [NOT STARTED]\n### 11. Old parser thing [COMPLETED]\n");
    CHECK(open == std::vector<std::string>{"### 12. Parser benchmark [NOT STARTED]"});
    const DreamResult by_task = find_dream_themes(prompts, vault, open, simple_terms());
    REQUIRE(by_task.covered.size() == 1);
    CHECK(by_task.covered[0].covered_rule == k_rule_covered_by_task);
  }
}

}  // namespace telemetry_rules_test
