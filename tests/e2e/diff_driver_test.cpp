#include <catch2/catch.hpp>
#include <sstream>
#include <string>

#include "tests/e2e/sandbox.hpp"

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

}  // namespace

TEST_CASE("init configures the memory diff driver in .gitattributes and git config",
          "[diff-driver]") {
  Sandbox sandbox;
  REQUIRE(sandbox.vault({"init"}).code == 0);
  CHECK_THAT(sandbox.read(".gitattributes"),
             Catch::Contains(".memory/10-Memories/*.md diff=vault-memory\n"));
  CHECK(sandbox.git({"config", "diff.vault-memory.textconv"}).out == "git vault diff-text\n");
  REQUIRE(sandbox.vault({"hooks", "uninstall"}).code == 0);
  CHECK(sandbox.git({"config", "diff.vault-memory.textconv"}).code == 1);
}

TEST_CASE("git diff shows a keyword added to a memory as one added line", "[diff-driver]") {
  Sandbox sandbox;
  REQUIRE(sandbox.vault({"init"}).code == 0);
  sandbox.write(".memory/10-Memories/MEM-uv.md", k_before);
  sandbox.commit_all("add MEM-uv");
  sandbox.write(".memory/10-Memories/MEM-uv.md", k_after);

  const Result diff = sandbox.git({"diff", "--", ".memory/10-Memories/MEM-uv.md"});
  INFO(diff.out << diff.err);
  REQUIRE(diff.code == 0);
  const auto [added, removed] = changes(diff.out);
  CHECK(added == std::vector<std::string>{"  - venv"});
  CHECK(removed.empty());

  // Tools that ignore drivers still see the plain text.
  const auto [raw_added, raw_removed] =
      changes(sandbox.git({"diff", "--no-textconv", "--", ".memory/10-Memories/MEM-uv.md"}).out);
  CHECK(raw_added == std::vector<std::string>{"keywords: [uv, pip, venv]"});
  CHECK(raw_removed == std::vector<std::string>{"keywords: [uv, pip]"});

  sandbox.commit_all("MEM-uv: keyword venv");
  const Result log = sandbox.git({"log", "-p", "-1", "--format="});
  CHECK(changes(log.out).first == std::vector<std::string>{"  - venv"});
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
