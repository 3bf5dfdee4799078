#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "tests/e2e/sandbox.hpp"
#include "tests/e2e/vault_fixture.hpp"

namespace revert_test {

using gv::test::memory_file;
using gv::test::Sandbox;
using nlohmann::json;

namespace {

std::string head_of(const Sandbox& sandbox) {
  return sandbox.git({"rev-parse", "HEAD"}).out.substr(0, 40);
}

const char* const k_memories[] = {"MEM-alpha", "MEM-beta", "MEM-gamma", "MEM-delta", "MEM-eps"};

std::map<std::string, std::string> memory_bytes(const Sandbox& sandbox) {
  std::map<std::string, std::string> bytes;
  for (const char* id : k_memories) {
    const std::string path = std::string{".memory/10-Memories/"} + id + ".md";
    bytes[id] = sandbox.exists(path) ? sandbox.read(path) : "<absent>";
  }
  return bytes;
}

// `git vault check` may not exist in this build yet; when it does, it must pass.
void check_if_available(const Sandbox& sandbox) {
  const auto check = sandbox.vault({"check"});
  if (check.err.find("not available") == std::string::npos) {
    INFO(check.out << check.err);
    CHECK(check.code == 0);
  }
}

}  // namespace

TEST_CASE("revert of a purge gives back every byte of the memory files", "[revert]") {
  Sandbox sandbox;
  gv::test::write_scored_vault(sandbox);
  // A token_count that is stale: the purge refreshes it (D3), the revert must restore it.
  sandbox.write(".memory/10-Memories/MEM-delta.md",
                memory_file("Delta", "2026-01-01", "a, b", 0, "null", "token_count: 999\n"));
  REQUIRE(sandbox.vault({"index"}).code == 0);
  sandbox.commit_all("stale token_count");
  const auto before = memory_bytes(sandbox);
  const std::string index_before = sandbox.read(".memory/memory-index.json");

  const auto purge = sandbox.vault({"distill", "--purge", "--all", "--json"});
  REQUIRE(purge.code == 0);
  const std::string log_id = json::parse(purge.out)["log_id"];
  const std::string action = head_of(sandbox);
  REQUIRE(memory_bytes(sandbox) != before);

  sandbox.set_env("GIT_VAULT_NOW", "2026-11-30T13:00:00Z");
  const auto result = sandbox.vault({"revert", log_id});
  INFO(result.err);
  REQUIRE(result.code == 0);
  CHECK_THAT(result.out, Catch::StartsWith("Reverted " + action.substr(0, 7) +
                                           " (vault(purge): tombstone 2 memories): restored 2 "
                                           "files.\n"));
  CHECK(memory_bytes(sandbox) == before);
  CHECK(sandbox.read(".memory/memory-index.json") == index_before);
  CHECK(sandbox.git({"rev-parse", "HEAD~1"}).out.substr(0, 40) == action);
  CHECK(sandbox.git({"log", "-1", "--format=%B"}).out ==
        "vault(revert): vault(purge): tombstone 2 memories\n\n"
        "This reverts commit " +
            action +
            ".\n\n"
            "Vault-Action: revert\nVault-Log-Id: distill_1796043600\n"
            "Vault-Memories: MEM-delta, MEM-gamma\n\n");
  CHECK(sandbox.git({"show", "--name-only", "--format=", "HEAD"}).out ==
        ".memory/10-Memories/MEM-delta.md\n.memory/10-Memories/MEM-gamma.md\n"
        ".memory/10-Memories/README.md\n.memory/20-Indices/index.md\n"
        ".memory/distill-log.json\n.memory/memory-index.json\nspecs/state.json\n");

  // The log keeps the purge entry (now with its commit) and gains the revert entry.
  const json log = json::parse(sandbox.read(".memory/distill-log.json"));
  REQUIRE(log["operations"].size() == 2);
  CHECK(log["operations"][0]["id"] == log_id);
  CHECK(log["operations"][0]["type"] == "purge");
  CHECK(log["operations"][0]["commit"] == action);
  const json& revert = log["operations"][1];
  CHECK(revert["type"] == "revert");
  CHECK(revert["reverts"] == log_id);
  CHECK(revert["reverted_commit"] == action);
  CHECK(revert["affected_memories"] == json::array({"MEM-delta", "MEM-gamma"}));
  CHECK(revert["parent_commit"] == action);
  CHECK(revert["post_metrics"] == log["operations"][0]["pre_metrics"]);
  CHECK(log["summary"]["total_operations"] == 2);
  CHECK(log["summary"]["total_purged"] == 2);

  const json state = json::parse(sandbox.read("specs/state.json"));
  CHECK(state["memory_health"]["distill_count"] == 2);
  CHECK(state["memory_health"]["last_distilled"] == "2026-11-30T13:00:00Z");
  CHECK(state["memory_health"]["health_score"] == revert["post_metrics"]["health_score"]);

  CHECK(sandbox.vault({"index", "--check"}).code == 0);
  check_if_available(sandbox);
  CHECK(sandbox.git({"status", "--porcelain"}).out.empty());
}

TEST_CASE("revert of a gc brings the deleted files back byte for byte", "[revert]") {
  Sandbox sandbox;
  gv::test::write_scored_vault(sandbox);
  sandbox.set_env("GIT_VAULT_TODAY", "2026-12-02");  // MEM-eps (2026-11-25) is now past 7 days
  const auto before = memory_bytes(sandbox);
  REQUIRE(sandbox.vault({"distill", "--gc", "--all"}).code == 0);
  const std::string action = head_of(sandbox);
  CHECK_FALSE(sandbox.exists(".memory/10-Memories/MEM-eps.md"));

  sandbox.set_env("GIT_VAULT_NOW", "2026-12-02T09:00:00Z");
  const auto result = sandbox.vault({"revert", action.substr(0, 10)});
  INFO(result.err);
  REQUIRE(result.code == 0);
  CHECK(memory_bytes(sandbox) == before);
  CHECK(sandbox.git({"show", "--name-status", "--format=", "HEAD", "--", ".memory/10-Memories/"})
            .out == "A\t.memory/10-Memories/MEM-eps.md\n");
  const json log = json::parse(sandbox.read(".memory/distill-log.json"));
  CHECK(log["operations"][1]["reverted_commit"] == action);
  CHECK(log["operations"][1]["reverts"] == log["operations"][0]["id"]);
  CHECK(log["operations"][1]["post_metrics"]["total_memories"] == 5);
  CHECK(json::parse(sandbox.read("specs/state.json"))["memory_health"]["total_memories"] == 5);
  CHECK(sandbox.vault({"index", "--check"}).code == 0);
  check_if_available(sandbox);
}

TEST_CASE("revert refuses when a later commit changed the same memory files", "[revert]") {
  Sandbox sandbox;
  gv::test::write_scored_vault(sandbox);
  REQUIRE(sandbox.vault({"distill", "--purge", "--select", "MEM-delta"}).code == 0);
  const std::string action = head_of(sandbox);
  std::string delta = sandbox.read(".memory/10-Memories/MEM-delta.md");
  delta += "\nA note added later.\n";
  sandbox.write(".memory/10-Memories/MEM-delta.md", delta);
  REQUIRE(sandbox.vault({"index"}).code == 0);
  sandbox.commit_all("edit delta by hand");
  const std::string later = head_of(sandbox);

  const auto result = sandbox.vault({"revert", action});
  CHECK(result.code == 1);
  CHECK_THAT(result.err, Catch::Contains("later commits changed the same files"));
  CHECK_THAT(result.err, Catch::Contains(later.substr(0, 7) +
                                         " edit delta by hand: .memory/10-Memories/MEM-delta.md"));
  CHECK_THAT(result.err, Catch::Contains("--force"));
  CHECK_THAT(result.err,
             Catch::Contains("keep them with `git revert " + action.substr(0, 7) +
                             "`, which merges the undo with them but also takes the action's "
                             "entry out of the distill log instead of logging a revert (then "
                             "`git vault index` for the generated files)"));
  CHECK(head_of(sandbox) == later);
  CHECK(sandbox.git({"status", "--porcelain"}).out.empty());

  SECTION("git revert, as the refusal suggests, keeps the later edit") {
    const auto undo = sandbox.sh("git revert --no-edit " + action.substr(0, 7) +
                                 " && git vault index && git add :/.memory && "
                                 "git commit -qm 'regenerate the index files'");
    INFO(undo.out << undo.err);
    REQUIRE(undo.code == 0);
    const std::string restored = sandbox.read(".memory/10-Memories/MEM-delta.md");
    CHECK_THAT(restored,
               Catch::Contains("A note added later.") && !Catch::Contains("status: tombstoned"));
    // As the refusal warns: the purge's log entry is gone (with the log it created), and no
    // revert is logged.
    CHECK_FALSE(sandbox.exists(".memory/distill-log.json"));
    const auto check = sandbox.vault({"check"});
    INFO(check.out << check.err);
    CHECK(check.code == 0);
  }

  SECTION("--force restores the action's parent version anyway") {
    sandbox.set_env("GIT_VAULT_NOW", "2026-11-30T13:00:00Z");
    const auto forced = sandbox.vault({"revert", "--force", action});
    INFO(forced.err);
    REQUIRE(forced.code == 0);
    CHECK(sandbox.read(".memory/10-Memories/MEM-delta.md") ==
          sandbox.git({"show", action + "~1:.memory/10-Memories/MEM-delta.md"}).out);
    CHECK(sandbox.vault({"index", "--check"}).code == 0);
  }
}

TEST_CASE("reverting an action a second time says which commit already undid it", "[revert]") {
  Sandbox sandbox;
  gv::test::write_scored_vault(sandbox);
  REQUIRE(sandbox.vault({"distill", "--purge", "--select", "MEM-delta"}).code == 0);
  const std::string action = head_of(sandbox);
  sandbox.set_env("GIT_VAULT_NOW", "2026-11-30T13:00:00Z");
  REQUIRE(sandbox.vault({"revert", action}).code == 0);
  const std::string reverter = head_of(sandbox);
  sandbox.write("notes.txt", "later, unrelated\n");
  sandbox.commit_all("unrelated");
  const std::string later = head_of(sandbox);

  for (const bool force : {false, true}) {
    const auto again =
        force ? sandbox.vault({"revert", "--force", action}) : sandbox.vault({"revert", action});
    CHECK(again.code == 1);
    CHECK_THAT(again.err, Catch::Contains(action.substr(0, 7) + " (vault(purge): ") &&
                              Catch::Contains("is already undone: " + reverter.substr(0, 7) +
                                              " (vault(revert): vault(purge): ") &&
                              Catch::Contains("nothing to revert."));
    CHECK_THAT(again.err, !Catch::Contains("later commits"));
    CHECK(head_of(sandbox) == later);
  }

  SECTION("undone by hand, no commit is named") {
    REQUIRE(sandbox.git({"reset", "-q", "--hard", action}).code == 0);
    REQUIRE(sandbox.sh("git checkout -q " + action + "~1 -- .memory && git commit -q -m 'by hand'")
                .code == 0);
    const auto again = sandbox.vault({"revert", action});
    CHECK(again.code == 1);
    CHECK_THAT(again.err, Catch::Contains("is already undone: its files are back as they were "
                                          "before it; nothing to revert."));
  }
}

TEST_CASE("revert refuses a commit that is not a vault action", "[revert]") {
  Sandbox sandbox;
  gv::test::write_scored_vault(sandbox);
  const std::string head = head_of(sandbox);
  const auto result = sandbox.vault({"revert", "HEAD"});
  CHECK(result.code == 128);
  CHECK_THAT(result.err, Catch::Contains("is not a vault action"));
  CHECK(head_of(sandbox) == head);

  // A vault action of a kind revert does not undo (recall actions it does): an events fold.
  sandbox.write("specs/events.jsonl", "{}\n");
  REQUIRE(sandbox.git({"add", "specs/events.jsonl"}).code == 0);
  REQUIRE(sandbox
              .git({"commit", "-qm",
                    "vault(events): fold 1 events into specs/events.jsonl\n\n"
                    "Vault-Action: events\n"})
              .code == 0);
  const std::string recall = head_of(sandbox);
  const auto other = sandbox.vault({"revert", "HEAD"});
  CHECK(other.code == 128);
  CHECK_THAT(other.err, Catch::Contains("is a `events` action, which `git vault revert` does not "
                                        "undo; use `git revert " +
                                        recall.substr(0, 7) + "`"));
  CHECK(head_of(sandbox) == recall);

  const auto unknown = sandbox.vault({"revert", "distill_123"});
  CHECK(unknown.code == 128);
  CHECK_THAT(unknown.err, Catch::Contains("distill_123"));
  CHECK(head_of(sandbox) == recall);
}

TEST_CASE("revert of an action that changed no memory file refuses", "[revert]") {
  Sandbox sandbox;
  gv::test::write_scored_vault(sandbox);
  REQUIRE(sandbox.vault({"distill", "--record"}).code == 0);
  const std::string head = head_of(sandbox);
  const auto result = sandbox.vault({"revert", "HEAD"});
  CHECK(result.code == 1);
  CHECK_THAT(result.err, Catch::Contains("changed no memory files"));
  CHECK(head_of(sandbox) == head);
}

TEST_CASE("revert --no-commit leaves the restored files in the work tree", "[revert]") {
  Sandbox sandbox;
  gv::test::write_scored_vault(sandbox);
  const auto before = memory_bytes(sandbox);
  REQUIRE(sandbox.vault({"distill", "--purge", "--select", "MEM-delta"}).code == 0);
  const std::string action = head_of(sandbox);
  REQUIRE(sandbox.vault({"revert", "--no-commit", action}).code == 0);
  CHECK(head_of(sandbox) == action);
  CHECK(memory_bytes(sandbox) == before);
  CHECK(sandbox.git({"diff", "--cached", "--name-only"}).out.empty());
  CHECK_THAT(sandbox.git({"status", "--porcelain"}).out,
             Catch::Contains(" M .memory/10-Memories/MEM-delta.md\n"));
}

TEST_CASE("a plain git revert of an action leaves a vault that passes the index check",
          "[revert]") {
  Sandbox sandbox;
  gv::test::write_scored_vault(sandbox);
  REQUIRE(sandbox.vault({"distill", "--purge", "--all"}).code == 0);
  sandbox.set_env("GIT_VAULT_TODAY", "2026-12-09");
  REQUIRE(sandbox.vault({"distill", "--gc", "--select", "MEM-eps"}).code == 0);
  const auto result = sandbox.git({"revert", "--no-edit", "HEAD"});
  INFO(result.err);
  REQUIRE(result.code == 0);
  CHECK(sandbox.exists(".memory/10-Memories/MEM-eps.md"));
  const auto index_check = sandbox.vault({"index", "--check"});
  INFO(index_check.out << index_check.err);
  CHECK(index_check.code == 0);
  check_if_available(sandbox);
}

TEST_CASE("reverting a learn that created a memory says it removed it", "[revert][learn]") {
  Sandbox sandbox;
  REQUIRE(sandbox.vault({"init", "--no-hooks"}).code == 0);
  sandbox.commit_all("vault");
  REQUIRE(sandbox
              .vault({"learn", "--title", "Pin the toolchain", "--text",
                      "Pin the compiler version in the toolchain file."})
              .code == 0);
  const std::string action = head_of(sandbox);
  const auto result = sandbox.vault({"revert", "HEAD"});
  INFO(result.err);
  REQUIRE(result.code == 0);
  CHECK_THAT(result.out, Catch::StartsWith("Reverted " + action.substr(0, 7)) &&
                             Catch::Contains("): removed 1 file it had created.\n"));
  CHECK(sandbox.git({"ls-files", ".memory/10-Memories/MEM-*"}).out.empty());
  CHECK(sandbox.vault({"check"}).code == 0);
}

TEST_CASE("allow-dirty refuses over a file the commit rewrites and says why",
          "[revert][conventions]") {
  Sandbox sandbox;
  gv::test::write_scored_vault(sandbox);
  REQUIRE(sandbox.vault({"distill", "--purge", "--select", "MEM-delta"}).code == 0);
  const std::string action = head_of(sandbox);
  // Another tool's key in specs/state.json, not yet committed.
  std::string state = sandbox.read("specs/state.json");
  state.insert(state.find('{') + 1, "\n  \"other_tool\": 1,");
  sandbox.write("specs/state.json", state);
  const auto result = sandbox.vault({"revert", action, "--allow-dirty"});
  CHECK(result.code == 128);
  CHECK_THAT(result.err,
             Catch::Contains("specs/state.json has uncommitted changes, and this commit must "
                             "rewrite it (its memory_health is refreshed): --allow-dirty keeps "
                             "uncommitted changes out of the commit, but not out of a file the "
                             "commit rewrites; commit or stash it first"));
  CHECK(head_of(sandbox) == action);
  CHECK_THAT(sandbox.read("specs/state.json"), Catch::Contains("other_tool"));
}

}  // namespace revert_test
