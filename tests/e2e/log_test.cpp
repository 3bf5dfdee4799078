#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "tests/e2e/sandbox.hpp"
#include "tests/e2e/vault_fixture.hpp"

namespace log_test {

using gv::test::Sandbox;
using nlohmann::json;

namespace {

std::string head_of(const Sandbox& sandbox) {
  return sandbox.git({"rev-parse", "HEAD"}).out.substr(0, 40);
}

// A purge at 12:00 (distill_1796040000) and a report record at 13:00 (distill_1796043600),
// each its own commit.
struct TwoActions {
  std::string purge;
  std::string record;
};

TwoActions two_actions(Sandbox& sandbox) {
  gv::test::write_scored_vault(sandbox);
  REQUIRE(sandbox.vault({"distill", "--purge", "--select", "MEM-delta"}).code == 0);
  TwoActions commits;
  commits.purge = head_of(sandbox);
  sandbox.set_env("GIT_VAULT_NOW", "2026-11-30T13:00:00Z");
  REQUIRE(sandbox.vault({"distill", "--record"}).code == 0);
  commits.record = head_of(sandbox);
  return commits;
}

}  // namespace

TEST_CASE("log --json resolves every entry to its commit through the trailer", "[log]") {
  Sandbox sandbox;
  const TwoActions commits = two_actions(sandbox);
  const auto result = sandbox.vault({"log", "--json"});
  INFO(result.err);
  REQUIRE(result.code == 0);
  const json out = json::parse(result.out);
  CHECK(out["schema"] == 1);
  REQUIRE(out["entries"].size() == 2);
  const json& purge = out["entries"][0];
  CHECK(purge["id"] == "distill_1796040000");
  CHECK(purge["type"] == "purge");
  CHECK(purge["timestamp"] == "2026-11-30T12:00:00Z");
  CHECK(purge["commit"] == commits.purge);
  CHECK(purge["affected_memories"] == json::array({"MEM-delta"}));
  CHECK(purge["logged_commit"] == commits.purge);  // filled in by the second action
  const json& record = out["entries"][1];
  CHECK(record["id"] == "distill_1796043600");
  CHECK(record["type"] == "report");
  CHECK(record["commit"] == commits.record);
  CHECK(record["logged_commit"].is_null());
  CHECK(record["parent_commit"] == commits.purge);
  // The first keys are the fixed ones, in order.
  const auto ordered = nlohmann::ordered_json::parse(result.out)["entries"][0];
  std::vector<std::string> keys;
  for (const auto& item : ordered.items()) {
    keys.push_back(item.key());
  }
  REQUIRE(keys.size() > 5);
  CHECK(std::vector<std::string>(keys.begin(), keys.begin() + 5) ==
        std::vector<std::string>{"id", "type", "timestamp", "commit", "affected_memories"});
}

TEST_CASE("log prints one line per entry, oldest first", "[log]") {
  Sandbox sandbox;
  const TwoActions commits = two_actions(sandbox);
  const auto result = sandbox.vault({"log"});
  REQUIRE(result.code == 0);
  CHECK(result.out ==
        "distill_1796040000  purge  2026-11-30T12:00:00Z  " + commits.purge.substr(0, 7) +
            "  1 memory  Tombstoned 1 memory. Link-scan warnings: none\n"
            "distill_1796043600  report  2026-11-30T13:00:00Z  " +
            commits.record.substr(0, 7) +
            "  0 memories  Health report: 0 purge, 1 merge, 1 compress, 2 review can...\n");
}

TEST_CASE("log --verify passes when history matches the log", "[log]") {
  Sandbox sandbox;
  two_actions(sandbox);
  const auto result = sandbox.vault({"log", "--verify"});
  CHECK(result.code == 0);
  CHECK_THAT(result.out, Catch::EndsWith("2 entries checked: all match their commits.\n"));
  const json out = json::parse(sandbox.vault({"log", "--verify", "--json"}).out);
  CHECK(out["ok"] == true);
  CHECK(out["entries"][0]["problems"].empty());
}

TEST_CASE("log --verify reports entries whose commit was squashed away", "[log]") {
  Sandbox sandbox;
  two_actions(sandbox);
  REQUIRE(sandbox.git({"reset", "--soft", "HEAD~2"}).code == 0);
  REQUIRE(sandbox.git({"commit", "-qm", "squashed maintenance"}).code == 0);
  const auto result = sandbox.vault({"log", "--verify"});
  CHECK(result.code == 1);
  CHECK_THAT(result.out, Catch::Contains("  -  1 memory"));
  CHECK_THAT(result.out,
             Catch::Contains("is not in the history of HEAD (squashed, rebased or reset away?)"));
  CHECK_THAT(result.out,
             Catch::Contains("no commit in the history of HEAD carries its Vault-Log-Id"));
  CHECK_THAT(result.out, Catch::EndsWith("2 entries checked: 2 do not match history.\n"));
  const auto plain = sandbox.vault({"log", "--json"});
  CHECK(plain.code == 0);  // without --verify the listing is not a verdict
  const json out = json::parse(plain.out);
  CHECK(out["entries"][0]["commit"].is_null());
  CHECK(out["entries"][1]["commit"].is_null());
}

TEST_CASE("log --verify reports a commit whose parent is not the logged parent_commit", "[log]") {
  Sandbox sandbox;
  gv::test::write_scored_vault(sandbox);
  const std::string base = head_of(sandbox);
  REQUIRE(sandbox.git({"checkout", "-qb", "side"}).code == 0);
  sandbox.write("README.txt", "side work\n");
  sandbox.commit_all("side work");
  REQUIRE(sandbox.git({"checkout", "-q", "-"}).code == 0);
  REQUIRE(sandbox.vault({"distill", "--purge", "--select", "MEM-delta"}).code == 0);
  // Replay the action on the other branch, as a rebase would.
  REQUIRE(sandbox.git({"checkout", "-q", "side"}).code == 0);
  REQUIRE(sandbox.git({"cherry-pick", "main"}).code == 0);
  const std::string picked = head_of(sandbox);

  const auto result = sandbox.vault({"log", "--verify", "--json"});
  CHECK(result.code == 1);
  const json out = json::parse(result.out);
  CHECK(out["ok"] == false);
  CHECK(out["entries"][0]["commit"] == picked);
  REQUIRE(out["entries"][0]["problems"].size() == 1);
  CHECK(out["entries"][0]["problems"][0] ==
        "commit " + picked.substr(0, 12) + " has parent " +
            sandbox.git({"rev-parse", "HEAD~1"}).out.substr(0, 12) +
            " but the log records parent_commit " + base.substr(0, 12) + " (rebased?)");
}

TEST_CASE("log --verify reports a logged commit that is not the trailer's", "[log]") {
  Sandbox sandbox;
  const TwoActions commits = two_actions(sandbox);
  json log = json::parse(sandbox.read(".memory/distill-log.json"));
  log["operations"][0]["commit"] = std::string(40, 'a');
  sandbox.write(".memory/distill-log.json", log.dump(2) + "\n");
  sandbox.commit_all("edit the log by hand");
  const auto result = sandbox.vault({"log", "--verify"});
  CHECK(result.code == 1);
  CHECK_THAT(result.out,
             Catch::Contains("  ! the log records commit aaaaaaaaaaaa but the trailer is on " +
                             commits.purge.substr(0, 12) + "\n"));
  CHECK_THAT(result.out, Catch::EndsWith("2 entries checked: 1 do not match history.\n"));
}

TEST_CASE("log without a distill log says so", "[log]") {
  Sandbox sandbox;
  gv::test::write_scored_vault(sandbox);
  const auto result = sandbox.vault({"log"});
  CHECK(result.code == 0);
  CHECK(result.out == "No distill log (.memory/distill-log.json).\n");
  CHECK(json::parse(sandbox.vault({"log", "--json"}).out) ==
        json::parse(R"({"schema":1,"entries":[]})"));
}

TEST_CASE("log of an empty distill log says so", "[log]") {
  Sandbox sandbox;
  REQUIRE(sandbox.vault({"init", "--no-hooks"}).code == 0);  // writes an empty log
  const auto result = sandbox.vault({"log"});
  CHECK(result.code == 0);
  CHECK_THAT(result.out, Catch::StartsWith("The distill log is empty"));
}

TEST_CASE("log of a malformed distill log names the file and line", "[log]") {
  Sandbox sandbox;
  gv::test::write_scored_vault(sandbox);
  sandbox.write(".memory/distill-log.json", "{\n  \"operations\": [\n    {,\n");
  const auto result = sandbox.vault({"log"});
  CHECK(result.code == 128);
  CHECK_THAT(result.err, Catch::Contains(".memory/distill-log.json:3:"));
}

TEST_CASE("log --verify counts entries it cannot check apart from the checked ones", "[log]") {
  Sandbox sandbox;
  (void)two_actions(sandbox);
  // An entry written before commits were recorded: no commit, no parent_commit.
  json log = json::parse(sandbox.read(".memory/distill-log.json"));
  json old = log["operations"][0];
  old["id"] = "distill_1000000000";
  old.erase("commit");
  old.erase("parent_commit");
  log["operations"].insert(log["operations"].begin(), old);
  sandbox.write(".memory/distill-log.json", log.dump(2) + "\n");
  sandbox.commit_all("an older log entry");
  const auto result = sandbox.vault({"log", "--verify"});
  INFO(result.err);
  CHECK(result.code == 0);
  CHECK_THAT(result.out, Catch::EndsWith("2 entries checked: all match their commits; 1 written "
                                         "before commits were recorded, not checked.\n"));
}

TEST_CASE("two branches acting in the same second keep both log entries through a merge",
          "[log][merge]") {
  Sandbox sandbox;
  gv::test::write_scored_vault(sandbox);
  REQUIRE(sandbox.vault({"init"}).code == 0);  // the log's merge driver
  sandbox.commit_all("init");
  const std::string main = sandbox.git({"rev-parse", "--abbrev-ref", "HEAD"}).out;
  REQUIRE(sandbox.git({"checkout", "-q", "-b", "side"}).code == 0);
  REQUIRE(sandbox.vault({"distill", "--purge", "--select", "MEM-delta"}).code == 0);
  const std::string side = head_of(sandbox);
  REQUIRE(sandbox.git({"checkout", "-q", main.substr(0, main.size() - 1)}).code == 0);
  // The sandbox's clock stands still: this run gets the same id, distill_1796040000.
  REQUIRE(sandbox.vault({"distill", "--record"}).code == 0);
  const auto merge = sandbox.git({"merge", "-q", "--no-edit", "side"});
  INFO(merge.out << merge.err);
  REQUIRE(merge.code == 0);

  const json log = json::parse(sandbox.vault({"log", "--json"}).out);
  int entries = 0;
  for (const json& entry : log["entries"]) {
    entries += entry["id"] == "distill_1796040000" ? 1 : 0;
  }
  CHECK(entries == 2);
  const auto verify = sandbox.vault({"log", "--verify"});
  CHECK(verify.code == 1);
  CHECK_THAT(verify.out, Catch::Contains("2 commits carry its Vault-Log-Id"));
  // The id no longer names one action: revert asks for the commit, and takes it.
  const auto ambiguous = sandbox.vault({"revert", "distill_1796040000"});
  CHECK(ambiguous.code == 128);
  CHECK_THAT(ambiguous.err, Catch::Contains("2 commits carry `Vault-Log-Id: distill_1796040000`; "
                                            "name the one to undo:"));
  CHECK_THAT(ambiguous.err,
             Catch::Contains("git vault revert " + side.substr(0, 7) + "   # vault(purge): "));
  const auto named = sandbox.vault({"revert", side.substr(0, 7)});
  INFO(named.err);
  CHECK(named.code == 0);
}

}  // namespace log_test
