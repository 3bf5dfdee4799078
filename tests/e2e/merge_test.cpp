#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>
#include <string>

#include "tests/e2e/sandbox.hpp"

namespace merge_test {

using gv::test::Result;
using gv::test::Sandbox;
using Json = nlohmann::ordered_json;

namespace {

std::string op(const std::string& id, const std::string& timestamp, const std::string& type,
               const std::string& affected) {
  return R"({"id": ")" + id + R"(", "timestamp": ")" + timestamp + R"(", "type": ")" + type +
         R"(", "affected_memories": )" + affected + "}";
}

std::string log_of(const std::string& ops, int total) {
  return "{\n  \"version\": \"1.0.0\",\n  \"operations\": [" + ops +
         "],\n  \"summary\": {\"total_operations\": " + std::to_string(total) + "}\n}\n";
}

const std::string k_first = op("distill_1", "2026-11-01T00:00:00Z", "purge", R"(["MEM-a"])");

// main with a vault log, an index and recall metadata, hooks and drivers installed, and two
// branches `left` and `right` forked from it.
void prepare(Sandbox& sandbox) {
  sandbox.write(".memory/distill-log.json", log_of(k_first, 1));
  sandbox.write(".memory/memory-index.json", "{\"entries\": []}\n");
  sandbox.write(".memory/20-Indices/index.md", "# Index\n");
  sandbox.write(
      "memory/.recall/metadata.json",
      R"({"tr0000000001": {"last_reviewed_at": "2026-11-01T00:00:00Z", "tier": "working"}})"
      "\n");
  const Result install = sandbox.vault({"hooks", "install"});
  INFO(install.err);
  REQUIRE(install.code == 0);
  sandbox.commit_all("vault");
  REQUIRE(sandbox.git({"branch", "left"}).code == 0);
  REQUIRE(sandbox.git({"branch", "right"}).code == 0);
}

void on_branch(const Sandbox& sandbox, const std::string& branch) {
  REQUIRE(sandbox.git({"checkout", "-q", branch}).code == 0);
}

}  // namespace

TEST_CASE("two branches that each log an action and touch the index merge without conflict",
          "[merge]") {
  Sandbox sandbox;
  prepare(sandbox);

  on_branch(sandbox, "left");
  const std::string left_op =
      op("distill_3", "2026-11-03T00:00:00Z", "merge", R"([{"primary": "MEM-b"}])");
  sandbox.write(".memory/distill-log.json", log_of(k_first + ", " + left_op, 2));
  sandbox.write(".memory/memory-index.json", "{\"entries\": [\"left\"]}\n");
  sandbox.write(".memory/20-Indices/index.md", "# Index\nleft\n");
  sandbox.commit_all("left action");

  on_branch(sandbox, "right");
  const std::string right_op =
      op("distill_2", "2026-11-02T00:00:00Z", "purge", R"(["MEM-c", "MEM-d"])");
  sandbox.write(".memory/distill-log.json", log_of(k_first + ", " + right_op, 2));
  sandbox.write(".memory/memory-index.json", "{\"entries\": [\"right\"]}\n");
  sandbox.write(".memory/20-Indices/index.md", "# Index\nright\n");
  sandbox.commit_all("right action");

  on_branch(sandbox, "left");
  const Result merge = sandbox.git({"merge", "--no-edit", "right"});
  INFO(merge.out << merge.err);
  REQUIRE(merge.code == 0);
  CHECK(sandbox.git({"status", "--porcelain"}).out.empty());

  const Json log = Json::parse(sandbox.read(".memory/distill-log.json"));
  REQUIRE(log["operations"].size() == 3);
  CHECK(log["operations"][0]["id"] == "distill_1");
  CHECK(log["operations"][1]["id"] == "distill_2");
  CHECK(log["operations"][2]["id"] == "distill_3");
  CHECK(log["summary"]["total_operations"] == 3);
  CHECK(log["summary"]["total_purged"] == 3);  // MEM-a, MEM-c, MEM-d
  CHECK(log["summary"]["total_merged"] == 1);
  CHECK(log["summary"]["last_operation"] == "2026-11-03T00:00:00Z");
  // The merge driver keeps ours for the generated files; the post-merge hook then regenerates
  // them into the merge commit it follows.
  CHECK(sandbox.git({"log", "-1", "--format=%s"}).out == "Merge branch 'right' into left\n");
  CHECK(sandbox.git({"show", "HEAD:.memory/memory-index.json"}).out !=
        "{\"entries\": [\"left\"]}\n");
  CHECK(sandbox.git({"show", "HEAD:.memory/20-Indices/index.md"}).out != "# Index\nleft\n");
  CHECK(sandbox.vault({"index", "--check"}).code == 0);
}

TEST_CASE("recall metadata from two branches is united and the later review wins", "[merge]") {
  Sandbox sandbox;
  prepare(sandbox);

  on_branch(sandbox, "left");
  sandbox.write(
      "memory/.recall/metadata.json",
      R"({"tr0000000001": {"last_reviewed_at": "2026-11-20T00:00:00Z", "tier": "register"},
                    "tr0000000002": {"last_reviewed_at": "2026-11-02T00:00:00Z"}})");
  sandbox.commit_all("left review");

  on_branch(sandbox, "right");
  sandbox.write("memory/.recall/metadata.json",
                R"({"tr0000000001": {"last_reviewed_at": "2026-11-10T00:00:00Z", "tier": "archive"},
                    "tr0000000003": {"last_reviewed_at": "2026-11-03T00:00:00Z"}})");
  sandbox.commit_all("right review");

  const Result merge = sandbox.git({"merge", "--no-edit", "left"});
  INFO(merge.out << merge.err);
  REQUIRE(merge.code == 0);
  const auto metadata = nlohmann::json::parse(sandbox.read("memory/.recall/metadata.json"));
  CHECK(metadata.size() == 3);
  CHECK(metadata["tr0000000001"]["tier"] == "register");
  CHECK(metadata.contains("tr0000000002"));
  CHECK(metadata.contains("tr0000000003"));
}

TEST_CASE("a log that is not valid JSON on one side is an ordinary conflict", "[merge]") {
  Sandbox sandbox;
  prepare(sandbox);
  on_branch(sandbox, "left");
  sandbox.write(".memory/distill-log.json", "{ not json\n");
  sandbox.commit_all("broken log");
  on_branch(sandbox, "right");
  sandbox.write(".memory/distill-log.json",
                log_of(k_first + ", " + op("distill_2", "2026-11-02T00:00:00Z", "gc", "[]"), 2));
  sandbox.commit_all("right action");
  const Result merge = sandbox.git({"merge", "--no-edit", "left"});
  CHECK(merge.code == 1);
  CHECK(merge.out.find("CONFLICT") != std::string::npos);
  CHECK(sandbox.git({"diff", "--name-only", "--diff-filter=U"}).out ==
        ".memory/distill-log.json\n");
}

// The branches commit no index files, so after the merge all three are stale and the hook
// regenerates them into the merge commit itself (doc/merges.md).
TEST_CASE("after merging two branches that each add a memory, post-merge fixes the merge commit",
          "[hooks][merge]") {
  Sandbox sandbox;
  const auto memory = [](const std::string& title) {
    return "---\ntitle: " + title + "\ncreated: 2026-11-01\ntags: [PATTERN]\n---\n# " + title +
           "\n\nBody.\n";
  };
  sandbox.write(".memory/10-Memories/MEM-base.md", memory("Base"));
  REQUIRE(sandbox.vault({"hooks", "install"}).code == 0);
  sandbox.commit_all("vault");
  REQUIRE(sandbox.git({"branch", "right"}).code == 0);
  sandbox.write(".memory/10-Memories/MEM-left.md", memory("Left"));
  sandbox.commit_all("left memory");
  on_branch(sandbox, "right");
  sandbox.write(".memory/10-Memories/MEM-right.md", memory("Right"));
  sandbox.commit_all("right memory");
  on_branch(sandbox, "main");

  const Result merge = sandbox.git({"merge", "--no-edit", "right"});
  INFO(merge.err);
  REQUIRE(merge.code == 0);
  CHECK_THAT(merge.err, Catch::Contains("into the merge commit"));
  CHECK(sandbox.git({"log", "-1", "--format=%s"}).out == "Merge branch 'right'\n");
  CHECK(sandbox.git({"log", "-1", "--format=%P"}).out.size() == 2 * 41);  // still two parents
  CHECK(sandbox.git({"rev-list", "--count", "HEAD"}).out == "4\n");       // no extra commit
  CHECK(sandbox.git({"reflog", "-1", "--format=%gs"}).out ==
        "commit (amend): vault(reindex): regenerate index files in the merge commit\n");
  const std::string index = sandbox.git({"show", "HEAD:.memory/memory-index.json"}).out;
  CHECK(index.find("MEM-left") != std::string::npos);
  CHECK(index.find("MEM-right") != std::string::npos);
  CHECK(sandbox.git({"status", "--porcelain"}).out.empty());
  CHECK(sandbox.vault({"check", "--range", "HEAD"}).code == 0);
}

TEST_CASE("a merge that brings an edit into a memory the other side tombstoned says so",
          "[hooks][merge]") {
  Sandbox sandbox;
  const std::string memory =
      "---\ntitle: Pins\ncreated: 2026-01-01\ntags: [PATTERN]\ntopic: \"ci/pins\"\n"
      "retrieval_count: 0\nlast_retrieved: null\nkeywords: [pins]\n---\n# Pins\n\nPin the "
      "toolchain.\n";
  sandbox.write(".memory/10-Memories/MEM-pins.md", memory);
  sandbox.write(".memory/10-Memories/MEM-other.md",
                "---\ntitle: Other\ncreated: 2026-11-01\ntags: [INSIGHT]\n---\n# Other\n\nBody.\n");
  REQUIRE(sandbox.vault({"hooks", "install"}).code == 0);
  REQUIRE(sandbox.vault({"index"}).code == 0);
  sandbox.commit_all("vault");
  REQUIRE(sandbox.git({"branch", "edit"}).code == 0);

  // main tombstones it; the branch adds a line to its text.
  const Result purge = sandbox.vault({"distill", "--purge", "--select", "MEM-pins"});
  INFO(purge.out << purge.err);
  REQUIRE(purge.code == 0);
  on_branch(sandbox, "edit");
  sandbox.write(".memory/10-Memories/MEM-pins.md", memory + "\nAlso pin cargo-nextest.\n");
  REQUIRE(sandbox.vault({"index"}).code == 0);
  sandbox.commit_all("extend the pins");
  on_branch(sandbox, "main");

  const Result merge = sandbox.git({"merge", "--no-edit", "edit"});
  INFO(merge.err);
  REQUIRE(merge.code == 0);
  CHECK_THAT(merge.err, Catch::Contains(".memory/10-Memories/MEM-pins.md: tombstoned on one side "
                                        "of the merge and edited on the other (theirs)") &&
                            Catch::Contains("set `status: active` in its frontmatter"));
  const std::string merged = sandbox.read(".memory/10-Memories/MEM-pins.md");
  CHECK_THAT(merged,
             Catch::Contains("status: tombstoned") && Catch::Contains("Also pin cargo-nextest."));

  // A merge where nobody edited a tombstoned memory says nothing of the kind.
  REQUIRE(sandbox.git({"checkout", "-q", "-b", "quiet", "HEAD~1"}).code == 0);
  sandbox.write("notes.txt", "unrelated\n");
  sandbox.commit_all("notes");
  on_branch(sandbox, "main");
  const Result quiet = sandbox.git({"merge", "--no-edit", "quiet"});
  REQUIRE(quiet.code == 0);
  CHECK_FALSE(Catch::Contains("tombstoned on one side").match(quiet.err));
}

}  // namespace merge_test
