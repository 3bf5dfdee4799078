// The conventions every command shares: the command list, typo suggestions, --version, -q, the
// error prefix, one JSON printer, the pager and colour (doc/architecture.md, "Output").
#include <catch2/catch.hpp>
#include <filesystem>
#include <string>

#include "tests/e2e/sandbox.hpp"

using gv::test::Sandbox;

namespace {

[[maybe_unused]] bool contains(const std::string& haystack, std::string_view needle) {
  return haystack.find(needle) != std::string::npos;
}

std::size_t count_lines(const std::string& text) {
  return static_cast<std::size_t>(std::count(text.begin(), text.end(), '\n'));
}

}  // namespace

TEST_CASE("a command that needs a repository fails at once outside one, with one line",
          "[e2e][conventions]") {
  Sandbox sandbox;
  std::filesystem::remove_all(sandbox.path(".git"));
  for (const char* command : {"distill", "index", "log", "check", "search", "init"}) {
    INFO(command);
    const auto result = command == std::string("search") ? sandbox.vault({command, "retry"})
                                                         : sandbox.vault({command});
    CHECK(result.code == 128);
    CHECK(result.out.empty());
    CHECK(result.err.starts_with("git-vault: error: not a git repository"));
    CHECK(count_lines(result.err) == 1);
  }
}

TEST_CASE("git vault alone lists the commands, one line each", "[e2e][conventions]") {
  Sandbox sandbox;
  for (const std::vector<std::string>& args :
       {std::vector<std::string>{}, std::vector<std::string>{"help"}}) {
    const auto result = sandbox.vault(args);
    CHECK(result.code == 0);
    CHECK(result.err.empty());
    CHECK(contains(result.out, "\n   distill     Health report, or one maintenance action"));
    CHECK(contains(result.out, "\n   search      Find memories\n"));
    CHECK(!contains(result.out, "merge-driver"));  // plumbing stays out of the list
    CHECK(count_lines(result.out) < 30);
  }
}

TEST_CASE("a misspelt command names the closest one", "[e2e][conventions]") {
  Sandbox sandbox;
  const auto distil = sandbox.vault({"distil"});
  CHECK(distil.code == 129);
  CHECK(distil.out.empty());
  CHECK(distil.err.starts_with(
      "git-vault: error: 'distil' is not a git vault command. See 'git vault -h'."));
  CHECK(contains(distil.err, "The most similar command is\n\tgit vault distill\n"));

  const auto serach = sandbox.vault({"--json", "serach", "retry"});
  CHECK(serach.code == 129);
  CHECK(contains(serach.err, "'serach' is not a git vault command"));
  CHECK(contains(serach.err, "\tgit vault search\n"));

  const auto maintian = sandbox.vault({"recall", "maintian"});
  CHECK(maintian.code == 129);
  CHECK(maintian.err.starts_with(
      "git-vault: error: 'maintian' is not a git vault recall command. See 'git vault recall "
      "-h'."));
  CHECK(contains(maintian.err, "\tgit vault recall maintain\n"));

  const auto nothing_close = sandbox.vault({"xyzzy"});
  CHECK(nothing_close.code == 129);
  CHECK(!contains(nothing_close.err, "most similar"));
}

TEST_CASE("git vault --version and git vault version print the version the CI workflow pins",
          "[e2e][conventions]") {
  Sandbox sandbox;
  const auto flag = sandbox.vault({"--version"});
  const auto word = sandbox.vault({"version"});
  CHECK(flag.code == 0);
  CHECK(word.code == 0);
  CHECK(flag.out.starts_with("git-vault version "));
  CHECK(flag.out == word.out);
  const std::string version = flag.out.substr(std::string("git-vault version ").size());
  REQUIRE(
      sandbox.vault({"init", "--ci", "github", "--ci-source", "https://example.org/gv.git"}).code ==
      0);
  const std::string workflow = sandbox.read(".github/workflows/git-vault.yml");
  CHECK(contains(workflow, "v" + version.substr(0, version.size() - 1)));
}

TEST_CASE("option errors start with git-vault: error: and exit 129", "[e2e][conventions]") {
  Sandbox sandbox;
  const auto bogus = sandbox.vault({"check", "--bogus"});
  CHECK(bogus.code == 129);
  CHECK(bogus.out.empty());
  CHECK(bogus.err.starts_with("git-vault: error: "));
  CHECK(contains(bogus.err, "--bogus"));
  CHECK(contains(bogus.err, "See 'git vault check -h'."));
  const auto missing_value = sandbox.vault({"distill", "--select"});
  CHECK(missing_value.code == 129);
  CHECK(missing_value.err.starts_with("git-vault: error: "));
}
