#include <catch2/catch.hpp>
#include <map>
#include <set>

#include "core/agent/learn.hpp"
#include "core/error.hpp"
#include "core/memory/parse.hpp"
#include "core/vault/vault.hpp"
#include "tests/secret_corpus.hpp"
#include "tests/unit/gate_test_snapshot.hpp"

namespace agent_learn_test {

using gv::agent::LearnInput;
using gv::agent::LearnOp;
using gv::agent::LearnOverride;
using gv::test::MapSnapshot;

namespace {

constexpr gv::Date k_today{20787};  // 2026-11-30

const std::string k_retry_path = ".memory/10-Memories/MEM-requests-retry.md";

std::string retry_memory() {
  return "---\ntitle: \"Request retries\"\ncreated: 2026-01-05\ntags: [PATTERN]\n"
         "topic: \"python/libs/requests\"\nsource: \"user input\"\nmodified: 2026-01-05\n"
         "keywords: [requests, retry, backoff, session, timeout]\nsummary: \"Retry with "
         "backoff\"\nretrieval_count: 4\nlast_retrieved: 2026-10-01\n---\n\n# Request retries\n\n"
         "Mount a Retry adapter on the session; backoff doubles the timeout.\n\n## Connections\n"
         "<!-- Add links to related memories using [[filename]] syntax -->\n- [[MEM-other]]\n";
}

MapSnapshot vault() {
  return MapSnapshot(std::map<std::string, std::string>{{k_retry_path, retry_memory()}});
}

LearnInput input(std::string title, std::string content, std::vector<std::string> keywords) {
  LearnInput in;
  in.title = std::move(title);
  in.content = std::move(content);
  in.keywords = std::move(keywords);
  return in;
}

}  // namespace

TEST_CASE("key terms: longer than four letters, no stop words, by frequency then technical",
          "[learn]") {
  CHECK(gv::agent::extract_key_terms(
            "Retry the request. Retry again with backoff; the session keeps the backoff. "
            "Use max_retries and urllib3 with a session timeout.") ==
        std::vector<std::string>{"retry", "backoff", "session", "max_retries", "urllib3"});
  CHECK(gv::agent::extract_key_terms("a an the four five", 5).empty());
}

TEST_CASE("overlap classification: above 60% UPDATE, 30-60% EXTEND, below CREATE", "[learn]") {
  const std::vector<std::string> memory{"retry", "backoff", "session", "timeouts"};
  CHECK(gv::agent::overlap_score({"retry", "backoff", "session", "timeout", "other"}, memory) ==
        Approx(0.8));
  CHECK(gv::agent::classify_overlap(0.8, 4) == LearnOp::update);
  CHECK(gv::agent::classify_overlap(0.6, 3) == LearnOp::extend);
  CHECK(gv::agent::classify_overlap(0.3, 2) == LearnOp::extend);
  CHECK(gv::agent::classify_overlap(0.2, 1) == LearnOp::create);
  // One word in common is not the same subject, however few terms the text has.
  CHECK(gv::agent::classify_overlap(0.5, 1) == LearnOp::create);
  CHECK(gv::agent::classify_overlap(1.0, 1) == LearnOp::create);
  CHECK(gv::agent::classify_overlap(1.0, 2) == LearnOp::update);
  CHECK(gv::agent::overlap_score({}, memory) == 0.0);
  // Terms are split into words: retry-backoff holds two terms.
  CHECK(gv::agent::overlap_score({"retry-backoff"}, {"backoff", "retry"}) == 1.0);
}

TEST_CASE("learn creates a memory from the template when nothing overlaps", "[learn]") {
  const MapSnapshot snapshot = vault();
  LearnInput in = input("Git worktree cleanup", "Run `git worktree prune` after deleting.\n", {});
  in.category = "workflow";
  in.topic = "git/worktrees";
  const gv::agent::LearnPlan plan = gv::agent::plan_learn(snapshot, in, std::nullopt, k_today);
  CHECK(plan.decision.op == LearnOp::create);
  CHECK(plan.decision.id == "MEM-git-worktree-cleanup");
  CHECK(plan.plan.subject == "vault(learn): create MEM-git-worktree-cleanup");
  CHECK(plan.plan.action == "learn");
  const std::string bytes = *plan.plan.changes.at(plan.decision.path);
  CHECK(bytes ==
        "---\ntitle: \"Git worktree cleanup\"\ncreated: 2026-11-30\ntags: [WORKFLOW]\n"
        "topic: \"git/worktrees\"\nsource: \"user input\"\nmodified: 2026-11-30\n"
        "keywords: [worktree, cleanup, prune, deleting]\nsummary: \"Run `git worktree "
        "prune` after deleting.\"\nretrieval_count: 0\nlast_retrieved:\n---\n\n"
        "# Git worktree cleanup\n\nRun `git worktree prune` after deleting.\n\n## Connections\n"
        "<!-- Add links to related memories using [[filename]] syntax -->\n");
  CHECK(plan.plan.changes.size() == 1);  // landing adds the index files
}

TEST_CASE("learn updates a memory it overlaps by more than 60%", "[learn]") {
  const MapSnapshot snapshot = vault();
  const gv::agent::LearnPlan plan = gv::agent::plan_learn(
      snapshot,
      input("Request retries, revised", "Use urllib3 Retry with backoff_factor.\n",
            {"requests", "retry", "backoff", "session", "urllib3"}),
      std::nullopt, k_today);
  CHECK(plan.decision.op == LearnOp::update);
  CHECK(plan.decision.id == "MEM-requests-retry");
  REQUIRE(!plan.decision.matches.empty());
  CHECK(plan.decision.matches[0].overlap == Approx(0.8));
  const std::string bytes = *plan.plan.changes.at(k_retry_path);
  CHECK_THAT(bytes, Catch::Contains("title: \"Request retries, revised\"\ncreated: 2026-01-05\n"));
  CHECK_THAT(bytes, Catch::Contains("modified: 2026-11-30\n"));
  CHECK_THAT(bytes, Catch::Contains("retrieval_count: 4\n"));
  CHECK_THAT(bytes,
             Catch::Contains("# Request retries, revised\n\nUse urllib3 Retry with backoff_factor."
                             "\n\n## History\n\n### Previous Version (2026-01-05)\n\nMount a Retry "
                             "adapter on the session; backoff doubles the timeout.\n\n"
                             "## Connections\n"));
  CHECK_THAT(bytes, Catch::EndsWith("- [[MEM-other]]\n"));
  CHECK_THAT(bytes, Catch::Contains("keywords: [requests, retry, backoff, session, timeout, "
                                    "urllib3]\n"));
  // The summary follows the content it describes; the source stays.
  CHECK_THAT(bytes, Catch::Contains("summary: \"Use urllib3 Retry with backoff_factor.\"\n"));
  CHECK_THAT(bytes, Catch::Contains("source: \"user input\"\n"));
}

TEST_CASE("an UPDATE adds no keywords of its own and keeps the memory's task link", "[learn]") {
  std::string memory = retry_memory();
  memory.replace(memory.find("source: \"user input\""), 20,
                 "source: \"specs/259_retry/summary.md\"");
  const MapSnapshot snapshot(std::map<std::string, std::string>{{k_retry_path, memory}});
  LearnInput in =
      input("Request retries", "Mount a Retry adapter on the session, with backoff.\n", {});
  in.source = "file: notes/retry.md";
  const gv::agent::LearnPlan plan = gv::agent::plan_learn(
      snapshot, in, gv::agent::parse_learn_override("update:MEM-requests-retry"), k_today);
  const std::string bytes = *plan.plan.changes.at(k_retry_path);
  CHECK_THAT(bytes, Catch::Contains("keywords: [requests, retry, backoff, session, timeout]\n"));
  CHECK_THAT(bytes, Catch::Contains("source: \"specs/259_retry/summary.md\"\n"));
  CHECK_THAT(bytes,
             Catch::Contains("summary: \"Mount a Retry adapter on the session, with backoff.\"\n"));
}

TEST_CASE("a new memory takes the nearest memory's topic and category, as refine would",
          "[learn]") {
  const MapSnapshot snapshot = vault();
  // Shares `retry` and `backoff` with MEM-requests-retry, not enough to extend it.
  const LearnInput in =
      input("Jitter for retries",
            "Add random jitter to the retry backoff so clients spread out. "
            "Seen in the payments outage.\n",
            {"jitter", "retry", "backoff", "clients", "payments", "outage", "spread"});
  const gv::agent::LearnPlan plan = gv::agent::plan_learn(snapshot, in, std::nullopt, k_today);
  REQUIRE(plan.decision.op == LearnOp::create);
  CHECK(plan.decision.id == "MEM-jitter-retries");
  const std::string bytes = *plan.plan.changes.at(plan.decision.path);
  CHECK_THAT(bytes, Catch::Contains("tags: [PATTERN]\ntopic: \"python/libs/requests\"\n"));
  CHECK_THAT(bytes, Catch::Contains("summary: \"Add random jitter to the retry backoff so clients "
                                    "spread out.\"\n"));
  // refine's cue words overrule a neighbour's category the content plainly contradicts.
  const gv::Memory* nearest = nullptr;
  CHECK(gv::agent::learn_category("Configure the proxy",
                                  "Set the proxy option in the config file; the setting needs "
                                  "the environment variable too.",
                                  nearest) == "CONFIG");
  CHECK(gv::agent::learn_category("Notes", "Nothing in particular.", nearest) == "INSIGHT");
}

TEST_CASE("learn lists no candidate that shares none of the terms", "[learn]") {
  const MapSnapshot snapshot = vault();
  const gv::agent::LearnPlan plan = gv::agent::plan_learn(
      snapshot, input("Kiwi facts", "Kiwis are flightless birds of New Zealand.\n", {}),
      std::nullopt, k_today);
  CHECK(plan.decision.op == LearnOp::create);
  CHECK(plan.decision.matches.empty());
}

TEST_CASE("learn extends a memory it overlaps by 30-60%, before History and Connections",
          "[learn]") {
  const MapSnapshot snapshot = vault();
  const gv::agent::LearnPlan plan =
      gv::agent::plan_learn(snapshot,
                            input("Retry budgets", "Cap total retry time at thirty seconds.\n",
                                  {"retry", "backoff", "budget", "deadline"}),
                            std::nullopt, k_today);
  CHECK(plan.decision.op == LearnOp::extend);
  CHECK(plan.decision.id == "MEM-requests-retry");
  const std::string bytes = *plan.plan.changes.at(k_retry_path);
  CHECK_THAT(bytes, Catch::Contains("the timeout.\n\n## Extension (2026-11-30)\n\n### Retry "
                                    "budgets\n\n**Source**: user input\n\nCap total retry time "
                                    "at thirty seconds.\n\n## Connections\n"));
  CHECK_THAT(bytes, Catch::Contains("title: \"Request retries\"\n"));
}

TEST_CASE("an explicit operation overrides the classification and checks its target", "[learn]") {
  const MapSnapshot snapshot = vault();
  const LearnInput in = input("Request retries v2", "Different words entirely.\n",
                              {"requests", "retry", "backoff", "session", "timeout"});
  const auto created =
      gv::agent::plan_learn(snapshot, in, gv::agent::parse_learn_override("new"), k_today);
  CHECK(created.decision.op == LearnOp::create);
  CHECK(created.decision.overridden);
  const auto extended = gv::agent::plan_learn(
      snapshot, in, gv::agent::parse_learn_override("extend:MEM-requests-retry"), k_today);
  CHECK(extended.decision.op == LearnOp::extend);
  CHECK_THROWS_AS(gv::agent::plan_learn(
                      snapshot, in, gv::agent::parse_learn_override("update:MEM-nope"), k_today),
                  gv::Error);
  CHECK_THROWS_AS(gv::agent::parse_learn_override("replace:MEM-x"), gv::UsageError);
}

TEST_CASE("learn refuses content that would break the memory's sections", "[learn]") {
  const MapSnapshot snapshot = vault();
  CHECK_THROWS_WITH(
      gv::agent::plan_learn(snapshot, input("X title", "text\n\n## History\n\nold\n", {}),
                            std::nullopt, k_today),
      Catch::Contains("content line 3"));
  CHECK_THROWS_AS(
      gv::agent::plan_learn(snapshot, input("X title", "  \n", {}), std::nullopt, k_today),
      gv::UsageError);
  CHECK_THROWS_AS(gv::agent::plan_learn(snapshot, input("", "text", {}), std::nullopt, k_today),
                  gv::UsageError);
}

TEST_CASE("learn refuses secrets by line and never repeats them", "[learn]") {
  const std::string token = gv::test::cat({"gh", "p_", gv::test::fake(gv::test::k_alnum, 36, 9)});
  LearnInput in =
      input("Deploy notes", "line one\nexport GITHUB_TOKEN=" + token + "\nline three\n", {});
  try {
    gv::agent::refuse_secrets(in);
    FAIL("no refusal");
  } catch (const gv::Error& e) {
    const std::string message = e.what();
    CHECK_THAT(message, Catch::Contains("content line 2 (GitHub token)"));
    CHECK_THAT(message, !Catch::Contains(token));
  }
  in.content = "Set GITHUB_TOKEN=<your-token> in the environment.\n";
  CHECK_NOTHROW(gv::agent::refuse_secrets(in));
}

}  // namespace agent_learn_test
