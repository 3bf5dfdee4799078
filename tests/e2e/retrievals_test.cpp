#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "tests/e2e/sandbox.hpp"
#include "tests/e2e/vault_fixture.hpp"

namespace retrievals_test {

using gv::test::Sandbox;
using nlohmann::json;

namespace {

json memory_score(Sandbox& sandbox, const std::string& id) {
  const json report = json::parse(sandbox.vault({"distill", "--json"}).out);
  for (const json& memory : report["memories"]) {
    if (memory["id"] == id) {
      return memory;
    }
  }
  return nullptr;
}

}  // namespace

TEST_CASE("two processes recording at once lose no retrieval", "[retrievals]") {
  Sandbox sandbox;
  gv::test::write_scored_vault(sandbox);
  // Each loop records 40 retrievals through the command line; both run at the same time.
  const auto result = sandbox.sh(
      "i=0; while [ $i -lt 40 ]; do git vault show MEM-alpha --record >/dev/null || exit 1; "
      "i=$((i+1)); done & "
      "j=0; while [ $j -lt 40 ]; do git vault search gamma --record >/dev/null || exit 1; "
      "j=$((j+1)); done & wait");
  INFO(result.err);
  REQUIRE(result.code == 0);
  const std::string journal = sandbox.read(".git/git-vault/retrievals.jsonl");
  CHECK(std::count(journal.begin(), journal.end(), '\n') == 80);
  CHECK(sandbox.git({"status", "--porcelain"}).out.empty());

  // `distill --record` folds them into frontmatter as their own commit, then logs the report.
  const auto fold = sandbox.vault({"distill", "--record"});
  INFO(fold.err);
  REQUIRE(fold.code == 0);
  CHECK_THAT(sandbox.read(".memory/10-Memories/MEM-alpha.md"),
             Catch::Contains("\nretrieval_count: 40\nlast_retrieved: 2026-11-30\n"));
  CHECK_THAT(sandbox.read(".memory/10-Memories/MEM-gamma.md"),
             Catch::Contains("\nretrieval_count: 40\nlast_retrieved: 2026-11-30\n"));
  CHECK(sandbox.read(".git/git-vault/retrievals.jsonl").empty());
  const auto subjects = sandbox.git({"log", "-2", "--format=%s"});
  CHECK_THAT(subjects.out,
             Catch::EndsWith("vault(retrievals): fold 80 retrievals into 2 memories\n"));
  const auto trailers = sandbox.git({"log", "-1", "--skip=1", "--format=%b"});
  CHECK_THAT(trailers.out, Catch::Contains("Vault-Action: retrievals\n"));
  CHECK_THAT(trailers.out, Catch::Contains("Vault-Memories: MEM-alpha, MEM-gamma"));
  CHECK(sandbox.vault({"index", "--check"}).code == 0);
  CHECK(sandbox.git({"status", "--porcelain"}).out.empty());
  CHECK(memory_score(sandbox, "MEM-alpha")["zero_retrieval"] == 0.0);
}

TEST_CASE("scoring counts the journal until it is folded, and a maintenance action folds first",
          "[retrievals]") {
  Sandbox sandbox;
  gv::test::write_scored_vault(sandbox);
  // MEM-delta is a purge candidate: never retrieved and old.
  CHECK(memory_score(sandbox, "MEM-delta")["zero_retrieval"] == 1.0);
  REQUIRE(sandbox.vault({"show", "MEM-delta", "MEM-beta", "--record"}).code == 0);
  CHECK(memory_score(sandbox, "MEM-delta")["zero_retrieval"] == 0.0);

  // A compress of MEM-beta lands on top of the fold and keeps its folded count.
  const auto compress = sandbox.vault({"distill", "--compress", "--select", "MEM-beta"});
  INFO(compress.err);
  REQUIRE(compress.code == 0);
  const auto subjects = sandbox.git({"log", "-2", "--format=%s"});
  CHECK_THAT(subjects.out, Catch::StartsWith("vault(compress)"));
  CHECK_THAT(subjects.out,
             Catch::EndsWith("vault(retrievals): fold 2 retrievals into 2 memories\n"));
  // Two commits where one was asked for, and it says so.
  CHECK_THAT(compress.err,
             Catch::Contains("git-vault: note: committed " +
                             sandbox.git({"rev-parse", "--short=12", "HEAD~1"}).out.substr(0, 12) +
                             " first: the retrievals recorded since the last fold"));
  CHECK_THAT(sandbox.read(".memory/10-Memories/MEM-beta.md"),
             Catch::Contains("\nretrieval_count: 3\nlast_retrieved: 2026-11-30\n"));
  CHECK_THAT(sandbox.read(".memory/10-Memories/MEM-delta.md"),
             Catch::Contains("\nretrieval_count: 1\nlast_retrieved: 2026-11-30\n"));
  // Reverting the action keeps the retrievals: they live in the fold's commit.
  const auto revert = sandbox.vault({"revert", "HEAD"});
  INFO(revert.err);
  REQUIRE(revert.code == 0);
  CHECK_THAT(sandbox.read(".memory/10-Memories/MEM-beta.md"),
             Catch::Contains("\nretrieval_count: 3\n"));
}

TEST_CASE("runs without a commit and dry runs leave the journal alone", "[retrievals]") {
  Sandbox sandbox;
  gv::test::write_scored_vault(sandbox);
  REQUIRE(sandbox.vault({"show", "MEM-beta", "--record"}).code == 0);
  REQUIRE(sandbox.vault({"distill", "--compress", "--dry-run"}).code == 0);
  REQUIRE(sandbox.vault({"distill", "--compress", "--select", "MEM-beta", "--no-commit"}).code ==
          0);
  CHECK_FALSE(sandbox.read(".git/git-vault/retrievals.jsonl").empty());
}

TEST_CASE("a torn journal line costs only itself, and the fold says what it dropped",
          "[retrievals]") {
  Sandbox sandbox;
  gv::test::write_scored_vault(sandbox);
  // A garbage line, and a last record torn by a crash (no newline), then a real read.
  sandbox.write(".git/git-vault/retrievals.jsonl",
                "GARBAGE\n{\"id\":\"MEM-nope\",\"date\":\"2026-11-29\",\"via\":\"show\"}\n"
                "{\"id\":\"MEM-delta\"");
  REQUIRE(sandbox.vault({"show", "MEM-beta", "--record"}).code == 0);
  const std::string journal = sandbox.read(".git/git-vault/retrievals.jsonl");
  CHECK_THAT(journal, Catch::EndsWith("{\"id\":\"MEM-delta\"\n{\"id\":\"MEM-beta\",\"date\":"
                                      "\"2026-11-30\",\"via\":\"show\"}\n"));

  const auto record = sandbox.vault({"distill", "--record"});
  INFO(record.err);
  REQUIRE(record.code == 0);
  CHECK_THAT(record.err, Catch::Contains("warning: 2 lines of the retrieval journal were not a "
                                         "record (a write torn by a crash?) and were dropped"));
  CHECK_THAT(record.err, Catch::Contains("warning: 1 retrieval recorded for memories the vault "
                                         "no longer has was dropped"));
  CHECK_THAT(sandbox.read(".memory/10-Memories/MEM-beta.md"),
             Catch::Contains("\nretrieval_count: 3\n"));
}

TEST_CASE("a fold that also carries the old index's counts says so in its message",
          "[retrievals]") {
  Sandbox sandbox;
  gv::test::write_scored_vault(sandbox);
  // An index written by an earlier tool: MEM-gamma's count lives there only.
  json index = json::parse(sandbox.read(".memory/memory-index.json"));
  for (json& entry : index["entries"]) {
    if (entry["id"] == "MEM-gamma") {
      entry["retrieval_count"] = 9;
    }
  }
  sandbox.write(".memory/memory-index.json", index.dump(2) + "\n");
  sandbox.commit_all("an older index");
  REQUIRE(sandbox.vault({"show", "MEM-beta", "--record"}).code == 0);
  const auto record = sandbox.vault({"distill", "--record"});
  INFO(record.err);
  REQUIRE(record.code == 0);
  const std::string message = sandbox.git({"log", "-1", "--format=%B", "HEAD~1"}).out;
  CHECK_THAT(message, Catch::StartsWith("vault(retrievals): fold 1 retrieval into 1 memory\n"));
  CHECK_THAT(message, Catch::Contains("Also carries the retrieval counts the old index kept into "
                                      "1 memory: MEM-gamma\n"));
  CHECK_THAT(message, Catch::Contains("Vault-Memories: MEM-beta, MEM-gamma\n"));
  CHECK_THAT(sandbox.read(".memory/10-Memories/MEM-gamma.md"),
             Catch::Contains("\nretrieval_count: 9\n"));
}

}  // namespace retrievals_test
