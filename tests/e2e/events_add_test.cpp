#include <fmt/format.h>

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>
#include <set>

#include "tests/e2e/sandbox.hpp"

namespace events_add_test {

using gv::test::Result;
using gv::test::Sandbox;
using nlohmann::json;

namespace {

void write_vault(Sandbox& sandbox) {
  sandbox.write(".memory/10-Memories/MEM-a.md",
                "---\ntitle: \"Alpha\"\ncreated: 2026-10-01\ntags: [PATTERN]\nkeywords: [alpha]\n"
                "summary: \"a\"\n---\n\n# Alpha\n\nText.\n\n## Connections\n");
  REQUIRE(sandbox.vault({"index"}).code == 0);
  sandbox.commit_all("vault");
}

std::vector<json> journal(const Sandbox& sandbox) {
  std::vector<json> rows;
  const std::string text = sandbox.read(".git/git-vault/events.jsonl");
  std::size_t start = 0;
  while (start < text.size()) {
    const std::size_t end = text.find('\n', start);
    REQUIRE(end != std::string::npos);  // every line ends
    rows.push_back(json::parse(text.substr(start, end - start)));
    start = end + 1;
  }
  return rows;
}

}  // namespace

TEST_CASE("events add appends one checked event to the clone's journal, never the work tree",
          "[events][add]") {
  Sandbox sandbox;
  write_vault(sandbox);
  const Result added = sandbox.vault(
      {"events", "add", "--category", "deviation", "--type", "deviation", "--message",
       "Skipped the retry step", "--task", "259", "--checkpoint", "phase_2", "--session",
       "sess_1736700000_abc123", "--detail", R"({"reason":"not needed"})"});
  INFO(added.err);
  REQUIRE(added.code == 0);
  const std::vector<json> rows = journal(sandbox);
  REQUIRE(rows.size() == 1);
  CHECK(added.out == rows[0]["event_id"].get<std::string>() + "\n");
  CHECK(rows[0]["task"] == 259);
  CHECK(rows[0]["session_id"] == "sess_1736700000_abc123");
  CHECK_THAT(rows[0]["timestamp"].get<std::string>(), Catch::StartsWith("2026-11-30T12:00:00."));
  CHECK(rows[0]["cwd"] == sandbox.root().string());
  CHECK(rows[0]["detail"]["reason"] == "not needed");
  CHECK(sandbox.git({"status", "--porcelain"}).out.empty());
  CHECK_FALSE(sandbox.exists("specs/events.jsonl"));

  // The readers see it as part of the store.
  const json listed = json::parse(
      sandbox.vault({"events", "--category", "deviation", "--format", "json-array"}).out);
  REQUIRE(listed.size() == 1);
  CHECK(listed[0]["repo"] == sandbox.root().filename().string());

  SECTION("--json prints the event") {
    const Result json_out = sandbox.vault({"events", "add", "--json", "--category", "success",
                                           "--type", "milestone", "--message", "Done"});
    REQUIRE(json_out.code == 0);
    CHECK(json::parse(json_out.out)["event"]["category"] == "success");
  }
  SECTION("a JSON event on stdin") {
    const Result piped = sandbox.vault(
        {"events", "add", "--stdin"},
        R"({"event_id":"evt_1_abcdef","event_type":"milestone","category":"milestone",)"
        R"("timestamp":"2026-11-01T09:00:00Z","session_id":"sess_1_x","message":"Parser done"})");
    INFO(piped.err);
    REQUIRE(piped.code == 0);
    CHECK(piped.out == "evt_1_abcdef\n");
  }
  SECTION("a hook payload on stdin gives the agent's session and directory") {
    const Result piped =
        sandbox.vault({"events", "add", "--stdin", "--category", "blocker", "--type", "flaky_test",
                       "--message", "test_retry flaked"},
                      R"({"session_id":"3f9c2a10","cwd":"/home/u/proj","hook_event_name":"Stop"})");
    INFO(piped.err);
    REQUIRE(piped.code == 0);
    const json row = journal(sandbox).back();
    CHECK(row["cc_session_id"] == "3f9c2a10");
    CHECK(row["cwd"] == "/home/u/proj");
  }
}

TEST_CASE("events add refuses what the schema does not allow, and credentials, writing nothing",
          "[events][add]") {
  Sandbox sandbox;
  write_vault(sandbox);
  const auto refused = [&](const std::vector<std::string>& args, std::string_view why,
                           int code = 129, std::string_view input = {}) {
    const Result result = sandbox.vault(args, input);
    CHECK(result.code == code);
    CHECK(result.out.empty());
    CHECK_THAT(result.err, Catch::Contains(std::string(why)));
    CHECK_FALSE(sandbox.exists(".git/git-vault/events.jsonl"));
  };
  refused({"events", "add", "--type", "x", "--message", "m"},
          "`category` is required (--category)");
  refused({"events", "add", "--category", "failure", "--type", "x", "--message", "m"},
          "is not one of deviation, blocker, milestone, success");
  refused({"events", "add", "--category", "success", "--type", "x", "--message", "m", "--session",
           "3f9c2a10-8b4e"},
          "goes in `cc_session_id`");
  refused({"events", "add", "--category", "success", "--type", "x", "--message", "m", "--detail",
           "[1]"},
          "--detail: not a JSON object");
  refused({"events", "add", "--stdin"}, "--stdin: line 1: not valid JSON", 129, "{\"a\"");
  refused({"events", "add", "--stdin"}, "a UserPromptSubmit payload records no event by itself",
          129, R"({"session_id":"x","hook_event_name":"UserPromptSubmit","prompt":"p"})");
  refused({"events", "add", "--category", "blocker", "--type", "x", "--message",
           "login failed with password=Hk29xLq7vB4mZ8pW"},
          "`message` line 1 looks like a password assignment", 128);
  const Result secret = sandbox.vault({"events", "add", "--category", "blocker", "--type", "x",
                                       "--message", "login failed with password=Hk29xLq7vB4mZ8pW"});
  CHECK_THAT(secret.err, !Catch::Contains("Hk29xLq7vB4mZ8pW"));
}

TEST_CASE("two writers adding hundreds of events at once lose none and tear none",
          "[events][add]") {
  Sandbox sandbox;
  write_vault(sandbox);
  constexpr int k_each = 200;
  const Result both = sandbox.sh(fmt::format(
      "writer() {{ i=1; while [ $i -le {} ]; do git-vault events add --category success "
      "--type load --message \"$1 $i\" --session sess_1_$1 >/dev/null || exit 1; i=$((i+1)); "
      "done; }}; writer first & a=$!; writer second & b=$!; wait $a && wait $b",
      k_each));
  INFO(both.err);
  REQUIRE(both.code == 0);
  const std::vector<json> rows = journal(sandbox);
  CHECK(rows.size() == 2 * k_each);
  std::set<std::string> messages;
  std::set<std::string> ids;
  for (const json& row : rows) {
    messages.insert(row["message"].get<std::string>());
    ids.insert(row["event_id"].get<std::string>());
  }
  CHECK(messages.size() == 2 * k_each);
  CHECK(ids.size() == 2 * k_each);
  CHECK(messages.contains(fmt::format("first {}", k_each)));
  CHECK(messages.contains("second 1"));
  const json counts = json::parse(sandbox.vault({"events", "--format", "summary-counts"}).out);
  CHECK(counts["total_events"] == 2 * k_each);
}

TEST_CASE("the next maintenance commit folds the event journal into specs/events.jsonl",
          "[events][add]") {
  Sandbox sandbox;
  write_vault(sandbox);
  sandbox.write("specs/events.jsonl",
                R"({"event_id":"evt_1_aaaaaa","event_type":"t","category":"success",)"
                R"("timestamp":"2026-01-01T00:00:00Z","session_id":"sess_1_a","message":"old"})"
                "\n");
  sandbox.commit_all("store");
  for (const std::string message : {"one", "two"}) {
    REQUIRE(
        sandbox
            .vault({"events", "add", "--category", "success", "--type", "t", "--message", message})
            .code == 0);
  }

  SECTION("folded once, in the commit before the action's") {
    const Result record = sandbox.vault({"distill", "--record"});
    INFO(record.err);
    REQUIRE(record.code == 0);
    CHECK_THAT(record.err, Catch::Contains("first: the 2 events recorded since the last fold, "
                                           "appended to specs/events.jsonl"));
    CHECK(sandbox.git({"log", "-1", "--format=%s%n%b", "HEAD~1"}).out ==
          "vault(events): fold 2 events into specs/events.jsonl\nVault-Action: events\n\n");
    const std::string store = sandbox.read("specs/events.jsonl");
    CHECK(std::count(store.begin(), store.end(), '\n') == 3);
    CHECK_THAT(store, Catch::StartsWith(R"({"event_id":"evt_1_aaaaaa")"));
    CHECK(sandbox.read(".git/git-vault/events.jsonl").empty());
    CHECK(sandbox.git({"status", "--porcelain"}).out.empty());
    CHECK(json::parse(
              sandbox.vault({"events", "--format", "summary-counts"}).out)["total_events"] == 3);
  }
  SECTION("a store with uncommitted lines is never swept into the commit: the journal waits") {
    sandbox.write(
        "specs/events.jsonl",
        sandbox.read("specs/events.jsonl") +
            R"({"event_id":"evt_2_bbbbbb","event_type":"t","category":"success",)"
            R"("timestamp":"2026-01-02T00:00:00Z","session_id":"sess_1_a","message":"hand"})"
            "\n");
    const Result record = sandbox.vault({"distill", "--record"});
    INFO(record.err);
    REQUIRE(record.code == 0);
    CHECK_THAT(record.err, Catch::Contains("the event journal is not folded: specs/events.jsonl "
                                           "has uncommitted changes"));
    CHECK(journal(sandbox).size() == 2);
    CHECK(sandbox.git({"status", "--porcelain"}).out == " M specs/events.jsonl\n");
  }
}

}  // namespace events_add_test
