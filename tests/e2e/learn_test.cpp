#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "tests/e2e/sandbox.hpp"
#include "tests/e2e/vault_fixture.hpp"

namespace learn_test {

using gv::test::Sandbox;
using nlohmann::json;

namespace {

void write_retry_vault(Sandbox& sandbox) {
  REQUIRE(sandbox.vault({"init", "--no-hooks"}).code == 0);
  sandbox.write(".memory/10-Memories/MEM-requests-retry.md",
                gv::test::memory_file("Request retries", "2026-06-01",
                                      "requests, retry, backoff, session, timeout", 3, "2026-10-01",
                                      {}, 12, "python/libs/requests"));
  REQUIRE(sandbox.vault({"index"}).code == 0);
  sandbox.commit_all("retry vault");
}

}  // namespace

TEST_CASE("learn creates a memory as one vault(learn) commit that passes the gate", "[learn]") {
  Sandbox sandbox;
  write_retry_vault(sandbox);
  const auto result =
      sandbox.vault({"learn", "--title", "Worktree cleanup", "--category", "workflow", "--topic",
                     "git/worktrees", "--text", "Run git worktree prune after deleting a folder."});
  INFO(result.err);
  REQUIRE(result.code == 0);
  CHECK_THAT(result.out, Catch::StartsWith("CREATE MEM-worktree-cleanup (no memory "
                                           "overlaps 30% or more)\n"));
  CHECK_THAT(result.out, Catch::Contains("committed "));
  const std::string bytes = sandbox.read(".memory/10-Memories/MEM-worktree-cleanup.md");
  CHECK_THAT(bytes, Catch::StartsWith("---\ntitle: \"Worktree cleanup\"\ncreated: 2026-11-30\n"
                                      "tags: [WORKFLOW]\ntopic: \"git/worktrees\"\n"));
  const auto log = sandbox.git({"log", "-1", "--format=%s%n%b"});
  CHECK_THAT(log.out, Catch::StartsWith("vault(learn): create MEM-worktree-cleanup\n"));
  CHECK_THAT(log.out, Catch::Contains("Vault-Action: learn\n"));
  CHECK_THAT(log.out, Catch::Contains("Vault-Memories: MEM-worktree-cleanup\n"));
  CHECK(sandbox.git({"status", "--porcelain"}).out.empty());
  CHECK(sandbox.vault({"check", "--worktree"}).code == 0);
  CHECK(sandbox.vault({"index", "--check"}).code == 0);
  // The commit holds the memory and the regenerated index files, nothing else.
  const auto files = sandbox.git({"diff", "--name-only", "HEAD~1", "HEAD"});
  CHECK(files.out ==
        ".memory/10-Memories/MEM-worktree-cleanup.md\n.memory/10-Memories/README.md\n"
        ".memory/20-Indices/index.md\n.memory/memory-index.json\n");

  // The line it prints to undo it does.
  const std::size_t undo = result.out.find("Undo with: git vault revert ");
  REQUIRE(undo != std::string::npos);
  const std::string commit = result.out.substr(undo + 28, 12);
  const auto revert = sandbox.vault({"revert", commit});
  INFO(revert.err);
  CHECK(revert.code == 0);
  CHECK_FALSE(sandbox.exists(".memory/10-Memories/MEM-worktree-cleanup.md"));
}

TEST_CASE("learn chooses UPDATE or EXTEND by overlap, and --as overrides", "[learn]") {
  Sandbox sandbox;
  write_retry_vault(sandbox);
  const auto extend = sandbox.vault({"learn", "--title", "Retry budgets", "--keywords",
                                     "retry,backoff,budget,deadline", "--json", "-"},
                                    R"({"content": "Cap the total retry time."})");
  INFO(extend.err);
  REQUIRE(extend.code == 0);
  const json extended = json::parse(extend.out);
  CHECK(extended["operation"] == "EXTEND");
  CHECK(extended["id"] == "MEM-requests-retry");
  CHECK(extended["matches"][0]["overlap"] == 0.5);
  CHECK(extended["commit"].is_string());
  CHECK_THAT(sandbox.read(".memory/10-Memories/MEM-requests-retry.md"),
             Catch::Contains("## Extension (2026-11-30)\n\n### Retry budgets\n\n**Source**: user "
                             "input\n\nCap the total retry time.\n"));

  const auto update = sandbox.vault({"learn", "--title", "Request retries, revised", "--keywords",
                                     "requests,retry,backoff,session,urllib3", "-"},
                                    "Use urllib3's Retry with backoff_factor.\n");
  INFO(update.err);
  REQUIRE(update.code == 0);
  CHECK_THAT(update.out, Catch::StartsWith("UPDATE MEM-requests-retry (80% overlap)\n"));
  CHECK_THAT(update.out, Catch::Contains("  1. MEM-requests-retry (80% overlap) -> Recommended: "
                                         "UPDATE\n"));
  const std::string updated = sandbox.read(".memory/10-Memories/MEM-requests-retry.md");
  CHECK_THAT(updated, Catch::Contains("## History\n\n### Previous Version (2026-06-01)\n"));
  CHECK_THAT(updated, Catch::Contains("retrieval_count: 3\n"));

  const auto forced = sandbox.vault({"learn", "--title", "Request retries again", "--keywords",
                                     "requests,retry,backoff,session,timeout", "--as", "new",
                                     "--dry-run", "--text", "Same terms, new memory."});
  REQUIRE(forced.code == 0);
  CHECK_THAT(forced.out, Catch::StartsWith("CREATE MEM-request-retries (chosen with --as)"));
  CHECK_THAT(forced.out, Catch::Contains("dry run: nothing was written"));
  CHECK_FALSE(sandbox.exists(".memory/10-Memories/MEM-request-retries.md"));
  CHECK(sandbox.vault({"learn", "--title", "T", "--as", "update:MEM-nope", "--text", "x y"}).code ==
        128);
  CHECK(sandbox.vault({"learn", "--title", "T", "--as", "sideways", "--text", "x"}).code == 129);
}

TEST_CASE("learn files a short note with one word in common as a new memory", "[learn]") {
  Sandbox sandbox;
  write_retry_vault(sandbox);
  // Two key terms, selene and backoff: the one word in common is 50% of them.
  const auto result = sandbox.vault(
      {"learn", "--title", "Lint Lua with selene", "--text", "Run selene before any backoff."});
  INFO(result.out + result.err);
  REQUIRE(result.code == 0);
  CHECK_THAT(result.out, Catch::StartsWith("CREATE MEM-lint-lua-selene (the closest memory shares "
                                           "one word only)\n"));
  CHECK_THAT(result.out, Catch::Contains("1. MEM-requests-retry (50% overlap) -> Recommended: "
                                         "CREATE (no strong match)"));
  CHECK(sandbox.read(".memory/10-Memories/MEM-requests-retry.md").find("selene") ==
        std::string::npos);
  CHECK(sandbox.exists(".memory/10-Memories/MEM-lint-lua-selene.md"));

  // Two words in common still extend it.
  const auto extend = sandbox.vault(
      {"learn", "--title", "Session backoff", "--dry-run", "--text", "Session backoff doubles."});
  CHECK_THAT(extend.out, Catch::StartsWith("EXTEND MEM-requests-retry"));
}

TEST_CASE("learn takes the five categories in any case and refuses another", "[learn]") {
  Sandbox sandbox;
  write_retry_vault(sandbox);
  const auto bogus = sandbox.vault(
      {"learn", "--title", "Kiwi", "--category", "BOGUS", "--text", "Kiwis are birds."});
  CHECK(bogus.code == 129);
  CHECK_THAT(bogus.err, Catch::Contains("category `BOGUS` is not one of CONFIG, WORKFLOW, "
                                        "PATTERN, TECHNIQUE, INSIGHT (any case)"));
  CHECK(sandbox.git({"status", "--porcelain"}).out.empty());
  const auto lower = sandbox.vault(
      {"learn", "--title", "Kiwi", "--category", "pattern", "--text", "Kiwis are birds."});
  INFO(lower.err);
  REQUIRE(lower.code == 0);
  CHECK_THAT(sandbox.read(".memory/10-Memories/MEM-kiwi.md"), Catch::Contains("tags: [PATTERN]\n"));
}

TEST_CASE("learn refuses a secret, naming its line and never echoing it", "[learn]") {
  Sandbox sandbox;
  write_retry_vault(sandbox);
  const std::string key = "AKIA" + std::string("Q7WXJ2L5N8RT3YBD");
  const auto result = sandbox.vault({"learn", "--title", "Deploy", "-"},
                                    "Deploy with the CLI.\n\naws_access_key_id = " + key + "\n");
  CHECK(result.code == 128);
  CHECK_THAT(result.err, Catch::Contains("content line 3 (AWS access key)"));
  CHECK(result.err.find(key) == std::string::npos);
  CHECK(result.out.find(key) == std::string::npos);
  CHECK(sandbox.git({"status", "--porcelain"}).out.empty());
}

TEST_CASE("learn refuses a quoted password with punctuation and a bearer token", "[learn]") {
  Sandbox sandbox;
  write_retry_vault(sandbox);
  const std::string password = "Tr0ub4dor&3xyzQ";
  const std::string bearer = "3f9a8b7c6d5e4f3a2b1c0d9e8f7a6b5c4d3e2f1a";
  const auto result = sandbox.vault({"learn", "--title", "Login", "-"},
                                    "Log in first.\n\n{\"password\": \"" + password +
                                        "\"}\nAuthorization: Bearer " + bearer + "\n");
  CHECK(result.code == 128);
  CHECK_THAT(result.err, Catch::Contains("content line 3 (password assignment), content line 4 "
                                         "(bearer token)"));
  CHECK(result.err.find(password) == std::string::npos);
  CHECK(result.err.find(bearer) == std::string::npos);
  CHECK(sandbox.git({"status", "--porcelain"}).out.empty());
}

TEST_CASE("learn -q prints its decision and no commit line", "[learn]") {
  Sandbox sandbox;
  write_retry_vault(sandbox);
  const auto result = sandbox.vault({"-q", "learn", "--title", "Worktree cleanup", "--text",
                                     "Run git worktree prune after deleting a folder."});
  INFO(result.err);
  REQUIRE(result.code == 0);
  CHECK(result.out == "CREATE MEM-worktree-cleanup (no memory overlaps 30% or more)\n");
  CHECK(result.err.empty());
  // It still commits.
  CHECK_THAT(sandbox.git({"log", "-1", "--format=%s"}).out,
             Catch::StartsWith("vault(learn): create MEM-worktree-cleanup"));
}

TEST_CASE("learn --no-commit leaves the memory in the work tree", "[learn]") {
  Sandbox sandbox;
  write_retry_vault(sandbox);
  const std::string head = sandbox.git({"rev-parse", "HEAD"}).out;
  sandbox.write("notes.md", "# Notes\n\nAlways pin the toolchain version in CI images.\n");
  const auto result =
      sandbox.vault({"learn", "--title", "Pin toolchains", "--no-commit", "notes.md"});
  INFO(result.err);
  REQUIRE(result.code == 0);
  CHECK(sandbox.git({"rev-parse", "HEAD"}).out == head);
  const std::string bytes = sandbox.read(".memory/10-Memories/MEM-pin-toolchains.md");
  CHECK_THAT(bytes, Catch::Contains("source: \"file: notes.md\"\n"));
  CHECK_THAT(bytes, Catch::Contains("# Pin toolchains\n\n# Notes\n\nAlways pin"));
  CHECK(sandbox.vault({"index", "--check"}).code == 0);
  CHECK(sandbox.vault({"learn", "--title", "X", "missing.md"}).code == 128);
}

TEST_CASE("learn records a file's path in the repository, and nothing of one outside it",
          "[learn]") {
  Sandbox sandbox;
  write_retry_vault(sandbox);
  sandbox.write("docs/notes/pins.md", "Always pin the toolchain version in CI images.\n");
  REQUIRE(sandbox
              .vault({"learn", "--title", "Pin toolchains", "--category", "config", "pins.md"}, {},
                     "docs/notes")
              .code == 0);
  CHECK_THAT(sandbox.read(".memory/10-Memories/MEM-pin-toolchains.md"),
             Catch::Contains("source: \"file: docs/notes/pins.md\"\n"));

  // Outside the work tree (here the sandbox's own parent folder), by absolute path.
  const std::filesystem::path outside =
      sandbox.root().parent_path() / (sandbox.root().filename().string() + "-kiwi-notes.md");
  { std::ofstream(outside) << "Kiwis are flightless birds of New Zealand.\n"; }
  const auto learned = sandbox.vault({"learn", "--title", "Kiwi facts", outside.string()});
  std::filesystem::remove(outside);
  INFO(learned.err);
  REQUIRE(learned.code == 0);
  // A file outside the repository (an agent's temporary file, a download) is no source a reader
  // of the vault can follow: the memory says it was the user's input.
  const std::string bytes = sandbox.read(".memory/10-Memories/MEM-kiwi-facts.md");
  CHECK_THAT(bytes, Catch::Contains("source: \"user input\"\n"));
  CHECK(bytes.find(outside.filename().string()) == std::string::npos);
  CHECK(bytes.find(sandbox.root().parent_path().string()) == std::string::npos);
}

TEST_CASE("learn --allow-dirty commits an index of what it commits and says what it left out",
          "[learn]") {
  Sandbox sandbox;
  write_retry_vault(sandbox);
  const std::string edited = ".memory/10-Memories/MEM-requests-retry.md";
  const std::string edit = sandbox.read(edited) + "\nOne more line the user is still writing.\n";
  sandbox.write(edited, edit);
  REQUIRE(sandbox.git({"add", edited}).code == 0);
  const auto result = sandbox.vault({"learn", "--allow-dirty", "--as", "new", "--title",
                                     "Garden notes", "--text", "Tomatoes need full sun."});
  INFO(result.err);
  REQUIRE(result.code == 0);
  CHECK_THAT(result.err, Catch::Contains("--allow-dirty: uncommitted changes stay out of the "
                                         "commit, as they are: " +
                                         edited));
  // The commit alone passes its gate: its index describes the memory as committed.
  const auto range = sandbox.vault({"check", "--range", "HEAD~1..HEAD"});
  INFO(range.out + range.err);
  CHECK(range.code == 0);
  // The user's edit is still there, and still staged.
  CHECK(sandbox.read(edited) == edit);
  CHECK(sandbox.git({"diff", "--cached", "--name-only"}).out == edited + "\n");
}

TEST_CASE("learn reads stdin only for -, and names what is wrong with --json input", "[learn]") {
  Sandbox sandbox;
  write_retry_vault(sandbox);
  // An agent's shell often leaves stdin an open pipe: without `-` it is not read.
  const auto none = sandbox.vault({"learn", "--title", "T"}, "this is not the content\n");
  CHECK(none.code == 129);
  CHECK_THAT(none.err, Catch::Contains("learn needs content: --text TEXT, a FILE, or `-`"));

  const auto unknown = sandbox.vault({"--json", "learn", "-"},
                                     R"({"title": "T", "content": "sourdough", "dry_run": true})");
  CHECK(unknown.code == 129);
  CHECK_THAT(unknown.err, Catch::Contains("stdin: --json: unknown key `dry_run`"));
  sandbox.write("broken.json", "{\"title\": \"a\",\n\"content\":\n}");
  const auto broken = sandbox.vault({"--json", "learn", "broken.json"});
  CHECK(broken.code == 129);
  CHECK_THAT(broken.err, Catch::Contains("broken.json:3: --json: the input is not valid JSON; "
                                         "expected one object such as {\"title\""));
  CHECK(sandbox.git({"log", "-1", "--format=%s"}).out == "retry vault\n");
}

TEST_CASE("learn refuses while a memory file cannot be read, naming each", "[learn]") {
  Sandbox sandbox;
  write_retry_vault(sandbox);
  sandbox.write(".memory/10-Memories/MEM-old.md",
                "# Memory: an older note\n\n**Category**: [PATTERN]\n\nbody\n");
  sandbox.commit_all("an older-layout memory");
  const std::string index = sandbox.read(".memory/20-Indices/index.md");
  const auto result =
      sandbox.vault({"learn", "--title", "Garden notes", "--text", "Tomatoes need full sun."});
  CHECK(result.code == 128);
  CHECK_THAT(result.err, Catch::Contains("1 memory file cannot be read, and an index regenerated "
                                         "now would leave it out:\n  "
                                         ".memory/10-Memories/MEM-old.md:1: unreadable"));
  CHECK_THAT(result.err, Catch::Contains("`git vault migrate`"));
  CHECK(sandbox.git({"log", "-1", "--format=%s"}).out == "an older-layout memory\n");
  CHECK(sandbox.read(".memory/20-Indices/index.md") == index);
  CHECK(sandbox.git({"status", "--porcelain"}).out.empty());
}

TEST_CASE("learn names a secret in a file by the file's path and line", "[learn]") {
  Sandbox sandbox;
  write_retry_vault(sandbox);
  const std::string key = "AKIA" + std::string("Q7WXJ2L5N8RT3YBD");
  sandbox.write("notes.md", "Deploy with the CLI.\n\naws_access_key_id = " + key + "\n");
  const auto result = sandbox.vault({"learn", "--title", "Deploy", "notes.md"});
  CHECK(result.code == 128);
  CHECK_THAT(result.err, Catch::Contains("notes.md:3 (AWS access key)"));
  CHECK(result.err.find(key) == std::string::npos);
}

TEST_CASE("learn's summary is the first sentence of prose, not a table header or a line of code",
          "[learn]") {
  Sandbox sandbox;
  write_retry_vault(sandbox);
  const auto summary_of = [&](const std::string& title, const std::string& text) {
    const auto result = sandbox.vault({"learn", "--title", title, "--text", text});
    INFO(result.err);
    REQUIRE(result.code == 0);
    const std::string id = result.out.substr(7, result.out.find(' ', 7) - 7);
    const std::string bytes = sandbox.read(".memory/10-Memories/" + id + ".md");
    const std::size_t at = bytes.find("\nsummary: ");
    REQUIRE(at != std::string::npos);
    return bytes.substr(at + 10, bytes.find('\n', at + 1) - at - 10);
  };
  CHECK(summary_of("Port map",
                   "| Service | Port |\n|---|---|\n| api | 8080 |\n\nThe api listens on 8080.") ==
        "\"The api listens on 8080.\"");
  CHECK(summary_of("Test command", "```sh\nnpm test -- --runInBand\n```\nRun tests serially.") ==
        "\"Run tests serially.\"");
  // Nothing but a table: the title says it better than a row would.
  CHECK(summary_of("Only a table", "| Queue | Owner |\n|---|---|\n| jobs | ops |") ==
        "\"Only a table\"");
  // One sentence, ended where the sentence ends, never inside a clause.
  CHECK(summary_of("Cache warmup",
                   "Warm the cache before timing, e.g. with one run. Cold runs "
                   "mislead.") ==
        "\"Warm the cache before timing, e.g. with one "
        "run.\"");
}

TEST_CASE("learn weighs shared words by their rarity: words the whole vault uses file nothing",
          "[learn]") {
  Sandbox sandbox;
  REQUIRE(sandbox.vault({"init", "--no-hooks"}).code == 0);
  // "project", "commands" and "tasks" are in most of the vault; a slash-command catalog holds all
  // three. A note about an editor's task file shares them with it and nothing else of substance.
  const auto memory = [&](const std::string& id, const std::string& topic, const std::string& title,
                          const std::string& keywords, const std::string& body) {
    sandbox.write(".memory/10-Memories/" + id + ".md",
                  "---\ntitle: \"" + title +
                      "\"\ncreated: 2026-06-01\ntags: [WORKFLOW]\ntopic: \"" + topic +
                      "\"\nkeywords: [" + keywords + "]\nsummary: \"" + title + "\"\n---\n\n# " +
                      title + "\n\n" + body + "\n");
  };
  memory("MEM-slash-command-catalog", "agent/commands", "Slash command catalog",
         "commands, tasks, project, review, lifecycle",
         "Every slash command of the project with its usage: /task creates tasks, /plan writes a "
         "plan for project tasks, /review checks commands and their output.");
  memory("MEM-project-layout", "repo/layout", "Project layout",
         "project, layout, folders, commands",
         "The project keeps its sources in src and its build commands in the Makefile; project "
         "folders follow the commands they serve.");
  memory("MEM-build-commands", "repo/build", "Build commands", "build, commands, project, release",
         "Build the project with make; the release commands strip the binary. Project commands "
         "live in the Makefile.");
  memory("MEM-editor-keybindings", "zed/keys", "Editor keybindings",
         "keybindings, keymap, editor, vim",
         "Keybindings live in keymap.json; vim mode is on, and leader commands open the project "
         "panel.");
  memory("MEM-agent-tasks", "agent/states", "Agent task states", "tasks, states, agent, project",
         "Agent tasks move through researched, planned and implemented; each project task keeps "
         "its state in state.json.");
  REQUIRE(sandbox.vault({"index"}).code == 0);
  sandbox.commit_all("vault");

  // Counted plainly, three of the four key words are the catalog's: an UPDATE that would have
  // moved the catalog into its history.
  const auto note = sandbox.vault(
      {"learn", "--title", "Zed project tasks", "--text",
       "Define build and test commands as project tasks in .zed/tasks.json. Each task has a "
       "label and a command; run it from the command palette with task: spawn. Project tasks "
       "keep the commands next to the code."});
  INFO(note.out + note.err);
  REQUIRE(note.code == 0);
  CHECK_THAT(note.out, Catch::StartsWith("CREATE MEM-zed-project-tasks"));
  // No candidate is a real match, so the note goes beside the memories whose topic its title
  // names, not beside a candidate that shares one common word.
  CHECK_THAT(sandbox.read(".memory/10-Memories/MEM-zed-project-tasks.md"),
             Catch::Contains("\ntopic: \"zed/keys\"\n"));
  CHECK(sandbox.read(".memory/10-Memories/MEM-slash-command-catalog.md").find("palette") ==
        std::string::npos);

  // Sharing the words only one memory holds still extends it.
  const auto extend = sandbox.vault(
      {"learn", "--title", "Keymap leader", "--dry-run", "--text",
       "Keybindings in keymap.json: the leader key is space, set in keymap.json with the other "
       "keybindings."});
  INFO(extend.out + extend.err);
  CHECK_THAT(extend.out, Catch::Contains("MEM-editor-keybindings"));
  CHECK_THAT(extend.out, Catch::StartsWith("UPDATE MEM-editor-keybindings") ||
                             Catch::StartsWith("EXTEND MEM-editor-keybindings"));
}

}  // namespace learn_test
