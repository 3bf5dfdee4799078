#include <fmt/format.h>

#include <catch2/catch.hpp>
#include <deque>

#include "core/distill/selection.hpp"
#include "core/distill/sub_mode.hpp"
#include "core/distill/summarize.hpp"
#include "core/error.hpp"
#include "tests/unit/gate_test_snapshot.hpp"

namespace distill_capabilities_test {

using gv::distill::Candidate;
using gv::distill::CandidateSet;
using gv::distill::SummaryRequest;

namespace {

// A memory of about 1,000 tokens (over compress's 900) whose first sentence names both keywords.
std::string big_memory() {
  std::string body = "\nUse redis as the cache.\n";
  for (int i = 0; i < 150; ++i) {
    body += fmt::format("Filler sentence number {} here.\n", i);
  }
  return gv::test::note("Big cache", "keywords: [cache, redis]\nsummary: \"s\"\n", body);
}

struct Fixture {
  Fixture()
      : snapshot({{".memory/10-Memories/MEM-big.md", big_memory()},
                  {".memory/10-Memories/MEM-small.md", gv::test::note("Small")}}),
        clock{*gv::parse_date("2026-11-30"), *gv::parse_instant("2026-11-30T12:00:00Z")},
        state(gv::distill::read_vault_state(snapshot, clock.today)),
        compress(gv::distill::make_sub_mode("compress")) {
    REQUIRE(compress != nullptr);
  }

  gv::test::MapSnapshot snapshot;
  gv::Clock clock;
  gv::distill::VaultState state;
  std::unique_ptr<gv::distill::SubMode> compress;
};

}  // namespace

TEST_CASE("compress asks the summariser it is given and writes what it returned",
          "[distill][compress]") {
  const Fixture f;
  std::vector<std::string> asked;  // what the fake summariser saw, one line per call
  gv::distill::Summarizer fake;
  fake.source = "fake summariser";
  fake.summarize = [&asked](const SummaryRequest& request) {
    asked.push_back(fmt::format(
        "{} {} [{}] {}", request.memory_id, request.memory_path, fmt::join(request.keywords, ","),
        request.main_content.find("Use redis as the cache.") != std::string_view::npos));
    return std::string("\n\nRedis is the cache.\n\n");
  };
  const gv::distill::SubModeContext context{f.state, f.snapshot, f.clock, fake};

  const CandidateSet set = f.compress->candidates(context);
  REQUIRE(set.candidates.size() == 1);
  CHECK(set.candidates[0].key == "MEM-big");
  const gv::distill::Execution execution = f.compress->execute(context, set.candidates);

  CHECK(asked ==
        std::vector<std::string>{"MEM-big .memory/10-Memories/MEM-big.md [cache,redis] true"});
  CHECK(execution.draft.extra["summarizer"] == "external");
  REQUIRE(execution.draft.plan.changes.size() == 1);
  const std::string& written = *execution.draft.plan.changes.begin()->second;
  CHECK_THAT(written, Catch::Contains("# Big cache\n\nRedis is the cache.\n\n## History\n\n"
                                      "### Pre-Compression (2026-11-30)\n"));
  CHECK_THAT(written, Catch::Contains("modified: 2026-11-30\n"));

  SECTION("output the summary check rejects names the summariser and writes nothing") {
    fake.summarize = [](const SummaryRequest&) { return std::string("## History\n"); };
    const gv::distill::SubModeContext bad{f.state, f.snapshot, f.clock, fake};
    // A batch names each memory it had to skip; with none left, the run fails with the reasons.
    CHECK_THROWS_WITH(f.compress->execute(bad, set.candidates),
                      Catch::StartsWith("no memory could be compressed: MEM-big (summarizer "
                                        "`fake summariser` printed a `## History` heading"));
  }
  SECTION("a failing summariser stops the run with its own error, naming the memory") {
    fake.summarize = [](const SummaryRequest&) -> std::string {
      throw gv::Error("summarizer `fake` exited with status 3");
    };
    const gv::distill::SubModeContext failing{f.state, f.snapshot, f.clock, fake};
    CHECK_THROWS_WITH(f.compress->execute(failing, set.candidates),
                      "no memory could be compressed: MEM-big (summarizer `fake` exited with "
                      "status 3)");
  }
}

TEST_CASE("compress without a summariser uses the built-in one", "[distill][compress]") {
  const Fixture f;
  const gv::distill::SubModeContext context{f.state, f.snapshot, f.clock, std::nullopt};
  const CandidateSet set = f.compress->candidates(context);
  const gv::distill::Execution execution = f.compress->execute(context, set.candidates);
  CHECK(execution.draft.extra["summarizer"] == "built-in");
}

TEST_CASE("only a configured, non-empty command becomes a summariser", "[distill][compress]") {
  CHECK_FALSE(gv::distill::configured_summarizer(std::nullopt));
  CHECK_FALSE(gv::distill::configured_summarizer(""));
  const auto summarizer =
      gv::distill::configured_summarizer("printf '%s|' \"$GIT_VAULT_MEMORY_ID\"; cat");
  REQUIRE(summarizer);
  CHECK(summarizer->source == "printf '%s|' \"$GIT_VAULT_MEMORY_ID\"; cat");
  const std::vector<std::string> keywords{"a", "b"};
  CHECK(summarizer->summarize(SummaryRequest{"MEM-x", "p.md", keywords, "\n\nText.\n\n"}) ==
        "MEM-x|Text.\n");
}

namespace {

// A terminal that answers from a script and records what it was shown.
struct ScriptedTerminal {
  std::deque<gv::distill::Terminal::Line> answers;
  std::string shown;

  gv::distill::Terminal terminal() {
    gv::distill::Terminal t;
    t.write = [this](std::string_view text) { shown += text; };
    t.read_line = [this] {
      REQUIRE_FALSE(answers.empty());
      gv::distill::Terminal::Line line = answers.front();
      answers.pop_front();
      return line;
    };
    return t;
  }
};

CandidateSet two_candidates() {
  CandidateSet set;
  set.question = "Select memories";
  for (const char* id : {"MEM-a", "MEM-b"}) {
    Candidate candidate;
    candidate.key = id;
    candidate.label = std::string(id) + " (old)";
    candidate.details = "line one\nline two";
    set.candidates.push_back(std::move(candidate));
  }
  return set;
}

}  // namespace

TEST_CASE("the prompt shows the candidates on the terminal it is given and asks again",
          "[distill][selection]") {
  ScriptedTerminal scripted;
  scripted.answers = {{"9", false}, {"MEM-b", true}};
  const std::vector<std::size_t> chosen =
      gv::distill::prompt_selection(two_candidates(), scripted.terminal());
  CHECK(chosen == std::vector<std::size_t>{1});
  CHECK_THAT(scripted.shown, Catch::StartsWith("Select memories (2 found)\n\n"
                                               "   1. MEM-a (old)\n"
                                               "      line one\n"
                                               "      line two\n"
                                               "   2. MEM-b (old)\n"));
  const std::string ask = "\nSelect (numbers, ranges like 1-3, `a` for all, empty for none): ";
  CHECK(scripted.shown.find(ask) != std::string::npos);
  CHECK(scripted.shown.find(ask, scripted.shown.find(ask) + 1) != std::string::npos);

  ScriptedTerminal ended;
  ended.answers = {{"9", true}};
  CHECK_THROWS_AS(gv::distill::prompt_selection(two_candidates(), ended.terminal()), gv::Error);
}

}  // namespace distill_capabilities_test
