#include <catch2/catch.hpp>

#include "core/error.hpp"
#include "core/git/repo.hpp"
#include "tests/unit/git_test_repo.hpp"

namespace git_repo_test {

using gv::git::Repo;
using gv::test::EnvGuard;
using gv::test::TestRepo;

TEST_CASE("discover finds the repository from a subfolder", "[git]") {
  const TestRepo fixture;
  fixture.write("docs/deep/a.md", "a\n");
  const Repo repo = Repo::discover(fixture.root() / "docs" / "deep");
  CHECK(repo.workdir() == fixture.root());
  CHECK(repo.git_dir() == fixture.root() / ".git");
  CHECK(repo.common_dir() == fixture.root() / ".git");
  CHECK_FALSE(repo.is_bare());
}

TEST_CASE("discover outside any repository is an error naming the folder", "[git]") {
  const TestRepo fixture;
  const auto outside = fixture.root() / "outside";
  std::filesystem::create_directories(outside);
  std::filesystem::remove_all(fixture.root() / ".git");
  const EnvGuard ceiling("GIT_CEILING_DIRECTORIES", fixture.root().parent_path().string());
  CHECK_THROWS_WITH(Repo::discover(outside), Catch::Contains("not a git repository"));
}

TEST_CASE("an unborn branch has no head commit, tree or trailer history", "[git]") {
  const TestRepo fixture;
  const Repo repo = Repo::discover(fixture.root());
  CHECK_FALSE(repo.head_commit().has_value());
  CHECK_FALSE(repo.head_tree().has_value());
  CHECK(repo.trailer_index("Vault-Log-Id").empty());
  CHECK(repo.commits_with_trailer("Vault-Log-Id", "x").empty());
  CHECK_FALSE(repo.resolve_commit("HEAD").has_value());
}

TEST_CASE("blob hashing gives git's ids and blobs read back", "[git]") {
  CHECK(gv::git::hash_blob("") == "e69de29bb2d1d6434b8b29ae775ad8c2e48c5391");
  CHECK(gv::git::hash_blob("hello\n") == "ce013625030ba8dba906f756967f9e9ca394464a");
  const TestRepo fixture;
  fixture.write("hello.txt", "hello\n");
  fixture.commit_all("first");
  const Repo repo = Repo::discover(fixture.root());
  CHECK(repo.read_blob("ce013625030ba8dba906f756967f9e9ca394464a") == "hello\n");
  CHECK_FALSE(repo.read_blob("0123456789012345678901234567890123456789").has_value());
  CHECK_THROWS_AS(repo.read_blob("not-hex"), gv::Error);
}

TEST_CASE("a range lists its commits oldest first", "[git]") {
  const TestRepo fixture;
  std::vector<std::string> ids;
  for (int i = 0; i < 4; ++i) {
    fixture.write("f.txt", std::to_string(i));
    ids.push_back(fixture.commit_all("c" + std::to_string(i)));
  }
  const Repo repo = Repo::discover(fixture.root());
  CHECK(repo.resolve_range(ids[0] + ".." + ids[3]) ==
        std::vector<std::string>{ids[1], ids[2], ids[3]});
  CHECK(repo.resolve_range(ids[1] + "..") == std::vector<std::string>{ids[2], ids[3]});
  CHECK(repo.resolve_range("HEAD~1..HEAD") == std::vector<std::string>{ids[3]});
  CHECK(repo.resolve_range(ids[3] + ".." + ids[3]).empty());
  CHECK(repo.resolve_range(ids[2]) == std::vector<std::string>{ids[2]});
  CHECK_THROWS_AS(repo.resolve_range(ids[0] + "..." + ids[3]), gv::UsageError);
  CHECK_THROWS_AS(repo.resolve_range("nosuchbranch..HEAD"), gv::Error);
  CHECK(repo.head_commit() == ids[3]);
}

TEST_CASE("commit info carries the message, parents and trailers", "[git]") {
  const TestRepo fixture;
  fixture.write("a", "1");
  const std::string first = fixture.commit_all("first");
  fixture.write("a", "2");
  const std::string second = fixture.commit_all(
      "vault(purge): drop 2 memories\n\nBody text.\n\nVault-Action: purge\nVault-Log-Id: "
      "dl-0001\n");
  fixture.write("a", "3");
  const std::string third =
      fixture.commit_all("vault(gc): tidy\n\nVault-Action: gc\nVault-Log-Id: dl-0002\n");
  fixture.write("a", "4");
  // The id in prose, not in a trailer, must not count.
  fixture.commit_all("mention dl-0001 in passing\n\nSee dl-0001 for details.\n");

  const Repo repo = Repo::discover(fixture.root());
  const gv::git::CommitInfo info = repo.commit_info(second);
  CHECK(info.id == second);
  CHECK(info.parents == std::vector<std::string>{first});
  CHECK(info.summary == "vault(purge): drop 2 memories");
  CHECK(info.author_name == "Fixture");
  CHECK(info.trailers ==
        std::vector<gv::Trailer>{{"Vault-Action", "purge"}, {"Vault-Log-Id", "dl-0001"}});

  const auto found = repo.commits_with_trailer("Vault-Log-Id", "dl-0001");
  REQUIRE(found.size() == 1);
  CHECK(found[0].id == second);
  CHECK(repo.commits_with_trailer("vault-log-id", "dl-0002").at(0).id == third);
  CHECK(repo.commits_with_trailer("Vault-Log-Id", "dl-9999").empty());

  const auto index = repo.trailer_index("Vault-Log-Id");
  CHECK(index.size() == 2);
  CHECK(index.at("dl-0001") == std::vector<std::string>{second});
  CHECK(index.at("dl-0002") == std::vector<std::string>{third});
  CHECK_THROWS_AS(repo.commit_info("nosuchrev"), gv::Error);
}

TEST_CASE("config values are written to the repository and read back", "[git]") {
  const TestRepo fixture;
  Repo repo = Repo::discover(fixture.root());
  CHECK_FALSE(repo.config_string("vault.summarizer").has_value());
  repo.set_config_string("vault.summarizer", "claude -p");
  CHECK(repo.config_string("vault.summarizer") == "claude -p");
  CHECK(repo.config_string("user.name") == "Config User");
  // It is in .git/config, so a fresh Repo sees it too.
  CHECK(Repo::discover(fixture.root()).config_string("vault.summarizer") == "claude -p");
}

TEST_CASE("dirty paths cover work tree, index and untracked files under the given paths", "[git]") {
  const TestRepo fixture;
  fixture.write(".memory/10-Memories/MEM-1.md", "one\n");
  fixture.write(".memory/index.md", "index\n");
  fixture.write("specs/state.json", "{}\n");
  fixture.write("memoryx.md", "not in memory/\n");
  fixture.write("src/main.cpp", "int main() {}\n");
  fixture.commit_all("base");
  const std::vector<std::string> guarded{".memory/", "specs/state.json", "memory/"};
  const Repo repo = Repo::discover(fixture.root());
  CHECK(repo.dirty_paths(guarded).empty());

  fixture.write(".memory/10-Memories/MEM-1.md", "edited\n");  // work tree only
  fixture.write("specs/state.json", "{\"a\":1}\n");
  fixture.stage("specs/state.json");                  // staged
  fixture.write("memory/registers/new.md", "- x\n");  // untracked, in a new folder
  fixture.write("memoryx.md", "changed, but outside\n");
  fixture.write("src/main.cpp", "changed, but outside\n");
  CHECK(repo.dirty_paths(guarded) == std::vector<std::string>{".memory/10-Memories/MEM-1.md",
                                                              "memory/registers/new.md",
                                                              "specs/state.json"});
}

TEST_CASE("opening from the hook environment reads GIT_INDEX_FILE", "[git]") {
  const TestRepo fixture;
  fixture.write("a.md", "committed\n");
  fixture.commit_all("base");
  // An alternative index, as git prepares for `git commit -a` (.git/index.lock).
  const auto alt = fixture.root() / ".git" / "index.alt";
  std::filesystem::copy_file(fixture.root() / ".git" / "index", alt);
  {
    git_index* raw = nullptr;
    REQUIRE(git_index_open(&raw, alt.c_str()) == 0);
    const gv::git::IndexPtr index{raw};
    git_index_entry entry{};
    entry.mode = GIT_FILEMODE_BLOB;
    entry.path = "a.md";
    REQUIRE(git_blob_create_from_buffer(&entry.id, fixture.raw(), "staged\n", 7) == 0);
    REQUIRE(git_index_add(index.get(), &entry) == 0);
    REQUIRE(git_index_write(index.get()) == 0);
  }
  const EnvGuard dir("GIT_DIR", (fixture.root() / ".git").string());
  const EnvGuard index_file("GIT_INDEX_FILE", alt.string());
  const std::string staged = gv::git::hash_blob("staged\n");

  SECTION("plain FROM_ENV") {
    const EnvGuard no_work_tree("GIT_WORK_TREE", std::nullopt);
    const EnvGuard no_common("GIT_COMMON_DIR", std::nullopt);
    const Repo repo = Repo::open_from_env();
    CHECK(repo.index_blob_id("a.md") == staged);
  }
  SECTION("GIT_WORK_TREE set, which libgit2 1.5 refuses in FROM_ENV") {
    const EnvGuard work_tree("GIT_WORK_TREE", fixture.root().string());
    const Repo repo = Repo::open_from_env();
    CHECK(repo.index_blob_id("a.md") == staged);
    CHECK(repo.workdir() == fixture.root());
  }
  SECTION("GIT_WORK_TREE naming another folder moves the work tree") {
    std::filesystem::create_directories(fixture.root() / "elsewhere");
    const EnvGuard work_tree("GIT_WORK_TREE", (fixture.root() / "elsewhere").string());
    const Repo repo = Repo::open_from_env();
    CHECK(repo.workdir() == fixture.root() / "elsewhere");
    CHECK(repo.index_blob_id("a.md") == staged);
  }
  SECTION("without GIT_INDEX_FILE the regular index is read") {
    const EnvGuard no_index("GIT_INDEX_FILE", std::nullopt);
    const EnvGuard work_tree("GIT_WORK_TREE", fixture.root().string());
    const Repo repo = Repo::open_from_env();
    CHECK(repo.index_blob_id("a.md") == gv::git::hash_blob("committed\n"));
  }
}

}  // namespace git_repo_test
