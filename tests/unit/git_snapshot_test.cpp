#include <catch2/catch.hpp>

#include "core/error.hpp"
#include "core/git/repo.hpp"
#include "core/snapshot/index_snapshot.hpp"
#include "core/snapshot/tree_snapshot.hpp"
#include "tests/unit/git_test_repo.hpp"

namespace git_snapshot_test {

using gv::IndexSnapshot;
using gv::TreeSnapshot;
using gv::git::hash_blob;
using gv::git::Repo;
using gv::test::TestRepo;

namespace {

std::vector<std::string> paths_of(const std::vector<gv::SnapshotEntry>& entries) {
  std::vector<std::string> out;
  for (const auto& entry : entries) {
    out.push_back(entry.path);
  }
  return out;
}

}  // namespace

TEST_CASE("index and tree snapshots see the staged and the committed bytes", "[git][snapshot]") {
  const TestRepo fixture;
  fixture.write(".memory/10-Memories/MEM-1.md", "committed\n");
  const std::string first = fixture.commit_all("base");
  fixture.write(".memory/10-Memories/MEM-1.md", "staged\n");
  fixture.stage(".memory/10-Memories/MEM-1.md");
  fixture.write(".memory/10-Memories/MEM-1.md", "only on disk\n");

  const Repo repo = Repo::discover(fixture.root());
  const IndexSnapshot index(repo);
  const TreeSnapshot head(repo, "HEAD");

  CHECK(index.read(".memory/10-Memories/MEM-1.md") == "staged\n");
  CHECK(head.read(".memory/10-Memories/MEM-1.md") == "committed\n");
  const auto staged = index.list(".memory/");
  REQUIRE(staged.size() == 1);
  CHECK(staged[0].oid == hash_blob("staged\n"));
  const auto committed = head.list(".memory/");
  REQUIRE(committed.size() == 1);
  CHECK(committed[0].oid == hash_blob("committed\n"));

  CHECK(index.describe() == "index");
  CHECK(head.describe() == first.substr(0, 12));
  CHECK(head.commit() == first);
  CHECK_FALSE(index.read("missing.md").has_value());
  CHECK_FALSE(head.read("missing.md").has_value());
  CHECK_FALSE(head.read(".memory").has_value());  // a folder is not a file
}

TEST_CASE("listing keeps to the prefix and sorts by path bytes", "[git][snapshot]") {
  const TestRepo fixture;
  fixture.write(".memory/10-Memories/MEM-2.md", "2\n");
  fixture.write(".memory/10-Memories/MEM-1.md", "1\n");
  fixture.write(".memory/10-Memories/sub/MEM-3.md", "3\n");
  fixture.write(".memory/10-Memories.md", "sibling file\n");
  fixture.write(".memory/index.md", "index\n");
  fixture.write(".memoryx/zzz.md", "other folder\n");
  fixture.write("memory/registers/decisions.md", "- d\n");
  fixture.write("memory/archive/old.md", "- o\n");
  fixture.write("a.b", "dot\n");
  fixture.write("a/c", "slash\n");
  fixture.commit_all("base");

  const Repo repo = Repo::discover(fixture.root());
  const IndexSnapshot index(repo);
  const TreeSnapshot head(repo, "HEAD");
  for (const gv::Snapshot* snapshot :
       {static_cast<const gv::Snapshot*>(&index), static_cast<const gv::Snapshot*>(&head)}) {
    INFO(snapshot->describe());
    CHECK(paths_of(snapshot->list(".memory/10-Memories/")) ==
          std::vector<std::string>{".memory/10-Memories/MEM-1.md", ".memory/10-Memories/MEM-2.md",
                                   ".memory/10-Memories/sub/MEM-3.md"});
    CHECK(paths_of(snapshot->list("memory/reg")) ==
          std::vector<std::string>{"memory/registers/decisions.md"});
    CHECK(paths_of(snapshot->list("a")) == std::vector<std::string>{"a.b", "a/c"});
    CHECK(snapshot->list("nothing/here/").empty());
    CHECK(snapshot->list("a.b/").empty());  // a file is not a folder
    CHECK(snapshot->list("").size() == 10);
    CHECK(snapshot->read("memory/archive/old.md") == "- o\n");
  }
}

TEST_CASE("symlinks are not files in any snapshot", "[git][snapshot]") {
  const TestRepo fixture;
  fixture.write("memory/real.md", "real\n");
  std::filesystem::create_symlink("real.md", fixture.root() / "memory" / "link.md");
  fixture.commit_all("base");
  const Repo repo = Repo::discover(fixture.root());
  const IndexSnapshot index(repo);
  const TreeSnapshot head(repo, "HEAD");
  CHECK(paths_of(index.list("memory/")) == std::vector<std::string>{"memory/real.md"});
  CHECK(paths_of(head.list("memory/")) == std::vector<std::string>{"memory/real.md"});
  CHECK_FALSE(index.read("memory/link.md").has_value());
  CHECK_FALSE(head.read("memory/link.md").has_value());
}

TEST_CASE("a tree snapshot of an older commit reads that commit", "[git][snapshot]") {
  const TestRepo fixture;
  fixture.write("f.md", "old\n");
  const std::string old_id = fixture.commit_all("old");
  fixture.write("f.md", "new\n");
  fixture.write("g.md", "added\n");
  fixture.commit_all("new");
  const Repo repo = Repo::discover(fixture.root());
  const TreeSnapshot old_tree(repo, old_id);
  CHECK(old_tree.read("f.md") == "old\n");
  CHECK(paths_of(old_tree.list("")) == std::vector<std::string>{"f.md"});
  CHECK(TreeSnapshot(repo, "HEAD~1").commit() == old_id);
  CHECK_THROWS_AS(TreeSnapshot(repo, "no-such-rev"), gv::Error);
}

TEST_CASE("the tree diff names the files that differ under a prefix, with both ids",
          "[git][snapshot]") {
  const TestRepo fixture;
  fixture.write(".memory/10-Memories/MEM-keep.md", "same\n");
  fixture.write(".memory/10-Memories/MEM-edit.md", "before\n");
  fixture.write(".memory/10-Memories/MEM-gone.md", "gone\n");
  fixture.write(".memory/memory-index.json", "{}\n");
  fixture.write("notes/outside.md", "before\n");
  const std::string base = fixture.commit_all("base");
  fixture.write(".memory/10-Memories/MEM-edit.md", "after\n");
  std::filesystem::remove(fixture.root() / ".memory/10-Memories/MEM-gone.md");
  fixture.write(".memory/10-Memories/MEM-new.md", "new\n");
  fixture.write(".memory/memory-index.json", "{\"x\": 1}\n");
  fixture.write("notes/outside.md", "after\n");
  const std::string head = fixture.commit_all("head");

  const Repo repo = Repo::discover(fixture.root());
  const TreeSnapshot before(repo, base);
  const TreeSnapshot after(repo, head);
  const std::vector<gv::git::TreeChange> changes =
      repo.diff_trees(before.tree(), after.tree(), ".memory/10-Memories/");
  REQUIRE(changes.size() == 3);
  CHECK(changes[0].path == ".memory/10-Memories/MEM-edit.md");
  CHECK(changes[0].old_oid == hash_blob("before\n"));
  CHECK(changes[0].new_oid == hash_blob("after\n"));
  CHECK(changes[1].path == ".memory/10-Memories/MEM-gone.md");
  CHECK(changes[1].old_oid == hash_blob("gone\n"));
  CHECK_FALSE(changes[1].new_oid.has_value());
  CHECK(changes[2].path == ".memory/10-Memories/MEM-new.md");
  CHECK_FALSE(changes[2].old_oid.has_value());
  CHECK(changes[2].new_oid == hash_blob("new\n"));
  CHECK(repo.diff_trees(after.tree(), after.tree(), ".memory/").empty());
}

TEST_CASE("a tree snapshot reads every file of a large folder by path", "[git][snapshot]") {
  // Each read looks the path up in the folder's tree; with trees kept in libgit2's cache that is
  // a binary search, not a fresh inflate of the whole folder.
  const TestRepo fixture;
  for (int i = 0; i < 300; ++i) {
    fixture.write(".memory/10-Memories/MEM-" + std::to_string(i) + ".md", std::to_string(i));
  }
  fixture.commit_all("many");
  const Repo repo = Repo::discover(fixture.root());
  const TreeSnapshot head(repo, "HEAD");
  const auto entries = head.list(".memory/10-Memories/");
  REQUIRE(entries.size() == 300);
  for (const gv::SnapshotEntry& entry : entries) {
    const std::optional<std::string> bytes = head.read(entry.path);
    REQUIRE(bytes);
    CHECK(hash_blob(*bytes) == entry.oid);
  }
}

}  // namespace git_snapshot_test
