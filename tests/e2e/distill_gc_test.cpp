#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "tests/e2e/sandbox.hpp"
#include "tests/e2e/vault_fixture.hpp"

namespace distill_gc_test {

using gv::test::memory_file;
using gv::test::Sandbox;
using nlohmann::json;

namespace {

std::string head_of(const Sandbox& sandbox) {
  return sandbox.git({"rev-parse", "HEAD"}).out.substr(0, 40);
}

std::string tombstone(std::string_view at, std::string_view reason) {
  std::string fields = "status: tombstoned\n";
  if (!at.empty()) {
    fields += "tombstoned_at: " + std::string{at} + "\n";
  }
  return fields + "tombstone_reason: \"" + std::string{reason} + "\"\n";
}

// Today is 2026-11-30, so the grace period ends for tombstones dated 2026-11-23 or earlier:
//   MEM-alpha   active
//   MEM-fresh   tombstoned 2026-11-25 (5 days: kept)
//   MEM-old1    tombstoned 2026-11-01 (29 days)
//   MEM-old2    tombstoned 2026-11-23 (exactly 7 days: eligible)
void write_gc_vault(Sandbox& sandbox) {
  sandbox.write(".memory/10-Memories/MEM-alpha.md",
                memory_file("Alpha", "2026-11-20", "a, b", 0, "null", {}, 10));
  sandbox.write(
      ".memory/10-Memories/MEM-fresh.md",
      memory_file("Fresh", "2026-03-01", "f", 0, "null", tombstone("2026-11-25", "purge")));
  sandbox.write(
      ".memory/10-Memories/MEM-old1.md",
      memory_file("Old one", "2026-02-01", "o", 0, "null", tombstone("2026-11-01", "purge"), 20));
  sandbox.write(".memory/10-Memories/MEM-old2.md",
                memory_file("Old two", "2026-02-01", "p", 0, "null",
                            tombstone("2026-11-23", "merged into MEM-alpha"), 30));
  sandbox.write("specs/state.json", "{}\n");  // memory_health is refreshed, never created (D8)
  REQUIRE(sandbox.vault({"index"}).code == 0);
  sandbox.commit_all("gc fixture");
}

// The six numbers a log entry records, taken from a fresh report and the regenerated index
// (total_tokens counts tombstoned files too, like memory-index.json's).
json metrics_now(const Sandbox& sandbox) {
  const auto result = sandbox.vault({"distill", "--json"});
  REQUIRE(result.code == 0);
  const json report = json::parse(result.out);
  const json index = json::parse(sandbox.read(".memory/memory-index.json"));
  std::int64_t tokens = 0;
  for (const json& entry : index["entries"]) {
    tokens += entry["token_count"].get<std::int64_t>();
  }
  return json{{"total_memories", report["memories"].size() + report["tombstoned"].size()},
              {"total_tokens", tokens},
              {"health_score", report["health_score"]},
              {"purge_candidates", report["candidates"]["purge"].size()},
              {"merge_candidates", report["candidates"]["merge"].size()},
              {"compress_candidates", report["candidates"]["compress"].size()}};
}

}  // namespace

TEST_CASE("gc --dry-run --json lists tombstones past the grace period in id order",
          "[distill][gc]") {
  Sandbox sandbox;
  write_gc_vault(sandbox);
  const std::string head = head_of(sandbox);
  const auto result = sandbox.vault({"distill", "--gc", "--dry-run", "--json"});
  INFO(result.err);
  REQUIRE(result.code == 0);
  const json expected = json::parse(R"({"schema":1,"sub_mode":"gc","dry_run":true,"candidates":[
      {"id":"MEM-old1","tombstoned_at":"2026-11-01","tombstone_reason":"purge"},
      {"id":"MEM-old2","tombstoned_at":"2026-11-23","tombstone_reason":"merged into MEM-alpha"}]})");
  CHECK(json::parse(result.out) == expected);
  CHECK(sandbox.git({"status", "--porcelain"}).out.empty());
  CHECK(head_of(sandbox) == head);
}

TEST_CASE("gc --dry-run prints the documented text and writes nothing", "[distill][gc]") {
  Sandbox sandbox;
  write_gc_vault(sandbox);
  const std::string head = head_of(sandbox);
  const auto result = sandbox.vault({"distill", "--gc", "--dry-run"});
  REQUIRE(result.code == 0);
  CHECK(result.out ==
        "[DRY RUN] Would permanently delete 2 memories:\n"
        "  - MEM-old1 (tombstoned: 2026-11-01, reason: purge)\n"
        "  - MEM-old2 (tombstoned: 2026-11-23, reason: merged into MEM-alpha)\n"
        "\nNo changes made.\n");
  CHECK(sandbox.git({"status", "--porcelain"}).out.empty());
  CHECK(head_of(sandbox) == head);
}

TEST_CASE("gc with nothing past the grace period says how many are still waiting",
          "[distill][gc]") {
  Sandbox sandbox;
  gv::test::write_scored_vault(sandbox);  // MEM-eps was tombstoned 5 days ago
  const std::string head = head_of(sandbox);
  const auto result = sandbox.vault({"distill", "--gc", "--all"});
  CHECK(result.code == 0);
  CHECK(result.out ==
        "No tombstoned memories past the 7-day grace period.\n"
        "1 tombstoned memories are still within the grace period.\n");
  CHECK(head_of(sandbox) == head);
  CHECK(sandbox.git({"status", "--porcelain"}).out.empty());

  const auto dry = sandbox.vault({"distill", "--gc", "--dry-run"});
  CHECK(dry.out == result.out);
}

TEST_CASE("gc without a selection and without a terminal changes nothing", "[distill][gc]") {
  Sandbox sandbox;
  write_gc_vault(sandbox);
  const std::string head = head_of(sandbox);
  const auto result = sandbox.vault({"distill", "--gc"});
  CHECK(result.code == 1);
  CHECK_THAT(result.err, Catch::Contains("--select"));
  CHECK(head_of(sandbox) == head);
  CHECK(sandbox.git({"status", "--porcelain"}).out.empty());
  CHECK(sandbox.exists(".memory/10-Memories/MEM-old1.md"));
}

TEST_CASE("gc on a terminal with an empty answer cancels with the documented message",
          "[distill][gc]") {
  Sandbox sandbox;
  write_gc_vault(sandbox);
  const std::string head = head_of(sandbox);
  // `script` gives the run a terminal; the empty line selects nothing.
  const auto result = sandbox.sh("printf '\\n' | script -qec 'git vault distill --gc' /dev/null");
  INFO(result.out << result.err);
  CHECK_THAT(result.out,
             Catch::Contains("Select tombstoned memories to permanently delete (one "
                             "commit: `git vault revert` brings them back). (2 found)"));
  CHECK_THAT(result.out,
             Catch::Contains("Tombstoned: 2026-11-01 | Reason: purge | Original score: "));
  CHECK_THAT(result.out, Catch::Contains("No memories selected for deletion. GC cancelled."));
  CHECK(head_of(sandbox) == head);
  CHECK(sandbox.git({"status", "--porcelain"}).out.empty());
}

TEST_CASE("gc deletes exactly the selected files in one commit", "[distill][gc]") {
  Sandbox sandbox;
  write_gc_vault(sandbox);
  const json pre = metrics_now(sandbox);
  const std::string parent = head_of(sandbox);
  sandbox.write("notes.txt", "mine\n");
  REQUIRE(sandbox.git({"add", "notes.txt"}).code == 0);

  const auto result = sandbox.vault({"distill", "--gc", "--select", "MEM-old2,MEM-old1", "--json"});
  INFO(result.err);
  REQUIRE(result.code == 0);
  const std::string log_id = json::parse(result.out)["log_id"];
  CHECK(log_id == "distill_1796040000");

  CHECK_FALSE(sandbox.exists(".memory/10-Memories/MEM-old1.md"));
  CHECK_FALSE(sandbox.exists(".memory/10-Memories/MEM-old2.md"));
  CHECK(sandbox.exists(".memory/10-Memories/MEM-fresh.md"));

  CHECK(sandbox.git({"show", "--name-status", "--format=", "HEAD"}).out ==
        "D\t.memory/10-Memories/MEM-old1.md\n"
        "D\t.memory/10-Memories/MEM-old2.md\n"
        "M\t.memory/20-Indices/index.md\n"
        "A\t.memory/distill-log.json\n"
        "M\t.memory/memory-index.json\n"
        "M\tspecs/state.json\n");
  CHECK(sandbox.git({"log", "-1", "--format=%B"}).out ==
        "vault(gc): delete 2 tombstoned memories\n\n"
        "Vault-Action: gc\nVault-Log-Id: distill_1796040000\n"
        "Vault-Memories: MEM-old1, MEM-old2\n\n");
  CHECK(sandbox.git({"rev-parse", "HEAD~1"}).out.substr(0, 40) == parent);
  CHECK(sandbox.git({"diff", "--cached", "--name-only"}).out == "notes.txt\n");
  CHECK(sandbox.git({"status", "--porcelain"}).out == "A  notes.txt\n");

  const json log = json::parse(sandbox.read(".memory/distill-log.json"));
  REQUIRE(log["operations"].size() == 1);
  const json& entry = log["operations"][0];
  CHECK(entry["type"] == "gc");
  CHECK(entry["affected_memories"] == json::array({"MEM-old1", "MEM-old2"}));
  CHECK(entry["notes"] == "Hard-deleted 2 tombstoned memories");
  CHECK(entry["parent_commit"] == parent);
  CHECK(entry["pre_metrics"] == pre);
  CHECK(entry["post_metrics"] == metrics_now(sandbox));
  CHECK(entry["pre_metrics"]["total_memories"] == 4);
  CHECK(entry["post_metrics"]["total_memories"] == 2);
  CHECK(log["summary"]["total_gc_deleted"] == 2);
  CHECK(log["summary"]["total_operations"] == 1);

  const json state = json::parse(sandbox.read("specs/state.json"));
  CHECK(state["memory_health"]["total_memories"] == 2);
  CHECK(state["memory_health"]["distill_count"] == 1);

  const json index = json::parse(sandbox.read(".memory/memory-index.json"));
  CHECK(index["entry_count"] == 2);
  CHECK(sandbox.vault({"index", "--check"}).code == 0);
}

TEST_CASE("gc --select by number deletes the candidate at that place", "[distill][gc]") {
  Sandbox sandbox;
  write_gc_vault(sandbox);
  const auto result = sandbox.vault({"distill", "--gc", "--select", "1"});
  INFO(result.err);
  REQUIRE(result.code == 0);
  CHECK(sandbox.git({"show", "--name-status", "--format=", "HEAD", "--", ".memory/10-Memories/"})
            .out == "D\t.memory/10-Memories/MEM-old1.md\n");
  CHECK(sandbox.git({"log", "-1", "--format=%s"}).out == "vault(gc): delete MEM-old1\n");
}

TEST_CASE("gc --select of a memory that is not a candidate is a usage error", "[distill][gc]") {
  Sandbox sandbox;
  write_gc_vault(sandbox);
  const std::string head = head_of(sandbox);
  for (const char* select : {"MEM-fresh", "MEM-alpha", "7"}) {
    const auto result = sandbox.vault({"distill", "--gc", "--select", select});
    CHECK(result.code == 129);
    CHECK(head_of(sandbox) == head);
    CHECK(sandbox.exists(".memory/10-Memories/MEM-fresh.md"));
  }
}

TEST_CASE("gc refuses a vault with uncommitted changes", "[distill][gc]") {
  Sandbox sandbox;
  write_gc_vault(sandbox);
  const std::string head = head_of(sandbox);
  sandbox.write(".memory/10-Memories/MEM-alpha.md",
                memory_file("Alpha", "2026-11-20", "a", 0, "null"));
  const auto result = sandbox.vault({"distill", "--gc", "--all"});
  CHECK(result.code == 128);
  CHECK_THAT(result.err, Catch::Contains("MEM-alpha.md"));
  CHECK(head_of(sandbox) == head);
  CHECK(sandbox.exists(".memory/10-Memories/MEM-old1.md"));
  CHECK(sandbox.git({"status", "--porcelain"}).out == " M .memory/10-Memories/MEM-alpha.md\n");
}

TEST_CASE("after gc the vault passes the index check and check", "[distill][gc]") {
  Sandbox sandbox;
  write_gc_vault(sandbox);
  REQUIRE(sandbox.vault({"distill", "--gc", "--all"}).code == 0);
  const auto index_check = sandbox.vault({"index", "--check"});
  INFO(index_check.out << index_check.err);
  CHECK(index_check.code == 0);
  const auto check = sandbox.vault({"check"});
  if (check.err.find("not available") == std::string::npos) {  // once `check` exists
    INFO(check.out << check.err);
    CHECK(check.code == 0);
  }
  CHECK(sandbox.git({"status", "--porcelain"}).out.empty());
}

}  // namespace distill_gc_test
