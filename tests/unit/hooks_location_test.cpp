#include "core/git/hooks_location.hpp"

#include <git2.h>

#include <catch2/catch.hpp>

#include "core/git/repo.hpp"
#include "tests/unit/git_test_repo.hpp"

namespace hooks_location_test {

namespace fs = std::filesystem;
using gv::git::HooksPathSource;
using gv::git::resolve_hooks_path;

namespace {

void set_local(const gv::test::TestRepo& repo, const char* key, const char* value) {
  git_config* raw = nullptr;
  REQUIRE(git_repository_config(&raw, repo.raw()) == 0);
  const gv::git::ConfigPtr config{raw};
  git_config* raw_local = nullptr;
  REQUIRE(git_config_open_level(&raw_local, config.get(), GIT_CONFIG_LEVEL_LOCAL) == 0);
  const gv::git::ConfigPtr local{raw_local};
  REQUIRE(git_config_set_string(local.get(), key, value) == 0);
}

// Points libgit2's global config search path at `dir` for one scope.
class GlobalConfigDir {
 public:
  explicit GlobalConfigDir(const fs::path& dir) {
    REQUIRE(git_libgit2_opts(GIT_OPT_SET_SEARCH_PATH, GIT_CONFIG_LEVEL_GLOBAL, dir.c_str()) == 0);
  }
  ~GlobalConfigDir() {
    git_libgit2_opts(GIT_OPT_SET_SEARCH_PATH, GIT_CONFIG_LEVEL_GLOBAL, nullptr);
  }
  GlobalConfigDir(const GlobalConfigDir&) = delete;
  GlobalConfigDir& operator=(const GlobalConfigDir&) = delete;
};

}  // namespace

TEST_CASE("a relative hooksPath resolves against the work tree root, ~ against HOME", "[hooks]") {
  CHECK(resolve_hooks_path(".githooks", "/w/repo", "/home/u") == fs::path("/w/repo/.githooks"));
  CHECK(resolve_hooks_path("./tools/../hooks", "/w/repo", "/home/u") == fs::path("/w/repo/hooks"));
  CHECK(resolve_hooks_path("~/hooks", "/w/repo", "/home/u") == fs::path("/home/u/hooks"));
  CHECK(resolve_hooks_path("~", "/w/repo", "/home/u") == fs::path("/home/u"));
  CHECK(resolve_hooks_path("/srv/hooks", "/w/repo", "/home/u") == fs::path("/srv/hooks"));
}

TEST_CASE("without core.hooksPath hooks live in the common dir", "[hooks]") {
  gv::test::TestRepo fixture;
  const auto repo = gv::git::Repo::discover(fixture.root());
  const auto location = gv::git::hooks_location(repo);
  CHECK(location.source == HooksPathSource::default_dir);
  CHECK(location.dir == fixture.root() / ".git" / "hooks");
  CHECK_FALSE(location.configured);
}

TEST_CASE("a repository-local core.hooksPath is used and may be written", "[hooks]") {
  gv::test::TestRepo fixture;
  set_local(fixture, "core.hooksPath", ".githooks");
  const auto repo = gv::git::Repo::discover(fixture.root());
  const auto location = gv::git::hooks_location(repo);
  CHECK(location.source == HooksPathSource::repository);
  CHECK(location.dir == fixture.root() / ".githooks");
  CHECK(location.configured == ".githooks");
}

TEST_CASE("a core.hooksPath from the global config is reported as outside the repository",
          "[hooks]") {
  gv::test::TestRepo fixture;
  const fs::path home = fixture.root() / ".home";
  fs::create_directories(home);
  std::ofstream(home / ".gitconfig") << "[core]\n\thooksPath = /srv/shared-hooks\n";
  const GlobalConfigDir global(home);
  const auto repo = gv::git::Repo::discover(fixture.root());
  const auto location = gv::git::hooks_location(repo);
  CHECK(location.source == HooksPathSource::outside);
  CHECK(location.dir == fs::path("/srv/shared-hooks"));
}

TEST_CASE("local config can be read and unset without touching other levels", "[hooks]") {
  gv::test::TestRepo fixture;
  set_local(fixture, "merge.vault-log.driver", "x");
  auto repo = gv::git::Repo::discover(fixture.root());
  CHECK(gv::git::local_config_string(repo, "merge.vault-log.driver") == "x");
  gv::git::unset_local_config(repo, "merge.vault-log.driver");
  CHECK_FALSE(gv::git::local_config_string(repo, "merge.vault-log.driver"));
  gv::git::unset_local_config(repo, "merge.vault-log.driver");  // absent: no error
}

}  // namespace hooks_location_test
