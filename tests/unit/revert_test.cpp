#include "core/distill/revert.hpp"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "core/distill/log.hpp"
#include "core/distill/log_resolve.hpp"

namespace revert_test {

using gv::distill::PathChange;

TEST_CASE("diff_trees lists added, removed and changed paths in path order", "[revert]") {
  const std::map<std::string, std::string> parent{{"a", "1"}, {"b", "2"}, {"c", "3"}};
  const std::map<std::string, std::string> commit{{"b", "2"}, {"c", "9"}, {"d", "4"}};
  const std::vector<PathChange> expected{
      {"a", "1", std::nullopt}, {"c", "3", "9"}, {"d", std::nullopt, "4"}};
  CHECK(gv::distill::diff_trees(parent, commit) == expected);
  CHECK(gv::distill::diff_trees(parent, parent).empty());
}

TEST_CASE("only distill actions can be reverted by git vault revert", "[revert]") {
  for (const char* action :
       {"purge", "gc", "merge", "compress", "refine", "auto", "report", "revert"}) {
    INFO(action);
    CHECK(gv::distill::revertible_action(action));
  }
  for (const char* action : {"recall-maintain", "reindex", "", "PURGE"}) {
    INFO(action);
    CHECK_FALSE(gv::distill::revertible_action(action));
  }
}

TEST_CASE("a revert rebuilds indexes, the log and state.json instead of restoring them",
          "[revert]") {
  for (const char* rebuilt :
       {".memory/memory-index.json", ".memory/20-Indices/index.md", ".memory/10-Memories/README.md",
        ".memory/distill-log.json", "specs/state.json"}) {
    INFO(rebuilt);
    CHECK(gv::distill::rebuilt_on_revert(rebuilt));
  }
  CHECK_FALSE(gv::distill::rebuilt_on_revert(".memory/10-Memories/MEM-a.md"));
  CHECK_FALSE(gv::distill::rebuilt_on_revert("CLAUDE.local.md"));
  const std::vector<PathChange> changes{{".memory/10-Memories/MEM-a.md", "1", std::nullopt},
                                        {".memory/distill-log.json", "2", "3"},
                                        {"specs/state.json", std::nullopt, "4"}};
  const std::vector<PathChange> restore{{".memory/10-Memories/MEM-a.md", "1", std::nullopt}};
  CHECK(gv::distill::paths_to_restore(changes) == restore);
}

TEST_CASE("a path changed again after the action is a revert conflict", "[revert]") {
  const std::vector<PathChange> restore{{"m/a", "1", "2"},            // unchanged since: "2"
                                        {"m/b", "1", "3"},            // edited later: "5"
                                        {"m/c", "1", std::nullopt},   // deleted, still absent
                                        {"m/d", "1", std::nullopt}};  // deleted, re-created
  const std::map<std::string, std::string> head{{"m/a", "2"}, {"m/b", "5"}, {"m/d", "7"}};
  CHECK(gv::distill::changed_since(restore, head) == std::vector<std::string>{"m/b", "m/d"});
}

TEST_CASE("the revert draft restores bytes verbatim and names what it reverts", "[revert]") {
  gv::distill::RevertRequest request;
  request.commit = "0123456789abcdef0123456789abcdef01234567";
  request.subject = "vault(gc): delete MEM-a";
  request.log_id = "distill_100";
  request.restored = {{".memory/10-Memories/MEM-a.md", "---\ntitle: a\n---\n"},
                      {".memory/10-Memories/MEM-new.md", std::nullopt}};
  const gv::distill::ActionDraft draft = gv::distill::revert_draft(request);
  CHECK(draft.type == "revert");
  CHECK(draft.verbatim);
  CHECK(draft.changed_memories);
  CHECK(draft.plan.subject == "vault(revert): vault(gc): delete MEM-a");
  CHECK(draft.plan.body == "This reverts commit 0123456789abcdef0123456789abcdef01234567.");
  CHECK(draft.plan.changes.at(".memory/10-Memories/MEM-a.md") == "---\ntitle: a\n---\n");
  CHECK_FALSE(draft.plan.changes.at(".memory/10-Memories/MEM-new.md"));
  CHECK(draft.plan.memories == std::vector<std::string>{"MEM-a", "MEM-new"});
  CHECK(draft.affected_memories.dump() == R"(["MEM-a","MEM-new"])");
  CHECK(
      draft.extra.dump() ==
      R"({"reverts":"distill_100","reverted_commit":"0123456789abcdef0123456789abcdef01234567"})");
  // MEM-new had been created by the run undone: the revert removes it, and says so.
  CHECK(draft.notes ==
        "Reverted distill_100 (0123456789ab): restored 1 memory file, removed 1 memory file it "
        "had created");

  request.log_id.reset();
  CHECK(gv::distill::revert_draft(request).extra["reverts"].is_null());

  // One file of each kind is counted in the singular.
  request.restored = {{".memory/10-Memories/MEM-a.md", "---\ntitle: a\n---\n"},
                      {".memory/memory-index.json", "{}\n"}};
  CHECK(gv::distill::revert_draft(request).notes ==
        "Reverted 0123456789ab: restored 1 memory file and 1 other file");

  // Only files removed (the revert of a revert of a gc): no "restored 0".
  request.restored = {{".memory/10-Memories/MEM-a.md", std::nullopt},
                      {".memory/10-Memories/MEM-b.md", std::nullopt}};
  CHECK(gv::distill::revert_draft(request).notes ==
        "Reverted 0123456789ab: removed 2 memory files it had created");
}

TEST_CASE("a revert puts back the sub-mode cursors the undone run moved", "[revert][state]") {
  using gv::distill::CursorRestore;
  const std::string before =
      R"({"memory_health": {"last_distilled": "A", "last_dream": "D1", "dream_count": 4}})";
  const std::string after =
      R"({"memory_health": {"last_distilled": "B", "last_dream": "D2", "dream_count": 5,)"
      R"( "last_revise": "R1", "revise_count": 1}})";

  SECTION("cursors still where the run left them go back, absent ones are removed") {
    const auto cursors = gv::distill::cursors_on_revert(before, after, after);
    CHECK(cursors.restore ==
          std::vector<CursorRestore>{{"dream", "D1", 4}, {"revise", std::nullopt, std::nullopt}});
    CHECK(cursors.moved_on.empty());
  }
  SECTION("a cursor a later run moved stays, and is named") {
    const std::string now =
        R"({"memory_health": {"last_dream": "D3", "dream_count": 6, "last_revise": "R1",)"
        R"( "revise_count": 1}})";
    const auto cursors = gv::distill::cursors_on_revert(before, after, now);
    CHECK(cursors.restore == std::vector<CursorRestore>{{"revise", std::nullopt, std::nullopt}});
    CHECK(cursors.moved_on == std::vector<std::string>{"dream"});
    // A later run in the same second leaves the same time, but one more run counted.
    const std::string same_second =
        R"({"memory_health": {"last_dream": "D2", "dream_count": 6, "last_revise": "R1",)"
        R"( "revise_count": 1}})";
    CHECK(gv::distill::cursors_on_revert(before, after, same_second).moved_on ==
          std::vector<std::string>{"dream"});
  }
  SECTION("a run that moved no cursor, or state files that are missing or broken, restore none") {
    CHECK(gv::distill::cursors_on_revert(after, after, after).restore.empty());
    CHECK(gv::distill::cursors_on_revert(before, std::nullopt, before).restore.empty());
    const auto broken = gv::distill::cursors_on_revert("{not json", after, after);
    CHECK(broken.restore.size() == 2);  // nothing before: both go back to absent
  }
  SECTION("the refreshed state writes them back and the draft says so") {
    gv::distill::HealthRefresh refresh;
    refresh.status = "healthy";
    refresh.restore = gv::distill::cursors_on_revert(before, after, after).restore;
    const auto doc = nlohmann::json::parse(gv::distill::refresh_memory_health(after, refresh));
    CHECK(doc["memory_health"]["last_dream"] == "D1");
    CHECK(doc["memory_health"]["dream_count"] == 4);
    CHECK_FALSE(doc["memory_health"].contains("last_revise"));
    CHECK_FALSE(doc["memory_health"].contains("revise_count"));

    gv::distill::RevertRequest request;
    request.commit = "0123456789abcdef0123456789abcdef01234567";
    request.restored = {{".memory/dream-log.json", std::nullopt}};
    request.cursors.restore = refresh.restore;
    request.cursors.moved_on = {"meta"};
    const gv::distill::ActionDraft draft = gv::distill::revert_draft(request);
    CHECK(draft.restore_cursors == refresh.restore);
    CHECK(draft.notes ==
          "Reverted 0123456789ab: restored 0 memory files and 1 other file; the dream cursor put "
          "back to D1; the revise cursor put back to before any run; the meta cursor left as it "
          "is (a later run moved it)");
  }
}

namespace {

gv::distill::DistillLog log_of(const std::string& text) {
  return gv::distill::DistillLog::parse("log.json", text);
}

}  // namespace

TEST_CASE("log entries resolve through their trailer and verify against parent_commit",
          "[revert][log]") {
  const auto log = log_of(R"({"operations": [
      {"id": "distill_1", "type": "purge", "parent_commit": "p1", "commit": "c1"},
      {"id": "distill_2", "type": "gc", "parent_commit": "c1", "commit": null},
      {"id": "distill_3", "type": "gc", "parent_commit": "x", "commit": "old"},
      {"id": "distill_4", "type": "report"},
      {"id": "distill_5", "type": "merge", "parent_commit": "c2", "commit": "zz"}]})");
  const std::map<std::string, std::vector<std::string>> trailers{
      {"distill_1", {"c1"}}, {"distill_2", {"c2"}}, {"distill_5", {"c5", "c5b"}}};
  const std::map<std::string, std::string> parents{{"c1", "p1"}, {"c2", "c1"}, {"c5", "c2"}};
  const auto resolved = gv::distill::resolve_log(
      log.operations(), trailers, [&](const std::string& commit) -> std::optional<std::string> {
        const auto it = parents.find(commit);
        return it == parents.end() ? std::nullopt : std::optional<std::string>(it->second);
      });
  REQUIRE(resolved.size() == 5);
  CHECK(resolved[0].commit == "c1");
  CHECK(resolved[0].problems.empty());
  CHECK(resolved[1].commit == "c2");
  CHECK(resolved[1].problems.empty());
  CHECK_FALSE(resolved[2].commit);
  CHECK(resolved[2].problems ==
        std::vector<std::string>{
            "its commit old is not in the history of HEAD (squashed, rebased or reset away?)"});
  CHECK(resolved[3].legacy);
  CHECK(resolved[3].problems.empty());
  CHECK(resolved[4].commit == "c5");
  CHECK(resolved[4].problems ==
        std::vector<std::string>{
            "2 commits carry its Vault-Log-Id (cherry-picked, or two branches acted in the same "
            "second); `git vault revert` needs the commit named",
            "the log records commit zz but the trailer is on c5"});
}

TEST_CASE("a trailer commit with another parent than parent_commit is reported", "[revert][log]") {
  const auto log = log_of(R"({"operations": [{"id": "distill_1", "type": "purge",
                                              "parent_commit": null, "commit": null}]})");
  const auto resolved = gv::distill::resolve_log(
      log.operations(), {{"distill_1", {"c1"}}},
      [](const std::string&) -> std::optional<std::string> { return "p0"; });
  REQUIRE(resolved.size() == 1);
  CHECK(resolved[0].problems ==
        std::vector<std::string>{
            "commit c1 has parent p0 but the log records parent_commit null (rebased?)"});
}

}  // namespace revert_test
