#include <catch2/catch.hpp>
#include <filesystem>
#include <sstream>
#include <string>

#include "tests/e2e/sandbox.hpp"

namespace diff_driver_test {

using gv::test::Result;
using gv::test::Sandbox;

namespace {

const std::string k_before =
    "---\ntitle: \"Use uv\"\ncreated: 2026-01-01\ntags: [PATTERN]\nkeywords: [uv, pip]\n---\n\n"
    "# Use uv\n\nBody text.\n";
const std::string k_after =
    "---\ntitle: \"Use uv\"\ncreated: 2026-01-01\ntags: [PATTERN]\nkeywords: [uv, pip, venv]\n"
    "---\n\n# Use uv\n\nBody text.\n";

// The added and removed lines of a unified diff, headers left out.
std::pair<std::vector<std::string>, std::vector<std::string>> changes(const std::string& diff) {
  std::vector<std::string> added;
  std::vector<std::string> removed;
  std::istringstream stream(diff);
  for (std::string line; std::getline(stream, line);) {
    if (line.starts_with("+++") || line.starts_with("---")) {
      continue;
    }
    if (line.starts_with("+")) {
      added.push_back(line.substr(1));
    } else if (line.starts_with("-")) {
      removed.push_back(line.substr(1));
    }
  }
  return {added, removed};
}

// A memory edited in a repository with git-vault and in one without: what plain git makes of
// the edit, command by command.
std::vector<std::string> plain_git_views(const Sandbox& sandbox) {
  const std::string path = ".memory/10-Memories/MEM-uv.md";
  std::vector<std::string> views;
  sandbox.write(path, k_after);
  views.push_back(sandbox.git({"diff", "--", path}).out);
  views.push_back(sandbox.git({"diff", "--stat", "--", path}).out);
  views.push_back(sandbox.sh("git stash -q && git stash show -p && git stash pop -q").out);
  views.push_back(
      sandbox.sh("printf 'y\\n' | git add -p -- " + path + " && git diff --cached").out);
  REQUIRE(sandbox.sh("git commit -q --no-verify -m keyword").code == 0);
  views.push_back(sandbox.git({"log", "-p", "-1", "--format=", "--", path}).out);
  views.push_back(sandbox.git({"show", "--format=", "HEAD", "--", path}).out);
  // format-patch names the commit; only its diff of the memory is compared.
  const std::string patch =
      sandbox.sh("git format-patch -1 --stdout HEAD -- " + path + " | sed -n '/^diff --git/,$p'")
          .out;
  views.push_back(patch);
  return views;
}

void commit_memory(const Sandbox& sandbox) {
  sandbox.write(".memory/10-Memories/MEM-uv.md", k_before);
  REQUIRE(sandbox.sh("git add -A && git commit -q --no-verify -m 'add MEM-uv'").code == 0);
}

}  // namespace

TEST_CASE("after init, plain git shows a memory edit byte for byte as without git-vault",
          "[diff-driver]") {
  Sandbox with;
  REQUIRE(with.vault({"init"}).code == 0);
  commit_memory(with);
  Sandbox without;
  commit_memory(without);
  CHECK(with.git({"config", "diff.vault-memory.textconv"}).code == 1);
  CHECK_FALSE(with.read(".gitattributes").find("diff=") != std::string::npos);

  const std::vector<std::string> ours = plain_git_views(with);
  const std::vector<std::string> theirs = plain_git_views(without);
  REQUIRE(ours.size() == theirs.size());
  for (std::size_t i = 0; i < ours.size(); ++i) {
    INFO("view " << i << "\n" << ours[i]);
    CHECK_FALSE(ours[i].empty());
    CHECK(ours[i] == theirs[i]);
  }
}

TEST_CASE("a patch made with git diff applies after init", "[diff-driver]") {
  Sandbox sandbox;
  REQUIRE(sandbox.vault({"init"}).code == 0);
  commit_memory(sandbox);
  sandbox.write(".memory/10-Memories/MEM-uv.md", k_after);
  const Result made =
      sandbox.sh("git diff > ../p.patch && git checkout -- . && git apply ../p.patch");
  INFO(made.err);
  CHECK(made.code == 0);
  CHECK(sandbox.read(".memory/10-Memories/MEM-uv.md") == k_after);
  std::filesystem::remove(sandbox.root().parent_path() / "p.patch");
}

TEST_CASE("init --diff-driver renders memory files in this clone's git diff, and only there",
          "[diff-driver]") {
  Sandbox sandbox;
  const Result init = sandbox.vault({"init", "--diff-driver"});
  INFO(init.out << init.err);
  REQUIRE(init.code == 0);
  CHECK_THAT(init.out, Catch::Contains("diff driver vault-memory set up for this clone"));
  CHECK(sandbox.git({"config", "diff.vault-memory.textconv"}).out == "git vault diff-text\n");
  CHECK_THAT(sandbox.read(".git/info/attributes"),
             Catch::Contains(".memory/10-Memories/*.md diff=vault-memory\n"));
  CHECK_FALSE(sandbox.read(".gitattributes").find("diff=") != std::string::npos);
  commit_memory(sandbox);
  sandbox.write(".memory/10-Memories/MEM-uv.md", k_after);

  const Result diff = sandbox.git({"diff", "--", ".memory/10-Memories/MEM-uv.md"});
  INFO(diff.out << diff.err);
  REQUIRE(diff.code == 0);
  const auto [added, removed] = changes(diff.out);
  CHECK(added == std::vector<std::string>{"  - venv"});
  CHECK(removed.empty());
  // Plumbing and --no-textconv still see the bytes.
  const auto [raw_added, raw_removed] =
      changes(sandbox.git({"diff", "--no-textconv", "--", ".memory/10-Memories/MEM-uv.md"}).out);
  CHECK(raw_added == std::vector<std::string>{"keywords: [uv, pip, venv]"});
  CHECK(raw_removed == std::vector<std::string>{"keywords: [uv, pip]"});

  // hooks install keeps what was asked for; uninstall removes all of it.
  const Result install = sandbox.vault({"hooks", "install"});
  CHECK(sandbox.git({"config", "diff.vault-memory.textconv"}).code == 0);
  CHECK_THAT(sandbox.vault({"hooks", "status"}).out,
             Catch::Contains("diff driver: on for this clone"));
  REQUIRE(sandbox.vault({"hooks", "uninstall"}).code == 0);
  CHECK(sandbox.git({"config", "diff.vault-memory.textconv"}).code == 1);
  CHECK(sandbox.git({"config", "vault.diffDriver"}).code == 1);
  CHECK(sandbox.read(".git/info/attributes").find("vault-memory") == std::string::npos);
}

TEST_CASE("git vault diff renders memory files once, passing its arguments to git diff",
          "[diff-driver]") {
  Sandbox sandbox;
  REQUIRE(sandbox.vault({"init"}).code == 0);
  commit_memory(sandbox);
  sandbox.write(".memory/10-Memories/MEM-uv.md", k_after);
  sandbox.write("other.txt", "not shown\n");
  REQUIRE(sandbox.git({"add", "other.txt"}).code == 0);

  const Result rendered = sandbox.vault({"diff", "--", ".memory/10-Memories/MEM-uv.md"});
  INFO(rendered.out << rendered.err);
  REQUIRE(rendered.code == 0);
  CHECK(changes(rendered.out).first == std::vector<std::string>{"  - venv"});
  CHECK(rendered.out.find("other.txt") == std::string::npos);
  const Result cached = sandbox.vault({"diff", "--cached", "--stat"});
  CHECK(cached.code == 0);
  CHECK_THAT(cached.out, Catch::Contains("other.txt"));
  // After git-vault's own global options too, every argument reaches git diff as typed.
  const Result after_globals =
      sandbox.vault({"-P", "diff", "HEAD", "--", ".memory/10-Memories/MEM-uv.md"});
  CHECK(after_globals.code == 0);
  CHECK(changes(after_globals.out).first == std::vector<std::string>{"  - venv"});
  CHECK_THAT(sandbox.vault({"diff", "-h"}).out, Catch::Contains("Every argument goes to git diff"));
  // Plain git diff is untouched by it.
  CHECK(changes(sandbox.git({"diff", "--", ".memory/10-Memories/MEM-uv.md"}).out).first ==
        std::vector<std::string>{"keywords: [uv, pip, venv]"});
}

TEST_CASE("hooks install removes the textconv an earlier init set unasked, and says how to keep it",
          "[diff-driver]") {
  Sandbox sandbox;
  REQUIRE(sandbox.vault({"init"}).code == 0);
  // What an earlier init left: the textconv for every clone and the versioned attribute.
  REQUIRE(sandbox.git({"config", "diff.vault-memory.textconv", "git vault diff-text"}).code == 0);
  sandbox.write(".gitattributes",
                sandbox.read(".gitattributes") + ".memory/10-Memories/*.md diff=vault-memory\n");
  CHECK_THAT(sandbox.vault({"hooks", "status"}).out,
             Catch::Contains("diff driver: set by an earlier git-vault"));

  const Result install = sandbox.vault({"hooks", "install"});
  INFO(install.out << install.err);
  REQUIRE(install.code == 0);
  CHECK_THAT(install.out,
             Catch::Contains("diff driver vault-memory removed from .git/config: git diff shows "
                             "memory files as they are again") &&
                 Catch::Contains("git vault init --diff-driver") &&
                 Catch::Contains("the diff=vault-memory line in .gitattributes does nothing"));
  CHECK(sandbox.git({"config", "diff.vault-memory.textconv"}).code == 1);
  commit_memory(sandbox);
  sandbox.write(".memory/10-Memories/MEM-uv.md", k_after);
  CHECK(changes(sandbox.git({"diff", "--", ".memory/10-Memories/MEM-uv.md"}).out).first ==
        std::vector<std::string>{"keywords: [uv, pip, venv]"});
  // Said once: the next install has nothing to say about it.
  CHECK(sandbox.vault({"hooks", "install"}).out.find("diff driver") == std::string::npos);
}

TEST_CASE("diff-text prints a memory with one field and one list item per line", "[diff-driver]") {
  Sandbox sandbox;
  sandbox.write("note.md", k_before);
  const Result result = sandbox.vault({"diff-text", "note.md"});
  REQUIRE(result.code == 0);
  CHECK(result.out ==
        "---\ntitle: Use uv\ncreated: 2026-01-01\ntags:\n  - PATTERN\nkeywords:\n  - uv\n"
        "  - pip\n---\n\n# Use uv\n\nBody text.\n");
  const Result missing = sandbox.vault({"diff-text", "nosuch.md"});
  CHECK(missing.code == 128);
  CHECK_THAT(missing.err, Catch::Contains("nosuch.md: cannot read"));
}

}  // namespace diff_driver_test
