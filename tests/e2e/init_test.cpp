#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "tests/e2e/sandbox.hpp"
#include "tests/e2e/vault_fixture.hpp"

namespace init_test {

using gv::test::Sandbox;
using nlohmann::json;

TEST_CASE("init scaffolds a vault whose generated files are already fresh", "[init]") {
  Sandbox sandbox;
  const auto result = sandbox.vault({"init", "--json"});
  INFO(result.err);
  REQUIRE(result.code == 0);
  const json created = json::parse(result.out)["created"];
  CHECK(created.size() == 9);
  CHECK(sandbox.exists(".memory/30-Templates/memory-template.md"));
  CHECK(sandbox.exists(".memory/distill-log.json"));
  CHECK_FALSE(sandbox.exists("CLAUDE.local.md"));
  CHECK(json::parse(result.out)["hooks"]["installed"] == true);
  CHECK_THAT(sandbox.read(".git/hooks/pre-commit"), Catch::Contains("git-vault hook pre-commit"));
  CHECK_THAT(sandbox.read(".gitattributes"), Catch::Contains("merge=vault-log"));
  CHECK(sandbox.vault({"index", "--check"}).code == 0);
  CHECK(json::parse(sandbox.vault({"distill", "--json"}).out)["health_score"] == 100);
}

TEST_CASE("init --recall adds a working memory with nothing to tag", "[init]") {
  Sandbox sandbox;
  REQUIRE(sandbox.vault({"init", "--recall"}).code == 0);
  CHECK(sandbox.exists("CLAUDE.local.md"));
  CHECK(sandbox.exists("memory/registers/open-loops.md"));
  CHECK(sandbox.read("memory/.recall/metadata.json") == "{}\n");
  const auto ids = sandbox.vault({"recall", "init-ids", "--dry-run", "--json"});
  REQUIRE(ids.code == 0);
  CHECK(json::parse(ids.out)["tagged"].empty());
}

TEST_CASE("init never rewrites an existing file and adds only what is missing", "[init]") {
  Sandbox sandbox;
  sandbox.write(".memory/30-Templates/memory-template.md", "my own template\n");
  REQUIRE(sandbox.vault({"init"}).code == 0);
  CHECK(sandbox.read(".memory/30-Templates/memory-template.md") == "my own template\n");
  sandbox.commit_all();
  const auto again = sandbox.vault({"init", "--json"});
  REQUIRE(again.code == 0);
  CHECK(json::parse(again.out)["created"].empty());
  CHECK(sandbox.git({"status", "--porcelain"}).out.empty());
}

TEST_CASE("init outside a repository fails with a clear message", "[init]") {
  Sandbox sandbox;
  REQUIRE(sandbox.sh("rm -rf .git").code == 0);
  const auto result = sandbox.vault({"init"});
  CHECK(result.code == 128);
  CHECK_THAT(result.err, Catch::StartsWith("git-vault: error:"));
}

TEST_CASE("init ends with the command that commits what it wrote, and that command works",
          "[init]") {
  Sandbox sandbox;
  const auto init = sandbox.vault({"init", "--recall"});
  REQUIRE(init.code == 0);
  const std::size_t at = init.out.rfind("next: ");
  REQUIRE(at != std::string::npos);
  const std::string next = init.out.substr(at + 6, init.out.find('\n', at) - at - 6);
  // CLAUDE.local.md is private (ignored), so it is not in the list.
  CHECK(next ==
        "git add .gitattributes .gitignore .memory memory && git commit -m \"Add the "
        "memory vault\"");
  const auto commit = sandbox.sh(next);
  INFO(commit.err);
  REQUIRE(commit.code == 0);
  CHECK(sandbox.git({"status", "--porcelain"}).out.empty());
  // Nothing left to do, nothing left to commit.
  CHECK(sandbox.vault({"init", "--recall"}).out == "the vault is already set up; nothing to do\n");
}

TEST_CASE("a vault made by init can be committed through its own pre-commit hook", "[init]") {
  Sandbox sandbox;
  REQUIRE(sandbox.vault({"init", "--recall"}).code == 0);
  REQUIRE(sandbox.git({"add", "-A"}).code == 0);
  const auto commit = sandbox.git({"commit", "-qm", "vault"});
  INFO(commit.err);
  CHECK(commit.code == 0);
}

TEST_CASE("init on a vault that has memories but no index writes their index", "[init]") {
  Sandbox sandbox;
  sandbox.write(".memory/10-Memories/MEM-one.md",
                gv::test::memory_file("First memory", "2026-11-01", "alpha, beta", 0, "null"));
  sandbox.write(".memory/10-Memories/MEM-two.md",
                gv::test::memory_file("Second memory", "2026-11-02", "gamma", 1, "2026-11-20"));
  const auto result = sandbox.vault({"init"});
  INFO(result.err);
  REQUIRE(result.code == 0);
  CHECK_THAT(result.out, Catch::Contains("created .memory/memory-index.json (2 memories)"));
  CHECK_THAT(sandbox.read(".memory/memory-index.json"), Catch::Contains("MEM-one"));
  CHECK_THAT(sandbox.read(".memory/memory-index.json"), Catch::Contains("MEM-two"));
  const auto check = sandbox.vault({"index", "--check"});
  INFO(check.err);
  CHECK(check.code == 0);
  REQUIRE(sandbox.git({"add", "-A"}).code == 0);
  const auto commit = sandbox.git({"commit", "-qm", "adopt the vault"});
  INFO(commit.err);
  CHECK(commit.code == 0);
}

TEST_CASE("init regenerates a stale index an earlier tool left, keeping its retrieval counts",
          "[init]") {
  Sandbox sandbox;
  sandbox.write(".memory/10-Memories/MEM-one.md",
                gv::test::memory_file("First memory", "2026-11-01", "alpha, beta", 0, "null"));
  // The earlier tool's index knows MEM-one only, and recorded three retrievals of it that the
  // memory file does not hold; MEM-two came later and was never indexed.
  sandbox.write(
      ".memory/memory-index.json",
      "{\"version\": \"1.0.0\", \"generated_at\": \"2026-11-10\", \"entry_count\": 1, "
      "\"total_tokens\": 6, \"entries\": [{\"id\": \"MEM-one\", \"path\": "
      "\".memory/10-Memories/MEM-one.md\", \"title\": \"First memory\", \"summary\": \"\", "
      "\"topic\": \"tests/e2e\", \"category\": \"INSIGHT\", \"keywords\": [\"alpha\", "
      "\"beta\"], \"token_count\": 6, \"created\": \"2026-11-01\", \"modified\": "
      "\"2026-11-01\", \"last_retrieved\": \"2026-11-09\", \"retrieval_count\": 3, "
      "\"status\": \"active\"}]}\n");
  sandbox.write(".memory/10-Memories/MEM-two.md",
                gv::test::memory_file("Second memory", "2026-11-02", "gamma", 0, "null"));
  sandbox.commit_all("an older vault");

  const auto init = sandbox.vault({"init"});
  INFO(init.out << init.err);
  REQUIRE(init.code == 0);
  // What it replaces and rewrites, named, with line counts (the earlier tool's one-line index).
  CHECK_THAT(init.out, Catch::Contains("replaced .memory/memory-index.json (1 line → "));
  CHECK_THAT(init.out, Catch::Contains("it did not match the memories\n"));
  CHECK_THAT(init.out, Catch::Contains("carried the retrieval counts the old index recorded into "
                                       "the frontmatter of 1 memory (retrieval_count and "
                                       "last_retrieved, and token_count where one was stated): "
                                       "MEM-one\n"));
  CHECK_THAT(sandbox.read(".memory/10-Memories/MEM-one.md"),
             Catch::Contains("retrieval_count: 3\n"));
  CHECK_THAT(sandbox.read(".memory/memory-index.json"), Catch::Contains("MEM-two"));
  CHECK_FALSE(Catch::Contains("the gate blocks").match(init.out));

  // The commit init suggests passes its own pre-commit hook.
  const std::size_t at = init.out.rfind("next: ");
  REQUIRE(at != std::string::npos);
  const auto commit = sandbox.sh(init.out.substr(at + 6, init.out.find('\n', at) - at - 6));
  INFO(commit.err);
  CHECK(commit.code == 0);
  CHECK(sandbox.git({"status", "--porcelain"}).out.empty());
}

TEST_CASE("init says when what the repository already holds will block the commit it suggests",
          "[init]") {
  Sandbox sandbox;
  sandbox.write("CLAUDE.local.md", "# Working memory\n\n- an entry without an id\n");
  sandbox.commit_all("working memory");
  const auto init = sandbox.vault({"init"});
  INFO(init.out << init.err);
  REQUIRE(init.code == 0);
  // What runs first is printed first, each step as a command that works where it is run.
  CHECK_THAT(init.out, Catch::Contains("before committing: the gate blocks the commit until 1 "
                                       "error already in the repository is fixed; first run:\n"
                                       "        git vault recall init-ids --yes   (tags the "
                                       "entries without an id, for the commit)\nnext: "));
  const std::size_t at = init.out.rfind("next: ");
  REQUIRE(at != std::string::npos);
  const std::string suggested = init.out.substr(at + 6, init.out.find('\n', at) - at - 6);
  CHECK_THAT(suggested,
             Catch::StartsWith("git add .gitattributes .memory CLAUDE.local.md memory && "));
  // Before the fix the gate blocks a commit of the entry.
  const auto blocked = sandbox.sh("git add .gitattributes .memory && git commit -qm vault");
  CHECK(blocked.code != 0);
  CHECK_THAT(blocked.err, Catch::Contains("entry has no id"));

  // Done in the order init gives, as printed, the commit it suggests goes through.
  REQUIRE(sandbox.sh("git vault recall init-ids --yes").code == 0);
  const auto commit = sandbox.sh(suggested);
  INFO(commit.err);
  CHECK(commit.code == 0);
  CHECK(sandbox.git({"status", "--porcelain"}).out.empty());
}

TEST_CASE("init --recall on a working memory with older ids gives the fixes in the order they work",
          "[init][recall]") {
  Sandbox sandbox;
  sandbox.write("CLAUDE.local.md",
                "# Working memory\n\n- an entry with an older id ^tr-0123456789\n"
                "- an entry without an id\n");
  sandbox.commit_all("working memory");
  const auto init = sandbox.vault({"init", "--recall"});
  INFO(init.out << init.err);
  REQUIRE(init.code == 0);
  CHECK_THAT(init.out,
             Catch::Contains("fixed; first run:\n        git vault recall doctor --fix "
                             "--allow-dirty   (one commit of what it fixes, beside the files init "
                             "created)\n        git vault recall init-ids --yes   "));
  const std::size_t at = init.out.rfind("next: ");
  REQUIRE(at != std::string::npos);
  const std::string suggested = init.out.substr(at + 6, init.out.find('\n', at) - at - 6);

  const auto doctor = sandbox.vault({"recall", "doctor", "--fix", "--allow-dirty"});
  INFO(doctor.err);
  REQUIRE(doctor.code == 0);
  // Its commit holds the respelled id and its record; the rest of what init created is still
  // for the user to commit.
  CHECK(sandbox.git({"show", "--name-only", "--format=", "HEAD"}).out ==
        "CLAUDE.local.md\nmemory/.recall/metadata.json\n");
  CHECK(sandbox.git({"status", "--porcelain", "memory/archive"}).out == "?? memory/archive/\n");
  CHECK_THAT(sandbox.read("CLAUDE.local.md"), Catch::Contains("^tr0123456789"));
  REQUIRE(sandbox.vault({"recall", "init-ids", "--yes"}).code == 0);
  const auto commit = sandbox.sh(suggested);
  INFO(commit.err);
  CHECK(commit.code == 0);
  CHECK(sandbox.git({"status", "--porcelain"}).out.empty());
}

TEST_CASE("init on a vault with an unreadable memory leaves it out and says so", "[init]") {
  Sandbox sandbox;
  sandbox.write(".memory/10-Memories/MEM-one.md",
                gv::test::memory_file("First memory", "2026-11-01", "alpha", 0, "null"));
  // Broken YAML: nothing converts it (a memory in an older layout is migrate's, see
  // migrate_test.cpp).
  sandbox.write(".memory/10-Memories/MEM-old.md", "---\ntitle: [unclosed\n---\nbody\n");
  const auto result = sandbox.vault({"init"});
  INFO(result.err);
  REQUIRE(result.code == 0);
  CHECK_THAT(result.out, Catch::Contains("created .memory/memory-index.json (1 memory)"));
  CHECK_THAT(result.err, Catch::Contains("1 memory file cannot be read and is left out of the "
                                         "index; `git vault check` names each"));
  CHECK_FALSE(Catch::Contains("MEM-old").match(sandbox.read(".memory/memory-index.json")));
}

TEST_CASE("init --mcp writes .mcp.json for Claude Code and merges with an existing one", "[init]") {
  Sandbox sandbox;
  REQUIRE(sandbox.vault({"init", "--mcp", "--no-hooks"}).code == 0);
  const json config = json::parse(sandbox.read(".mcp.json"));
  CHECK(config["mcpServers"]["git-vault"]["command"] == "git-vault");
  CHECK(config["mcpServers"]["git-vault"]["args"] == json{"mcp"});

  Sandbox other;
  other.write(".mcp.json", R"({"mcpServers": {"db": {"command": "db-mcp"}}, "extra": 1})");
  const auto merged = other.vault({"init", "--mcp", "--no-hooks", "--json"});
  REQUIRE(merged.code == 0);
  CHECK_THAT(merged.out, Catch::Contains(".mcp.json"));
  const json both = json::parse(other.read(".mcp.json"));
  CHECK(both["extra"] == 1);
  CHECK(both["mcpServers"]["db"]["command"] == "db-mcp");
  CHECK(both["mcpServers"]["git-vault"]["command"] == "git-vault");
  // Run again: nothing changes.
  const std::string before = other.read(".mcp.json");
  REQUIRE(other.vault({"init", "--mcp", "--no-hooks"}).code == 0);
  CHECK(other.read(".mcp.json") == before);

  Sandbox broken;
  broken.write(".mcp.json", "{not json");
  const auto refused = broken.vault({"init", "--mcp", "--no-hooks"});
  CHECK(refused.code == 128);
  CHECK_THAT(refused.err, Catch::Contains(".mcp.json:1: not valid JSON"));
  CHECK(broken.read(".mcp.json") == "{not json");
  // Refused before anything is written: fixed and run again, init finds nothing half done.
  CHECK_FALSE(broken.exists(".memory"));
  CHECK_FALSE(broken.exists(".gitattributes"));
  broken.write(".mcp.json", "{\n  \"mcpServers\": {\n    \"a\": 1,\n  }\n}\n");
  CHECK_THAT(broken.vault({"init", "--mcp", "--no-hooks"}).err,
             Catch::Contains(".mcp.json:4: not valid JSON"));
  broken.write(".mcp.json", "{}\n");
  const auto fixed = broken.vault({"init", "--mcp", "--no-hooks"});
  REQUIRE(fixed.code == 0);
  CHECK_THAT(fixed.out, Catch::Contains("next: git add .gitattributes .mcp.json .memory && "));
}

TEST_CASE("init --recall ignores CLAUDE.local.md unless the repository tracks it", "[init]") {
  Sandbox sandbox;
  sandbox.write(".gitignore", "build/");  // no final newline: the line is added after one
  const auto result = sandbox.vault({"init", "--recall"});
  REQUIRE(result.code == 0);
  CHECK_THAT(result.out,
             Catch::Contains("added CLAUDE.local.md to .gitignore (private working memory)"));
  CHECK(sandbox.read(".gitignore") == "build/\nCLAUDE.local.md\n");
  CHECK(sandbox.git({"check-ignore", "-q", "CLAUDE.local.md"}).code == 0);
  // Run again: already ignored, nothing added.
  REQUIRE(sandbox.vault({"init", "--recall"}).code == 0);
  CHECK(sandbox.read(".gitignore") == "build/\nCLAUDE.local.md\n");

  Sandbox shared;
  shared.write("CLAUDE.local.md", "# Working\n");
  shared.commit_all("a shared working memory");
  const auto kept = shared.vault({"init", "--recall"});
  REQUIRE(kept.code == 0);
  CHECK_THAT(kept.out, Catch::Contains("CLAUDE.local.md is tracked: not added to .gitignore"));
  CHECK(!shared.exists(".gitignore"));
}

TEST_CASE("init under a global core.hooksPath leaves the hooks but sets up the merge drivers",
          "[init]") {
  Sandbox sandbox;
  const std::string shared = sandbox.path(".home/shared-hooks").string();
  sandbox.write(".home/.gitconfig", "[core]\n\thooksPath = " + shared + "\n");
  const auto result = sandbox.vault({"init"});
  INFO(result.err);
  REQUIRE(result.code == 0);
  CHECK_THAT(result.err, Catch::Contains("hooks not installed"));
  CHECK_FALSE(sandbox.exists(".home/shared-hooks/pre-commit"));
  CHECK_THAT(result.out, Catch::Contains("merge drivers vault-generated"));
  CHECK_THAT(sandbox.read(".gitattributes"), Catch::Contains("merge=vault-generated"));
  CHECK_THAT(result.out, Catch::Contains("next: git add .gitattributes .memory && "));
  const auto status = sandbox.vault({"hooks", "status"});
  CHECK_THAT(status.out, Catch::Contains("merge drivers: configured"));
  // Run again: nothing is left to do but the hooks, and it does not claim otherwise.
  const auto again = sandbox.vault({"init"});
  CHECK_THAT(again.out, Catch::Contains("the vault is set up, but its hooks are not installed"));
}

TEST_CASE("init run in a subdirectory suggests a commit that works there", "[init][conventions]") {
  Sandbox sandbox;
  sandbox.write("src/deep/keep.txt", "x\n");
  sandbox.commit_all("a project");
  const auto init = sandbox.vault({"init", "--no-hooks"}, {}, "src/deep");
  INFO(init.out << init.err);
  REQUIRE(init.code == 0);
  const std::size_t at = init.out.rfind("next: ");
  REQUIRE(at != std::string::npos);
  const std::string suggested = init.out.substr(at + 6, init.out.find('\n', at) - at - 6);
  CHECK_THAT(suggested, Catch::StartsWith("git add ../../.gitattributes ../../.memory && "));
  const auto commit = sandbox.sh(suggested, "src/deep");
  INFO(commit.err);
  CHECK(commit.code == 0);
  CHECK(sandbox.git({"status", "--porcelain"}).out.empty());
}

TEST_CASE("init --recall never asks to git add the CLAUDE.local.md it has just ignored",
          "[init][recall]") {
  Sandbox sandbox;
  sandbox.write("README", "x\n");
  sandbox.commit_all("a project");
  sandbox.write("CLAUDE.local.md", "# Working memory\n\n- an entry without an id\n");
  const auto init = sandbox.vault({"init", "--recall"});
  INFO(init.out << init.err);
  REQUIRE(init.code == 0);
  CHECK(sandbox.read(".gitignore") == "CLAUDE.local.md\n");
  const std::size_t at = init.out.rfind("next: ");
  REQUIRE(at != std::string::npos);
  const std::string suggested = init.out.substr(at + 6, init.out.find('\n', at) - at - 6);
  CHECK_FALSE(Catch::Contains("CLAUDE.local.md").match(suggested));
  REQUIRE(sandbox.vault({"recall", "init-ids", "--yes"}).code == 0);
  const auto commit = sandbox.sh(suggested);
  INFO(commit.err);
  CHECK(commit.code == 0);
  CHECK(sandbox.git({"status", "--porcelain"}).out.empty());
}

TEST_CASE("init names a generated file it replaces with line counts and keeps its prose",
          "[init]") {
  Sandbox sandbox;
  sandbox.write(".memory/10-Memories/MEM-a.md",
                gv::test::memory_file("Alpha", "2026-11-20", "a", 0, "null"));
  const std::string prose =
      "## JSON Index\n\nThe machine-queryable index enables two-phase retrieval.\n\n";
  sandbox.write(".memory/20-Indices/index.md",
                "# Memory Vault Index\n\n" + prose +
                    "## Recent Memories\n- [MEM-a](../10-Memories/MEM-a.md) - Alpha\n");
  sandbox.commit_all("an earlier tool's vault");
  const auto init = sandbox.vault({"init"});
  INFO(init.out << init.err);
  REQUIRE(init.code == 0);
  CHECK_THAT(init.out, Catch::Contains("replaced .memory/20-Indices/index.md (8 lines → "));
  CHECK_THAT(init.out, Catch::Contains("; the 4 lines of it git-vault does not generate are kept "
                                       "in .memory/20-Indices/index-notes.md"));
  CHECK(sandbox.read(".memory/20-Indices/index-notes.md") == prose);
  CHECK_THAT(init.out, !Catch::Contains("did not match the memories)\n"));
  // The commit init suggests takes the notes along and passes the gate.
  const std::size_t at = init.out.rfind("next: ");
  REQUIRE(at != std::string::npos);
  const auto commit = sandbox.sh(init.out.substr(at + 6, init.out.find('\n', at) - at - 6));
  INFO(commit.err);
  CHECK(commit.code == 0);
  CHECK(sandbox.git({"status", "--porcelain"}).out.empty());
}

TEST_CASE("init --recall in a repository that keeps only a working memory makes no vault",
          "[init][recall]") {
  Sandbox sandbox;
  sandbox.write("CLAUDE.local.md", "# Working memory\n\n- Prefers tabs ^tr0000000001\n");
  sandbox.write("memory/registers/decisions.md", "# Decisions\n\n- Use uv ^tr0000000002\n");
  sandbox.commit_all("working memory");
  const auto init = sandbox.vault({"init", "--recall"});
  INFO(init.out << init.err);
  REQUIRE(init.code == 0);
  CHECK_FALSE(sandbox.exists(".memory"));
  CHECK_THAT(init.out, Catch::Contains("no .memory/ vault created: this repository keeps a "
                                       "working memory only"));
  CHECK_THAT(sandbox.read(".git/hooks/pre-commit"), Catch::Contains("git-vault hook pre-commit"));
  const std::size_t at = init.out.rfind("next: ");
  REQUIRE(at != std::string::npos);
  const auto commit = sandbox.sh(init.out.substr(at + 6, init.out.find('\n', at) - at - 6));
  INFO(commit.err);
  CHECK(commit.code == 0);
  CHECK(sandbox.git({"status", "--porcelain"}).out.empty());
}

}  // namespace init_test
