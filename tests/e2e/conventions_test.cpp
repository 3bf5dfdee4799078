// The conventions every command shares: the command list, typo suggestions, --version, -q, the
// error prefix, one JSON printer, the pager and colour (doc/architecture.md, "Output").
#include <catch2/catch.hpp>
#include <filesystem>
#include <string>

#include "tests/e2e/sandbox.hpp"
#include "tests/e2e/vault_fixture.hpp"

namespace conventions_test {

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
    CHECK(contains(result.out, "\n   search      Find memories and working-memory entries\n"));
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
  // An unknown option with no command is an error too, not the command list.
  const auto global = sandbox.vault({"--bogus"});
  CHECK(global.code == 129);
  CHECK(global.out.empty());
  CHECK(global.err.starts_with("git-vault: error: "));
  CHECK(contains(global.err, "--bogus"));
}

TEST_CASE("an action prints its commit and the command that undoes it", "[e2e][conventions]") {
  Sandbox sandbox;
  gv::test::write_scored_vault(sandbox);
  const auto purge = sandbox.vault({"distill", "--purge", "--select", "MEM-delta"});
  REQUIRE(purge.code == 0);
  const std::string head = sandbox.git({"rev-parse", "--short=7", "HEAD"}).out;
  CHECK(contains(purge.err, "[main " + head.substr(0, 7) +
                                "] vault(purge): tombstone MEM-delta\nUndo with: git vault revert "
                                "distill_"));
  const std::string undo = purge.err.substr(purge.err.find("git vault revert ") + 17);
  const std::string log_id = undo.substr(0, undo.find('\n'));
  const auto revert = sandbox.vault({"revert", log_id});
  INFO(revert.err);
  CHECK(revert.code == 0);
  CHECK(contains(revert.out, "Reverted "));
  CHECK(contains(revert.err, "] vault(revert): "));

  // -q keeps the report and drops the commit line.
  const auto quiet = sandbox.vault({"-q", "distill", "--purge", "--select", "MEM-delta"});
  REQUIRE(quiet.code == 0);
  CHECK(quiet.err.empty());
  CHECK(contains(quiet.out, "Link-scan"));
}

TEST_CASE("a --no-commit run prints the message that keeps log and revert working",
          "[e2e][conventions]") {
  Sandbox sandbox;
  gv::test::write_scored_vault(sandbox);
  const auto purge = sandbox.vault({"distill", "--purge", "--select", "MEM-delta", "--no-commit"});
  REQUIRE(purge.code == 0);
  CHECK(contains(purge.err, "not committed (vault(purge): tombstone MEM-delta)"));
  // The action's event goes to specs/events.jsonl, so both folders are staged.
  CHECK(contains(purge.err, "  git add .memory specs && git commit -F .git/VAULT_MSG\n"));
  // A short message is printed too, and is the one saved.
  CHECK(contains(purge.err, "\nVault-Action: purge\nVault-Log-Id: distill_"));
  const std::string message = sandbox.read(".git/VAULT_MSG");
  CHECK_THAT(message, Catch::StartsWith("vault(purge): tombstone MEM-delta\n\n"));
  CHECK(contains(purge.err, message));

  // Run from a subdirectory, the command it prints works there as printed.
  REQUIRE(sandbox.sh("git checkout -q -- .memory specs && git clean -qfd -- .memory specs").code ==
          0);
  const auto nested =
      sandbox.vault({"distill", "--purge", "--select", "MEM-delta", "--no-commit"}, {}, ".memory");
  INFO(nested.err);
  REQUIRE(nested.code == 0);
  const std::string prefix = "  git add ";
  const std::size_t at = nested.err.find(prefix);
  REQUIRE(at != std::string::npos);
  const std::string command = nested.err.substr(at + 2, nested.err.find('\n', at) - at - 2);
  CHECK(command == "git add . ../specs && git commit -F ../.git/VAULT_MSG");
  const auto committed = sandbox.sh(command, ".memory");
  INFO(committed.err);
  REQUIRE(committed.code == 0);
  CHECK(sandbox.git({"status", "--porcelain"}).out.empty());
  const auto log = sandbox.vault({"log"});
  CHECK(contains(log.out, sandbox.git({"rev-parse", "--short=7", "HEAD"}).out.substr(0, 7)));
}

TEST_CASE("long output goes through git's pager on a terminal, and never elsewhere",
          "[e2e][conventions]") {
  Sandbox sandbox;
  gv::test::write_scored_vault(sandbox);
  // A pager that leaves a mark and shows what it was given.
  sandbox.set_env("GIT_PAGER", "touch \"$HOME/paged\"; sed 's/^/paged: /'");
  const auto paged = sandbox.vault_tty({"distill"}, "");
  CHECK(sandbox.exists(".home/paged") == true);
  CHECK(contains(paged.out, "paged: "));
  std::filesystem::remove(sandbox.path(".home/paged"));

  const auto flag = sandbox.vault_tty({"--no-pager", "distill"}, "");
  CHECK(!sandbox.exists(".home/paged"));
  CHECK(!contains(flag.out, "paged: "));

  const auto piped = sandbox.vault({"distill"});  // not a terminal
  CHECK(!sandbox.exists(".home/paged"));
  CHECK(!contains(piped.out, "paged: "));

  REQUIRE(sandbox.git({"config", "pager.vault", "false"}).code == 0);
  (void)sandbox.vault_tty({"distill"}, "");
  CHECK(!sandbox.exists(".home/paged"));
}

TEST_CASE("severities are coloured on a terminal unless NO_COLOR or color.ui say no",
          "[e2e][conventions]") {
  Sandbox sandbox;
  sandbox.write("CLAUDE.local.md", "# Working\n- Untagged note\n");
  sandbox.set_env("NO_COLOR", "");  // the sandbox sets it; empty counts as unset
  const std::string red_error = "\x1b[1;31merror\x1b[m";
  CHECK(contains(sandbox.vault_tty({"--no-pager", "check", "--worktree"}, "").out, red_error));
  CHECK(!contains(sandbox.vault({"check", "--worktree"}).out, red_error));  // a pipe

  REQUIRE(sandbox.git({"config", "color.ui", "never"}).code == 0);
  CHECK(!contains(sandbox.vault_tty({"--no-pager", "check", "--worktree"}, "").out, "\x1b["));
  REQUIRE(sandbox.git({"config", "--unset", "color.ui"}).code == 0);

  sandbox.set_env("NO_COLOR", "1");
  const auto plain = sandbox.vault_tty({"--no-pager", "check", "--worktree"}, "");
  CHECK(contains(plain.out, "error: entry has no id"));
  CHECK(!contains(plain.out, "\x1b["));
}

TEST_CASE("check and index --check print their findings on stdout, notes on stderr",
          "[e2e][conventions]") {
  Sandbox sandbox;
  gv::test::write_scored_vault(sandbox);
  REQUIRE(sandbox.vault({"index"}).code == 0);
  sandbox.write(".memory/memory-index.json", "{\n  \"version\": \"1.0.0\",\n  oops\n");
  const auto index_check = sandbox.vault({"index", "--check"});
  CHECK(index_check.code == 1);
  CHECK(contains(index_check.out, ".memory/memory-index.json:3:"));
  CHECK(!contains(index_check.err, ".memory/memory-index.json:3:"));
  const auto check = sandbox.vault({"check", "--worktree"});
  CHECK(check.code == 1);
  CHECK(contains(check.out, ".memory/memory-index.json"));
  CHECK(!contains(check.err, ".memory/memory-index.json"));
}

TEST_CASE("long work shows progress on a terminal's stderr, never on a pipe or with -q",
          "[e2e][conventions]") {
  Sandbox sandbox;
  gv::test::write_scored_vault(sandbox);
  sandbox.set_env("GIT_PROGRESS_DELAY", "0");  // git's variable: show it at once
  const auto shown = sandbox.vault_tty({"--no-pager", "distill"}, "");
  CHECK(contains(shown.out, "Reading memories: 100% ("));
  CHECK(contains(shown.out, "), done.\n"));

  CHECK(!contains(sandbox.vault_tty({"--no-pager", "-q", "distill"}, "").out, "Reading memories"));
  const auto piped = sandbox.vault({"distill"});
  CHECK(!contains(piped.err, "Reading memories"));
  CHECK(!contains(piped.out, "Reading memories"));

  sandbox.set_env("GIT_PROGRESS_DELAY", "");  // a second by default: a small vault is quicker
  CHECK(!contains(sandbox.vault_tty({"--no-pager", "distill"}, "").out, "Reading memories"));
}

}  // namespace conventions_test
