#include <fmt/format.h>

#include <algorithm>
#include <catch2/catch.hpp>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>

#include "tests/e2e/sandbox.hpp"
#include "tests/e2e/vault_fixture.hpp"

namespace check_test {

using gv::test::Result;
using gv::test::Sandbox;
using json = nlohmann::json;

namespace {

constexpr const char* k_working = "# Working\n- Prefers tabs ^tr0000000001\n";

// The shared five-memory vault (indexed and committed) plus tagged working memory.
void clean_vault(Sandbox& sandbox) {
  sandbox.write("CLAUDE.local.md", k_working);
  sandbox.write("memory/registers/people.md", "# People\n- Sam is the PM ^tr0000000002\n");
  gv::test::write_scored_vault(sandbox);
}

json check_json(const Sandbox& sandbox, std::vector<std::string> args = {}) {
  args.insert(args.begin(), {"--json", "check"});
  const Result result = sandbox.vault(args);
  INFO(result.err);
  REQUIRE((result.code == 0 || result.code == 1));
  json document = json::parse(result.out);
  CHECK(document["ok"] == (result.code == 0));
  return document;
}

// The one finding with this check, failing the test when there is not exactly one.
json only(const json& document, const std::string& check) {
  json found;
  int count = 0;
  for (const json& finding : document["findings"]) {
    if (finding["check"] == check) {
      found = finding;
      ++count;
    }
  }
  INFO(document.dump(2));
  REQUIRE(count == 1);
  return found;
}

}  // namespace

TEST_CASE("check passes a clean vault", "[e2e][check]") {
  Sandbox sandbox;
  clean_vault(sandbox);
  const Result human = sandbox.vault({"check"});
  CHECK(human.code == 0);
  CHECK(human.out.empty());
  const json document = check_json(sandbox);
  CHECK(document["schema"] == 1);
  CHECK(document["findings"].empty());
}

TEST_CASE("check passes a repository without a vault", "[e2e][check]") {
  Sandbox sandbox;
  sandbox.write("README.md", "hello\n");
  sandbox.commit_all();
  CHECK(sandbox.vault({"check"}).code == 0);
  CHECK(sandbox.vault({"check", "--worktree"}).code == 0);
  CHECK(check_json(sandbox)["findings"].empty());
}

TEST_CASE("check blocks on working-memory ids with file and line", "[e2e][check]") {
  Sandbox sandbox;
  clean_vault(sandbox);

  SECTION("a missing id") {
    sandbox.write("CLAUDE.local.md", std::string(k_working) + "- Untagged note\n");
    sandbox.git({"add", "-A"});
    const Result result = sandbox.vault({"check"});
    CHECK(result.code == 1);
    CHECK_THAT(result.out,
               Catch::Contains("CLAUDE.local.md:3: error: entry has no id: \"Untagged "
                               "note\" [missing-id]\n  fix: git vault recall init-ids --yes\n"));
    CHECK_THAT(result.out, Catch::Contains("1 entry is missing IDs.\nRun git vault recall "
                                           "init-ids --yes first to tag all entries.\n"));
    const json finding = only(check_json(sandbox), "missing-id");
    CHECK(finding["path"] == "CLAUDE.local.md");
    CHECK(finding["line"] == 3);
    CHECK(finding["severity"] == "error");
  }
  SECTION("a duplicate id inside one file") {
    sandbox.write("CLAUDE.local.md", std::string(k_working) + "- Copy ^tr0000000001\n");
    sandbox.git({"add", "-A"});
    const json finding = only(check_json(sandbox), "duplicate-id");
    CHECK(finding["path"] == "CLAUDE.local.md");
    CHECK(finding["line"] == 3);
    CHECK(finding["id"] == "tr0000000001");
    CHECK(finding["message"] ==
          "duplicate id ^tr0000000001 on 2 lines: CLAUDE.local.md line 2, CLAUDE.local.md line 3");
  }
  SECTION("a duplicate id across tiers") {
    sandbox.write("memory/archive/2026/old.md", "- Archived ^tr0000000002\n");
    sandbox.git({"add", "-A"});
    const json finding = only(check_json(sandbox), "duplicate-id");
    CHECK(finding["path"] == "memory/archive/2026/old.md");
    CHECK(finding["line"] == 1);
    CHECK(finding["message"] ==
          "duplicate id ^tr0000000002 on 2 lines: memory/registers/people.md "
          "line 2, memory/archive/2026/old.md line 1");
  }
  SECTION("a malformed id blocks like a missing one") {
    sandbox.write("memory/registers/people.md", "# People\n- Sam ^tr12\n");
    sandbox.git({"add", "-A"});
    const json document = check_json(sandbox);
    CHECK(document["ok"] == false);
    const json finding = only(document, "malformed-id");
    CHECK(finding["path"] == "memory/registers/people.md");
    CHECK(finding["line"] == 2);
    CHECK(finding["severity"] == "error");
    // The footer keeps the original's words, and says init-ids will not mend this one.
    const Result human = sandbox.vault({"check"});
    CHECK_THAT(human.out, Catch::Contains("1 entry is missing IDs.\n"
                                          "Run git vault recall init-ids --yes first to tag all "
                                          "entries.\nIt is malformed, which init-ids leaves "
                                          "alone: rewrite or delete it as its fix says.\n"));
  }
}

TEST_CASE("check and the hook block a distill log no command can read", "[e2e][check][hooks]") {
  Sandbox sandbox;
  clean_vault(sandbox);
  REQUIRE(sandbox.vault({"distill", "--record"}).code == 0);
  REQUIRE(sandbox.vault({"hooks", "install"}).code == 0);
  // Half a file, as an interrupted write or a hand-resolved merge leaves it.
  const std::string good = sandbox.read(".memory/distill-log.json");
  sandbox.write(".memory/distill-log.json", good.substr(0, good.size() / 2));
  REQUIRE(sandbox.git({"add", "-A"}).code == 0);
  const Result check = sandbox.vault({"check"});
  CHECK(check.code == 1);
  CHECK_THAT(check.out, Catch::Contains(".memory/distill-log.json:") &&
                            Catch::Contains(": error: distill log is not valid JSON (") &&
                            Catch::Contains("[distill-log]\n  fix: take the file back from a "
                                            "commit that has it whole (git checkout HEAD -- "
                                            ".memory/distill-log.json)"));
  const Result commit = sandbox.sh("git commit -q -m truncated");
  CHECK(commit.code != 0);
  CHECK_THAT(commit.err, Catch::Contains("[distill-log]"));
  // Done as it says, the commit goes through.
  REQUIRE(sandbox.sh("git checkout HEAD -- .memory/distill-log.json").code == 0);
  CHECK(sandbox.vault({"check"}).code == 0);
  // Valid JSON without operations is refused too, at line 1.
  sandbox.write(".memory/distill-log.json", "{\"version\": \"1.0.0\"}\n");
  REQUIRE(sandbox.git({"add", "-A"}).code == 0);
  CHECK_THAT(sandbox.vault({"check"}).out,
             Catch::Contains(".memory/distill-log.json:1: error: distill log has no "
                             "`operations` array [distill-log]"));
}

TEST_CASE("check blocks a stale index", "[e2e][check]") {
  Sandbox sandbox;
  clean_vault(sandbox);

  SECTION("a memory edited without regenerating") {
    sandbox.write(".memory/10-Memories/MEM-alpha.md",
                  gv::test::memory_file("Alpha renamed", "2026-11-20", "a, b, c, d, e", 0, "null"));
    sandbox.git({"add", "-A"});
    const Result result = sandbox.vault({"check"});
    CHECK(result.code == 1);
    CHECK_THAT(result.out, Catch::Contains("fix: git vault index && git add :/.memory"));
    const json document = check_json(sandbox);
    bool named = false;
    for (const json& finding : document["findings"]) {
      CHECK(finding["check"] == "stale-index");
      named = named || (finding["path"] == ".memory/memory-index.json" &&
                        finding["id"] == "MEM-alpha" && finding["line"].is_number());
    }
    CHECK(named);

    SECTION("regenerating and staging fixes it") {
      REQUIRE(sandbox.vault({"index"}).code == 0);
      sandbox.git({"add", "-A"});
      CHECK(sandbox.vault({"check"}).code == 0);
    }
    SECTION("the fix works as printed from a subdirectory") {
      sandbox.write("docs/notes/keep.txt", "unrelated\n");
      REQUIRE(sandbox.sh("git vault index && git add :/.memory", "docs/notes").code == 0);
      CHECK(sandbox.vault({"check"}).code == 0);
      // Only the vault was staged, not the unrelated file beside it.
      CHECK_THAT(sandbox.git({"status", "--porcelain"}).out, Catch::Contains("?? docs/"));
    }
  }
  SECTION("no memory-index.json at all") {
    sandbox.git({"rm", "-q", "--cached", ".memory/memory-index.json"});
    const json finding = only(check_json(sandbox), "stale-index");
    CHECK(finding["path"] == ".memory/memory-index.json");
    CHECK(finding["message"] == "missing; a regeneration creates it");
  }
}

TEST_CASE("check reports broken frontmatter with its line", "[e2e][check]") {
  Sandbox sandbox;
  clean_vault(sandbox);
  sandbox.write(".memory/10-Memories/MEM-zeta.md",
                "---\ntitle: \"Zeta\"\ncreated: not-a-date\n---\n\n# Zeta\n");
  sandbox.git({"add", "-A"});
  const json document = check_json(sandbox);
  CHECK(document["ok"] == false);
  const json finding = only(document, "schema");
  CHECK(finding["path"] == ".memory/10-Memories/MEM-zeta.md");
  CHECK(finding["line"] == 3);
  CHECK(finding["severity"] == "error");
}

TEST_CASE("a memory missing from the index is named at the line a regeneration puts it",
          "[e2e][check]") {
  Sandbox sandbox;
  clean_vault(sandbox);
  sandbox.write(".memory/10-Memories/MEM-charlie.md",
                gv::test::memory_file("Charlie", "2026-11-01", "k", 0, "null"));
  REQUIRE(sandbox.git({"add", "-A"}).code == 0);
  // MEM-charlie sorts before MEM-delta: its entry goes where MEM-delta's starts.
  const std::string index = sandbox.read(".memory/memory-index.json");
  const std::size_t delta = index.find("\"id\": \"MEM-delta\"");
  REQUIRE(delta != std::string::npos);
  const long line = 1 + std::count(index.begin(), index.begin() + static_cast<long>(delta), '\n');
  const Result result = sandbox.vault({"check"});
  CHECK(result.code == 1);
  CHECK_THAT(result.out,
             Catch::Contains(fmt::format(".memory/memory-index.json:{}: error: MEM-charlie is "
                                         "missing from the index [stale-index]\n",
                                         line)));
}

TEST_CASE("check names a title line with nothing after it as empty, at its line", "[e2e][check]") {
  Sandbox sandbox;
  clean_vault(sandbox);
  sandbox.write(".memory/10-Memories/MEM-zeta.md", "---\ntitle:\ncreated: 2026-11-01\n---\n");
  sandbox.git({"add", "-A"});
  const auto result = sandbox.vault({"check"});
  CHECK(result.code == 1);
  CHECK_THAT(result.out, Catch::Contains(".memory/10-Memories/MEM-zeta.md:2: error: title is "
                                         "empty [schema]\n  fix: write the memory's title after "
                                         "title:"));
}

TEST_CASE("a stale index beside a broken memory names the fix in the order that works",
          "[e2e][check]") {
  Sandbox sandbox;
  clean_vault(sandbox);
  // An indexed memory whose frontmatter breaks leaves the index, which still lists it, stale.
  const std::string gamma = sandbox.read(".memory/10-Memories/MEM-gamma.md");
  sandbox.write(".memory/10-Memories/MEM-gamma.md",
                "---\ntitle: [Gamma, unclosed\n" + gamma.substr(gamma.find('\n', 4) + 1));
  REQUIRE(sandbox.git({"add", "-A"}).code == 0);
  int stale = 0;
  const json found = check_json(sandbox);
  INFO(found.dump(1));
  for (const json& finding : found["findings"]) {
    if (finding["check"] == "stale-index") {
      ++stale;
      CHECK(finding["fix"] ==
            "fix the memory files the schema errors name first, then: git vault "
            "index && git add :/.memory");
    }
  }
  CHECK(stale > 0);
  // Run as it says: the regeneration refuses until the memory is fixed, then works.
  CHECK(sandbox.sh("git vault index && git add .memory").code != 0);
  sandbox.write(".memory/10-Memories/MEM-gamma.md", gamma);
  REQUIRE(sandbox.sh("git vault index && git add .memory").code == 0);
  CHECK(sandbox.vault({"check"}).code == 0);
}

TEST_CASE("check blocks memory ids that differ only in case", "[e2e][check]") {
  Sandbox sandbox;
  clean_vault(sandbox);
  // Through the index only: the sandbox's file system may itself be case-insensitive.
  const Result blob = sandbox.sh(
      "git update-index --add --cacheinfo 100644,$(git hash-object -w "
      ".memory/10-Memories/MEM-beta.md),.memory/10-Memories/MEM-Beta.md");
  REQUIRE(blob.code == 0);
  const json finding = only(check_json(sandbox), "id-case-collision");
  CHECK(finding["path"] == ".memory/10-Memories/MEM-beta.md");
  CHECK(finding["id"] == "MEM-beta");
}

TEST_CASE("check warns about dangling links without blocking", "[e2e][check]") {
  Sandbox sandbox;
  clean_vault(sandbox);
  sandbox.write(".memory/10-Memories/MEM-gamma.md",
                gv::test::memory_file("Gamma", "2026-05-01", "z", 0, "null", {}, 10, "python/x") +
                    "\nSee [[MEM-nowhere]] and [[MEM-eps]].\n");
  REQUIRE(sandbox.vault({"index"}).code == 0);
  sandbox.git({"add", "-A"});
  const Result result = sandbox.vault({"check"});
  CHECK(result.code == 0);
  CHECK_THAT(result.out, Catch::Contains("warning: link [[MEM-nowhere]] names no memory"));
  CHECK_THAT(result.out, Catch::Contains("warning: link [[MEM-eps]] names a tombstoned memory"));
  CHECK_THAT(result.out, Catch::Contains("0 errors, 2 warnings"));
}

TEST_CASE("check --staged reads the index, never the work tree", "[e2e][check]") {
  Sandbox sandbox;
  clean_vault(sandbox);

  SECTION("a bad file staged, then fixed only on disk, still blocks") {
    sandbox.write("CLAUDE.local.md", std::string(k_working) + "- Untagged\n");
    sandbox.git({"add", "CLAUDE.local.md"});
    sandbox.write("CLAUDE.local.md", k_working);
    CHECK(sandbox.vault({"check"}).code == 1);
    CHECK(sandbox.vault({"check", "--staged"}).code == 1);
    CHECK(sandbox.vault({"check", "--worktree"}).code == 0);
  }
  SECTION("a bad file only on disk does not block the commit") {
    sandbox.write("CLAUDE.local.md", std::string(k_working) + "- Untagged\n");
    CHECK(sandbox.vault({"check"}).code == 0);
    const Result worktree = sandbox.vault({"check", "--worktree"});
    CHECK(worktree.code == 1);
    CHECK_THAT(worktree.out, Catch::Contains("CLAUDE.local.md:3: error: entry has no id"));
  }
  SECTION("GIT_INDEX_FILE names the index being committed") {
    sandbox.write("CLAUDE.local.md", std::string(k_working) + "- Untagged\n");
    REQUIRE(sandbox
                .sh("cp .git/index .git/other-index && "
                    "GIT_INDEX_FILE=.git/other-index git add CLAUDE.local.md")
                .code == 0);
    CHECK(sandbox.vault({"check"}).code == 0);
    CHECK(sandbox.sh("GIT_INDEX_FILE=.git/other-index git vault check >/dev/null").code == 1);
  }
}

TEST_CASE("check --range reports each finding under the commit that introduced it",
          "[e2e][check]") {
  Sandbox sandbox;
  clean_vault(sandbox);
  const std::string base = sandbox.git({"rev-parse", "HEAD"}).out.substr(0, 40);

  sandbox.write("notes.txt", "unrelated\n");
  sandbox.commit_all("good one");
  sandbox.write("CLAUDE.local.md", std::string(k_working) + "- Untagged\n");
  sandbox.commit_all("bad one");
  const std::string bad = sandbox.git({"rev-parse", "HEAD"}).out.substr(0, 40);
  sandbox.write("notes.txt", "still unrelated\n");
  sandbox.commit_all("after the bad one");

  const Result human = sandbox.vault({"check", "--range", base + "..HEAD"});
  CHECK(human.code == 1);
  CHECK_THAT(human.out, Catch::StartsWith("commit " + bad.substr(0, 12) +
                                          " bad one\n"
                                          "CLAUDE.local.md:3: error: entry has no id"));

  const json document = check_json(sandbox, {"--range", base + "..HEAD"});
  REQUIRE(document["findings"].size() == 1);  // not repeated for the last commit
  CHECK(document["findings"][0]["commit"] == bad);
  CHECK(document["findings"][0]["check"] == "missing-id");

  SECTION("a range before the bad commit passes") {
    CHECK(sandbox.vault({"check", "--range", base + ".." + bad + "~1"}).code == 0);
  }
}

TEST_CASE("check --range blames a branch only for what it introduced, not for its base",
          "[e2e][check]") {
  Sandbox sandbox;
  clean_vault(sandbox);
  // The base already has an error (an untagged entry) and a warning (a link to a memory that
  // gc will delete).
  sandbox.write("CLAUDE.local.md", std::string(k_working) + "- Untagged\n");
  sandbox.commit_all("base with an error");
  const std::string base = sandbox.git({"rev-parse", "HEAD"}).out.substr(0, 40);

  sandbox.write("notes.txt", "unrelated\n");
  sandbox.commit_all("a clean change");
  const Result clean = sandbox.vault({"check", "--range", base + "..HEAD"});
  INFO(clean.out << clean.err);
  CHECK(clean.code == 0);
  CHECK(check_json(sandbox, {"--range", base + "..HEAD"})["findings"].empty());

  // Checked alone, the tip still has the base's error.
  CHECK(sandbox.vault({"check", "--range", "HEAD"}).code == 1);

  sandbox.write("memory/registers/decisions.md", "- Another untagged\n");
  sandbox.commit_all("a new error");
  const json document = check_json(sandbox, {"--range", base + "..HEAD"});
  REQUIRE(document["findings"].size() == 1);
  CHECK(document["findings"][0]["path"] == "memory/registers/decisions.md");
}

TEST_CASE("a recall metadata.json no recall command can read blocks the commit, with the way back",
          "[e2e][check][hooks]") {
  Sandbox sandbox;
  clean_vault(sandbox);
  REQUIRE(sandbox.vault({"recall", "init-ids", "--yes"}).code == 0);
  REQUIRE(sandbox.vault({"hooks", "install"}).code == 0);
  sandbox.commit_all("metadata");
  const std::string good = sandbox.read("memory/.recall/metadata.json");
  REQUIRE(good.size() > 40);

  SECTION("truncated") {
    sandbox.write("memory/.recall/metadata.json", good.substr(0, good.size() / 2));
    REQUIRE(sandbox.git({"add", "-A"}).code == 0);
    const Result check = sandbox.vault({"check"});
    CHECK(check.code == 1);
    CHECK_THAT(check.out, Catch::Contains("memory/.recall/metadata.json:") &&
                              Catch::Contains(": error: invalid JSON: ") &&
                              Catch::Contains("[recall-metadata]\n  fix: correct it by hand, or "
                                              "restore a version that reads (`git log --oneline "
                                              "-- memory/.recall/metadata.json`"));
    const Result commit = sandbox.sh("git commit -q -m truncated");
    CHECK(commit.code != 0);
    CHECK_THAT(commit.err, Catch::Contains("[recall-metadata]"));
  }
  SECTION("one record written twice, as a textual merge leaves it") {
    const std::size_t open = good.find('{', 1);
    const std::size_t close = good.find('}', open);
    const std::string key_line = good.substr(2, good.find('\n', 2) - 2);  // `"tr…": {` …
    const std::string record = good.substr(2, close + 1 - 2);
    sandbox.write("memory/.recall/metadata.json", "{\n" + record + ",\n" + good.substr(2));
    REQUIRE(sandbox.git({"add", "-A"}).code == 0);
    const Result check = sandbox.vault({"check"});
    INFO(key_line);
    CHECK(check.code == 1);
    CHECK_THAT(check.out,
               Catch::Contains("is written twice (lines ") && Catch::Contains("[recall-metadata]"));
    // Recall commands say so before they write.
    const Result doctor = sandbox.vault({"recall", "doctor"});
    CHECK_THAT(doctor.err + doctor.out, Catch::Contains("is written twice"));
  }
}

TEST_CASE("check rejects more than one mode", "[e2e][check]") {
  Sandbox sandbox;
  clean_vault(sandbox);
  CHECK(sandbox.vault({"check", "--staged", "--worktree"}).code == 129);
}

TEST_CASE("check answers again from its cache after a corrupt cache file", "[e2e][check]") {
  Sandbox sandbox;
  clean_vault(sandbox);
  REQUIRE(sandbox.vault({"check"}).code == 0);
  REQUIRE(sandbox.exists(".git/git-vault/parse-cache"));
  sandbox.write(".git/git-vault/parse-cache", "garbage");
  sandbox.write("CLAUDE.local.md", std::string(k_working) + "- Untagged\n");
  sandbox.git({"add", "-A"});
  CHECK(sandbox.vault({"check"}).code == 1);
  sandbox.write("CLAUDE.local.md", k_working);
  sandbox.git({"add", "-A"});
  CHECK(sandbox.vault({"check"}).code == 0);
}

TEST_CASE("check reads packed objects as well as loose ones", "[e2e][check]") {
  // The gate reads the top of a staged memory-index.json straight from its loose object; after
  // `git gc` the staged blobs are in a pack and it must read them through libgit2 instead.
  Sandbox sandbox;
  clean_vault(sandbox);
  sandbox.write(".memory/10-Memories/MEM-alpha.md",
                gv::test::memory_file("Alpha renamed", "2026-11-20", "a, b, c, d, e", 0, "null"));

  SECTION("an up-to-date index passes") {
    REQUIRE(sandbox.vault({"index"}).code == 0);
    sandbox.git({"add", "-A"});
    REQUIRE(sandbox.git({"gc", "-q"}).code == 0);
    REQUIRE(sandbox.git({"count-objects"}).out.starts_with("0 objects"));  // all packed
    sandbox.sh("rm -f .git/git-vault/parse-cache");
    const Result result = sandbox.vault({"check"});
    INFO(result.out << result.err);
    CHECK(result.code == 0);
  }
  SECTION("a stale index blocks") {
    sandbox.git({"add", "-A"});
    REQUIRE(sandbox.git({"gc", "-q"}).code == 0);
    sandbox.sh("rm -f .git/git-vault/parse-cache");
    const json document = check_json(sandbox);
    CHECK_FALSE(document["ok"].get<bool>());
    bool named = false;
    for (const json& finding : document["findings"]) {
      CHECK(finding["check"] == "stale-index");
      named =
          named || (finding["path"] == ".memory/memory-index.json" && finding["id"] == "MEM-alpha");
    }
    CHECK(named);
  }
}

TEST_CASE("check groups the findings of one check and cuts each list at --limit",
          "[e2e][check][conventions]") {
  // 2,000 memories that no index lists: without the cut this was a line per memory plus a fix
  // under each; now the identical findings are one line with a count, and the fix once.
  Sandbox sandbox;
  clean_vault(sandbox);
  constexpr int k_added = 2000;
  for (int i = 0; i < k_added; ++i) {
    const std::string title = fmt::format("Added {}", i);
    sandbox.write(fmt::format(".memory/10-Memories/MEM-added-{}.md", i),
                  gv::test::memory_file(title, "2026-11-01", "k", 0, "null"));
  }
  const auto count_lines = [](const std::string& text) {
    return static_cast<std::size_t>(std::count(text.begin(), text.end(), '\n'));
  };
  const Result cut = sandbox.vault({"--limit", "20", "check", "--worktree"});
  CHECK(cut.code == 1);
  CHECK(count_lines(cut.out + cut.err) < 10);
  CHECK_THAT(cut.out, Catch::Contains(".memory/memory-index.json: error: 2000 memories are missing "
                                      "from the index (MEM-added-0, MEM-added-1, MEM-added-10, "
                                      "...) [stale-index]\n"));
  // The fix is printed once for the group, not once per memory.
  const std::string fix = "fix: git vault index";
  std::size_t fixes = 0;
  for (std::size_t at = cut.out.find(fix); at != std::string::npos;
       at = cut.out.find(fix, at + 1)) {
    ++fixes;
  }
  CHECK(fixes == 1);

  // Not a terminal and no --limit: every finding, for a program to read; --json is complete.
  const Result all = sandbox.vault({"check", "--worktree"});
  CHECK(count_lines(all.out) > k_added);
  const Result document = sandbox.vault({"--json", "--limit", "5", "check", "--worktree"});
  CHECK(json::parse(document.out)["findings"].size() > k_added);
}

TEST_CASE("a commit hears about warnings only in the files it changes", "[e2e][check]") {
  Sandbox sandbox;
  clean_vault(sandbox);
  sandbox.write(".memory/10-Memories/MEM-gamma.md",
                gv::test::memory_file("Gamma", "2026-05-01", "z", 0, "null", {}, 10, "python/x") +
                    "\nSee [[MEM-nowhere]].\n");
  REQUIRE(sandbox.vault({"index"}).code == 0);
  sandbox.commit_all("a dangling link");

  // An unrelated commit: the link's warning is not repeated to it.
  sandbox.write("notes.txt", "unrelated\n");
  sandbox.git({"add", "notes.txt"});
  const Result unrelated = sandbox.vault({"check", "--staged"});
  CHECK(unrelated.code == 0);
  CHECK(unrelated.out.empty());
  CHECK(unrelated.err.empty());
  // --worktree still lists every warning of the vault.
  CHECK_THAT(sandbox.vault({"check", "--worktree"}).out,
             Catch::Contains("warning: link [[MEM-nowhere]] names no memory"));

  // A commit that changes that memory hears about it.
  sandbox.write(".memory/10-Memories/MEM-gamma.md",
                gv::test::memory_file("Gamma", "2026-05-01", "z", 0, "null", {}, 10, "python/x") +
                    "\nSee [[MEM-nowhere]] again.\n");
  REQUIRE(sandbox.vault({"index"}).code == 0);
  sandbox.git({"add", "-A"});
  CHECK_THAT(sandbox.vault({"check", "--staged"}).out,
             Catch::Contains("warning: link [[MEM-nowhere]] names no memory"));
}

TEST_CASE("check --range in a shallow clone refuses a range it cannot see whole", "[e2e][check]") {
  Sandbox sandbox;
  clean_vault(sandbox);
  REQUIRE(sandbox.git({"checkout", "-q", "-b", "feature"}).code == 0);
  for (const char* text : {"one\n", "two\n", "three\n"}) {
    sandbox.write("notes.txt", text);
    sandbox.commit_all(text);
  }
  const std::string origin = "file://" + sandbox.root().string();
  REQUIRE(sandbox.git({"clone", "-q", "--depth", "1", "--branch", "feature", origin, "ci"}).code ==
          0);
  REQUIRE(
      sandbox.git({"fetch", "-q", "--depth", "1", "origin", "main:refs/remotes/origin/main"}, "ci")
          .code == 0);
  const Result cut = sandbox.vault({"check", "--range", "origin/main..HEAD"}, {}, "ci");
  CHECK(cut.code == 128);
  CHECK_THAT(cut.err, Catch::Contains("this is a shallow clone, where history is cut"));
  CHECK_THAT(cut.err, Catch::Contains("git fetch --unshallow"));
  const Result missing = sandbox.vault({"check", "--range", "HEAD~1..HEAD"}, {}, "ci");
  CHECK(missing.code == 128);
  CHECK_THAT(missing.err, Catch::Contains("this clone is shallow"));
  // review, which asks for the merge base, says the same.
  const Result review = sandbox.vault({"review", "origin/main...HEAD"}, {}, "ci");
  CHECK(review.code == 128);
  CHECK_THAT(review.err, Catch::Contains("this is a shallow clone, where history is cut"));
  // With the whole history the same range is checked, and passes.
  REQUIRE(sandbox.git({"fetch", "-q", "--unshallow", "origin"}, "ci").code == 0);
  CHECK(sandbox.vault({"check", "--range", "origin/main..HEAD"}, {}, "ci").code == 0);
}

TEST_CASE(
    "a note named unlike a memory, or a memory in a folder, is named with the git mv that "
    "makes it one",
    "[e2e][check]") {
  Sandbox sandbox;
  clean_vault(sandbox);
  const std::string memory = gv::test::memory_file("Zeta", "2026-11-01", "zz", 0, "null");
  sandbox.write(".memory/10-Memories/notes.md", memory);
  sandbox.write(".memory/10-Memories/old/MEM-zeta.md", memory);
  sandbox.write(".memory/10-Memories/old/plain notes.md", "not a memory, and left alone\n");
  REQUIRE(sandbox.git({"add", "-A"}).code == 0);

  const Result check = sandbox.vault({"check", "--staged"});
  CHECK(check.code == 0);  // warnings: the vault reads as it did
  CHECK(check.out ==
        ".memory/10-Memories/notes.md: warning: not read as a memory: memory files are named "
        "MEM-*.md [schema]\n"
        "  fix: rename it to make it a memory (git mv .memory/10-Memories/notes.md "
        ".memory/10-Memories/MEM-notes.md), or move it out of .memory/10-Memories/\n"
        ".memory/10-Memories/old/MEM-zeta.md: warning: not read as a memory: memories sit "
        "directly in .memory/10-Memories/, not in a folder under it [schema]\n"
        "  fix: move it up: git mv .memory/10-Memories/old/MEM-zeta.md .memory/10-Memories/\n"
        "0 errors, 2 warnings\n");

  // A name a shell would split is quoted in the fix.
  sandbox.write(".memory/10-Memories/my notes.md", memory);
  const json quoted = check_json(sandbox, {"--worktree"});
  CHECK(std::any_of(quoted["findings"].begin(), quoted["findings"].end(), [](const json& f) {
    return f["fix"] ==
           "rename it to make it a memory (git mv '.memory/10-Memories/my notes.md' "
           "'.memory/10-Memories/MEM-my notes.md'), or move it out of .memory/10-Memories/";
  }));
  std::filesystem::remove(sandbox.path(".memory/10-Memories/my notes.md"));

  // The fix as printed makes it a memory the report counts.
  REQUIRE(sandbox.sh("git mv .memory/10-Memories/old/MEM-zeta.md .memory/10-Memories/").code == 0);
  REQUIRE(sandbox.vault({"index"}).code == 0);
  const Result report = sandbox.vault({"distill", "--json"});
  INFO(report.err);
  REQUIRE(report.code == 0);
  const json memories = json::parse(report.out)["memories"];
  CHECK(std::any_of(memories.begin(), memories.end(),
                    [](const json& row) { return row["id"] == "MEM-zeta"; }));
}

// A vault kept behind a tracked symbolic link is not read through it: check says so and fails,
// instead of reading an empty vault and passing.
TEST_CASE("a tracked .memory symbolic link is reported, not read as an empty vault", "[check]") {
  Sandbox sandbox;
  gv::test::write_scored_vault(sandbox);
  REQUIRE(sandbox
              .sh("git mv .memory vault-store && ln -s vault-store .memory && git add .memory"
                  " && git commit -q --no-verify -m 'vault behind a link'")
              .code == 0);
  const Result check = sandbox.vault({"check"});
  CHECK(check.code == 1);
  CHECK_THAT(check.out, Catch::Contains(".memory") && Catch::Contains("is a symbolic link"));
  const Result worktree = sandbox.vault({"check", "--worktree"});
  CHECK(worktree.code == 1);
  CHECK_THAT(worktree.out, Catch::Contains("is a symbolic link"));
  const Result json_check = sandbox.vault({"check", "--json"});
  CHECK_THAT(json_check.out, Catch::Contains("\"vault-link\""));
}

}  // namespace check_test
