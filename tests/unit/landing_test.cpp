#include <catch2/catch.hpp>

#include "core/error.hpp"
#include "core/git/repo.hpp"
#include "core/hooks/reindex.hpp"
#include "core/landing/land.hpp"
#include "core/snapshot/worktree_snapshot.hpp"
#include "core/vault/index_files.hpp"
#include "tests/unit/gate_test_snapshot.hpp"
#include "tests/unit/git_test_repo.hpp"
#include "tests/unit/index_test_fixtures.hpp"

namespace landing_test {

using gv::Plan;
using gv::git::Repo;
using gv::test::MapSnapshot;
using gv::test::TestRepo;
namespace landing = gv::landing;

namespace {

const std::string k_beta = ".memory/10-Memories/MEM-beta.md";

// One memory whose frontmatter counts 2 retrievals, under an index (as the original scripts
// kept it) that counts 42.
MapSnapshot counted_only_in_index() {
  MapSnapshot snapshot(
      std::map<std::string, std::string>{{k_beta, gv::test::note("Beta", "retrieval_count: 2\n")}});
  gv::test::regenerate(snapshot);
  std::string index = *snapshot.read(".memory/memory-index.json");
  const std::string from = "\"retrieval_count\": 2";
  const auto at = index.find(from);
  REQUIRE(at != std::string::npos);
  index.replace(at, from.size(), "\"retrieval_count\": 42");
  snapshot.set(".memory/memory-index.json", index);
  return snapshot;
}

landing::Context context_for(gv::Date today) {
  landing::Context context;
  context.clock.today = today;
  return context;
}

}  // namespace

TEST_CASE("a plan draft is built as it is, with nothing regenerated", "[landing]") {
  const MapSnapshot before = counted_only_in_index();
  Plan plan;
  plan.subject = "vault(test): one file";
  plan.write("CLAUDE.local.md", "# Working memory\n");
  const landing::Built built =
      landing::build(plan, before, context_for(gv::test::ymd(2026, 11, 30)));
  CHECK(built.plan.changes == plan.changes);
  CHECK(built.plan.subject == plan.subject);
  CHECK(built.regenerated.empty());
  CHECK(built.carried.empty());
  CHECK(built.log_id.empty());
}

TEST_CASE("an index regeneration carries the old index's retrieval count into frontmatter",
          "[landing]") {
  const MapSnapshot before = counted_only_in_index();
  const landing::Built built = landing::build(landing::IndexRegeneration{}, before,
                                              context_for(gv::test::ymd(2026, 11, 30)));
  CHECK(built.carried == std::vector<std::string>{"MEM-beta"});
  REQUIRE(built.plan.changes.count(k_beta) == 1);
  CHECK_THAT(*built.plan.changes.at(k_beta), Catch::Contains("\nretrieval_count: 42\n"));
  // The index already says 42, so only the memory file changes.
  CHECK(built.regenerated.empty());
  CHECK(built.plan.changes.size() == 1);
}

TEST_CASE("the post-merge reindex is built by the same regeneration as `git vault index`",
          "[landing][hooks]") {
  const MapSnapshot merged = counted_only_in_index();
  const auto today = gv::test::ymd(2026, 11, 30);
  const auto reindex = gv::hooks::build_reindex(merged, today, nullptr);
  REQUIRE(reindex);
  const landing::Built index =
      landing::build(landing::IndexRegeneration{}, merged, context_for(today));
  CHECK(reindex->plan.changes == index.plan.changes);
  CHECK(reindex->carried == index.carried);
  CHECK(reindex->plan.subject == "vault(reindex): regenerate index files after merge");
  CHECK_THAT(reindex->plan.message(), Catch::Contains("carried into frontmatter:\n  MEM-beta\n"));
}

TEST_CASE("landing an empty plan changes nothing, even when guarded paths are dirty", "[landing]") {
  const TestRepo fixture;
  fixture.write(".memory/10-Memories/MEM-1.md", "one\n");
  const std::string head = fixture.commit_all("base");
  fixture.write(".memory/10-Memories/MEM-1.md", "edited\n");
  Repo repo = Repo::discover(fixture.root());
  landing::Target target;
  target.guarded_paths = {".memory/"};
  const landing::Landed landed = landing::apply(repo, landing::Built{}, target);
  CHECK_FALSE(landed.commit);
  CHECK(landed.work_tree_only.empty());
  CHECK(fixture.head() == head);
}

TEST_CASE("paths git ignores and does not track land in the work tree, the rest as one commit",
          "[landing]") {
  const TestRepo fixture;
  fixture.write(".gitignore", "memory/.recall/\n");
  fixture.write("CLAUDE.local.md", "# Working memory\n");
  const std::string base = fixture.commit_all("base");
  Repo repo = Repo::discover(fixture.root());
  landing::Built built;
  built.plan.subject = "vault(recall-maintain): test";
  built.plan.write("CLAUDE.local.md", "# Working memory\n- entry ^tr0000000001\n");
  built.plan.write("memory/.recall/metadata.json", "{}\n");
  landing::Target target;
  target.guarded_paths = {"CLAUDE.local.md", "memory/"};
  target.ignored_to_work_tree = true;

  SECTION("the commit holds the tracked path only") {
    const landing::Landed landed = landing::apply(repo, built, target);
    REQUIRE(landed.commit);
    CHECK(fixture.head() == landed.commit);
    CHECK(landed.work_tree_only == std::vector<std::string>{"memory/.recall/metadata.json"});
    CHECK(fixture.read("memory/.recall/metadata.json") == "{}\n");
    CHECK(fixture.read("CLAUDE.local.md") == "# Working memory\n- entry ^tr0000000001\n");
    for (const auto& [path, oid] : fixture.head_files()) {
      CHECK(path != "memory/.recall/metadata.json");
    }
  }
  SECTION("without ignored_to_work_tree the commit takes every path") {
    target.ignored_to_work_tree = false;
    const landing::Landed landed = landing::apply(repo, built, target);
    REQUIRE(landed.commit);
    CHECK(landed.work_tree_only.empty());
    bool committed = false;
    for (const auto& [path, oid] : fixture.head_files()) {
      committed = committed || path == "memory/.recall/metadata.json";
    }
    CHECK(committed);
  }
  SECTION("when the commit fails, the ignored files written before it are put back") {
    fixture.write("memory/.recall/metadata.json", "{\"old\": true}\n");
    // A folder where the plan writes a file: the commit fails before the branch moves.
    std::filesystem::create_directories(fixture.root() / "notes" / "x.md");
    built.plan.write("notes/x.md", "text\n");
    CHECK_THROWS_AS(landing::apply(repo, built, target), gv::Error);
    CHECK(fixture.head() == base);
    CHECK(fixture.read("memory/.recall/metadata.json") == "{\"old\": true}\n");
    CHECK(fixture.read("CLAUDE.local.md") == "# Working memory\n");
  }
}

TEST_CASE("landing a distill action records HEAD as its parent commit", "[landing]") {
  const TestRepo fixture;
  fixture.write(".memory/10-Memories/MEM-1.md", gv::test::note("One"));
  const std::string head = fixture.commit_all("base");
  Repo repo = Repo::discover(fixture.root());
  const gv::WorktreeSnapshot before(repo.workdir());
  gv::distill::ActionDraft draft;
  draft.type = "report";
  draft.plan.subject = "vault(report): health";
  landing::Target target;
  target.guarded_paths = landing::k_action_guarded_paths;
  const landing::Landed landed = landing::land(repo, before, std::move(draft),
                                               context_for(gv::test::ymd(2026, 11, 30)), target);
  REQUIRE(landed.commit);
  CHECK_FALSE(landed.log_id.empty());
  CHECK(landed.plan.log_id == landed.log_id);
  CHECK_THAT(fixture.read(".memory/distill-log.json"),
             Catch::Contains("\"parent_commit\": \"" + head + "\""));
  CHECK(landed.regenerated.size() == 3);
}

}  // namespace landing_test
