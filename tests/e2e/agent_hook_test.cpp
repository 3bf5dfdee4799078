#include <fcntl.h>
#include <fmt/format.h>
#include <sys/file.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <chrono>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <set>
#include <thread>

#include "tests/e2e/sandbox.hpp"
#include "tests/e2e/vault_fixture.hpp"

namespace agent_hook_test {

using gv::test::Result;
using gv::test::Sandbox;
using nlohmann::json;

namespace {

// The memory the task is about, and one beside it.
void write_vault(Sandbox& sandbox) {
  sandbox.write(".memory/10-Memories/MEM-engine-build.md",
                "---\ntitle: \"Build the engine with make engine\"\ncreated: 2026-10-01\n"
                "tags: [WORKFLOW]\ntopic: \"build/engine\"\nsource: \"user input\"\n"
                "keywords: [engine, build, undefined, reference, linker]\n"
                "summary: \"make engine builds and links the engine library\"\n---\n\n"
                "# Build the engine with make engine\n\nRun `make engine`; it links engine_init "
                "from libengine.\n\n## Connections\n");
  sandbox.write(".memory/10-Memories/MEM-docs-style.md",
                "---\ntitle: \"Docs use sentence case\"\ncreated: 2026-10-01\ntags: [PATTERN]\n"
                "topic: \"docs\"\nkeywords: [docs, headings, style]\n"
                "summary: \"Headings in sentence case\"\n---\n\n# Docs use sentence case\n\n"
                "Headings are in sentence case.\n\n## Connections\n");
  REQUIRE(sandbox.vault({"index"}).code == 0);
  sandbox.commit_all("vault");
}

// What Claude Code sends, in the shapes of its hooks reference.
std::string session_start(std::string_view session) {
  return fmt::format(
      R"({{"session_id":"{}","transcript_path":"/home/u/.claude/projects/p/{}.jsonl",)"
      R"("cwd":"{{cwd}}","permission_mode":"default","hook_event_name":"SessionStart",)"
      R"("source":"startup","model":"claude-sonnet-4-5"}})",
      session, session);
}

std::string prompt_submit(std::string_view session, std::string_view prompt) {
  return fmt::format(
      R"({{"session_id":"{}","transcript_path":"/home/u/.claude/projects/p/{}.jsonl",)"
      R"("cwd":"{{cwd}}","permission_mode":"default","hook_event_name":"UserPromptSubmit",)"
      R"("prompt":"{}"}})",
      session, session, prompt);
}

std::string tool_failure(std::string_view session) {
  return fmt::format(
      R"({{"session_id":"{}","transcript_path":"/home/u/.claude/projects/p/{}.jsonl",)"
      R"("cwd":"{{cwd}}","permission_mode":"default","hook_event_name":"PostToolUseFailure",)"
      R"("tool_name":"Bash","tool_input":{{"command":"make engine","description":"Build"}},)"
      R"("tool_use_id":"toolu_01","error":"engine.c:3: undefined reference to `engine_init'\n)"
      R"(collect2: error: ld returned 1 exit status","is_interrupt":false}})",
      session, session);
}

std::string session_end(std::string_view session) {
  return fmt::format(R"({{"session_id":"{}","transcript_path":"/t.jsonl","cwd":"{{cwd}}",)"
                     R"("hook_event_name":"SessionEnd","reason":"prompt_input_exit"}})",
                     session);
}

// Runs the hook as Claude Code would: the project directory in CLAUDE_PROJECT_DIR, the payload
// on stdin.
Result hook(Sandbox& sandbox, std::string payload) {
  const std::string cwd = sandbox.root().string();
  for (std::size_t at = payload.find("{cwd}"); at != std::string::npos;
       at = payload.find("{cwd}")) {
    payload.replace(at, 5, cwd);
  }
  return sandbox.vault({"agent-hook"}, payload);
}

std::size_t lines(const std::string& text) {
  return static_cast<std::size_t>(std::count(text.begin(), text.end(), '\n'));
}

}  // namespace

TEST_CASE(
    "three Claude Code sessions of one task, played through the hooks, contradict its "
    "memory and land their retrievals in the next maintenance commit",
    "[agent-hook]") {
  Sandbox sandbox;
  write_vault(sandbox);
  sandbox.set_env("CLAUDE_PROJECT_DIR", sandbox.root().string());
  const std::string task = "make engine fails with an undefined reference, fix the engine build";
  const std::string expected_block = sandbox.vault({"context", task}).out;
  REQUIRE_THAT(expected_block, Catch::StartsWith("<memory-context>"));
  REQUIRE_THAT(expected_block, Catch::Contains("Build the engine with make engine"));

  const std::vector<std::string> sessions{"3f9c2a10-8b4e-4c3d-9a1f-6e2d5c7b8a90",
                                          "7c1d0e22-1111-4c3d-9a1f-000000000002",
                                          "9a8b7c6d-2222-4c3d-9a1f-000000000003"};
  for (std::size_t i = 0; i < sessions.size(); ++i) {
    sandbox.set_env("GIT_VAULT_NOW", fmt::format("2026-11-2{}T10:00:00Z", 7 + i));
    const Result start = hook(sandbox, session_start(sessions[i]));
    INFO(start.err);
    CHECK(start.code == 0);
    CHECK(start.out == sandbox.vault({"context", "--session"}).out);

    const Result prompt = hook(sandbox, prompt_submit(sessions[i], task));
    INFO(prompt.err);
    CHECK(prompt.code == 0);
    CHECK(prompt.out == expected_block);  // exactly what `git vault context` gives, and only it

    const Result failure = hook(sandbox, tool_failure(sessions[i]));
    INFO(failure.err);
    CHECK(failure.code == 0);
    CHECK(failure.out.empty());

    const Result end = hook(sandbox, session_end(sessions[i]));
    CHECK(end.code == 0);
    CHECK(end.out.empty());
  }
  sandbox.set_env("GIT_VAULT_NOW", "2026-11-30T12:00:00Z");

  // Nothing the gate looks at moved: the journals live in the git directory.
  CHECK(sandbox.git({"status", "--porcelain"}).out.empty());
  CHECK(sandbox.vault({"check"}).code == 0);
  CHECK(sandbox.vault({"check", "--worktree"}).code == 0);

  // The events: three failures at one place in three sessions, each with Claude's session id.
  const Result events =
      sandbox.vault({"events", "--category", "blocker", "--format", "json-array"});
  const json failures = json::parse(events.out);
  REQUIRE(failures.size() == 3);
  std::set<std::string> session_ids;
  for (std::size_t i = 0; i < 3; ++i) {
    CHECK(failures[i]["checkpoint"] == "Bash:make engine");
    CHECK(failures[i]["event_type"] == "tool_failure");
    CHECK(failures[i]["cc_session_id"] == sessions[i]);
    CHECK(failures[i]["cwd"] == sandbox.root().string());
    session_ids.insert(failures[i]["session_id"].get<std::string>());
  }
  CHECK(session_ids.size() == 3);
  CHECK(json::parse(sandbox.vault({"events", "--format", "summary-counts"})
                        .out)["by_category"]["milestone"] == 3);

  // Three strikes at one place: the memory of that task is contradicted.
  const Result revise = sandbox.vault({"distill", "--revise", "--dry-run", "--json"});
  INFO(revise.err);
  REQUIRE(revise.code == 0);
  const json plan = json::parse(revise.out);
  CHECK(plan["classification"]["contradicted"] == 1);
  REQUIRE(plan["candidates"].size() >= 1);
  CHECK(plan["candidates"][0]["key"] == "MEM-engine-build");
  CHECK(plan["candidates"][0]["rule"] == "three-strikes");

  // The retrievals the prompts recorded count now, and land in the next maintenance commit.
  const std::string before = sandbox.git({"rev-parse", "HEAD"}).out;
  const Result record = sandbox.vault({"distill", "--record"});
  INFO(record.err);
  REQUIRE(record.code == 0);
  const std::string subjects = sandbox.git({"log", "-3", "--format=%s"}).out;
  CHECK_THAT(subjects, Catch::StartsWith("vault(report): "));
  CHECK_THAT(subjects, Catch::EndsWith("\nvault(events): fold 6 events into specs/events.jsonl\n"
                                       "vault(retrievals): fold 3 retrievals into 1 memory\n"));
  CHECK(sandbox.git({"rev-parse", "HEAD~3"}).out == before);
  CHECK_THAT(sandbox.read(".memory/10-Memories/MEM-engine-build.md"),
             Catch::Contains("retrieval_count: 3"));
  CHECK(lines(sandbox.read("specs/events.jsonl")) == 6);
  CHECK(sandbox.git({"status", "--porcelain"}).out.empty());
  CHECK(sandbox.vault({"check"}).code == 0);
  // Folded, not doubled: the store holds them once, the journals are empty.
  CHECK(json::parse(sandbox.vault({"events", "--format", "summary-counts"}).out)["total_events"] ==
        6);
  CHECK(sandbox.read(".git/git-vault/events.jsonl").empty());
  CHECK(sandbox.read(".git/git-vault/retrievals.jsonl").empty());
}

TEST_CASE("the prompt hook records the retrievals with the session, and is silent on no match",
          "[agent-hook]") {
  Sandbox sandbox;
  write_vault(sandbox);
  sandbox.set_env("CLAUDE_PROJECT_DIR", sandbox.root().string());
  const Result prompt = hook(sandbox, prompt_submit("s-1", "the engine build and its linker"));
  CHECK(prompt.code == 0);
  CHECK_THAT(prompt.out, Catch::StartsWith("<memory-context>"));
  const std::string journal = sandbox.read(".git/git-vault/retrievals.jsonl");
  CHECK(journal == R"({"id":"MEM-engine-build","date":"2026-11-30","via":"hook","session":"s-1"})"
                   "\n");

  const Result silent = hook(sandbox, prompt_submit("s-1", "what is the weather on mars"));
  CHECK(silent.code == 0);
  CHECK(silent.out.empty());
  CHECK_THAT(silent.err,
             Catch::Contains("no memory or working-memory entry is relevant to this prompt"));
  CHECK(sandbox.read(".git/git-vault/retrievals.jsonl") == journal);
}

TEST_CASE("whatever goes wrong, the hook prints nothing, says why on stderr and exits 0",
          "[agent-hook]") {
  Sandbox sandbox;
  write_vault(sandbox);
  sandbox.set_env("CLAUDE_PROJECT_DIR", sandbox.root().string());
  const auto quiet_failure = [](const Result& result, std::string_view why) {
    INFO(result.err);
    CHECK(result.code == 0);
    CHECK(result.out.empty());
    CHECK_THAT(result.err, Catch::Contains(std::string(why)));
    CHECK_THAT(result.err, Catch::StartsWith("git-vault: warning: agent-hook:"));
  };
  quiet_failure(sandbox.vault({"agent-hook"}, ""), "no hook payload on stdin");
  quiet_failure(sandbox.vault({"agent-hook"}, "{\"hook_event_name\": \"Sess"), "not valid JSON");
  quiet_failure(sandbox.vault({"agent-hook"}, "[]"), "not a JSON object");
  quiet_failure(sandbox.vault({"agent-hook"}, R"({"session_id":"x"})"), "no hook_event_name");

  SECTION("no vault") {
    Sandbox empty;
    empty.set_env("CLAUDE_PROJECT_DIR", empty.root().string());
    quiet_failure(hook(empty, session_start("s")), "no memory vault");
  }
  SECTION("no repository") {
    Sandbox other;
    std::filesystem::remove_all(other.path(".git"));
    other.set_env("CLAUDE_PROJECT_DIR", other.root().string());
    other.set_env("GIT_CEILING_DIRECTORIES", other.root().parent_path().string());
    quiet_failure(hook(other, prompt_submit("s", "engine build")), "repository");
  }
  SECTION("a vault with errors: the unreadable memory is named, the rest still answers") {
    sandbox.write(".memory/10-Memories/MEM-broken.md", "---\ntitle: [unclosed\n---\n\n# x\n");
    const Result broken = hook(sandbox, prompt_submit("s", "broken unclosed"));
    CHECK(broken.code == 0);
    CHECK(broken.out.empty());
    CHECK_THAT(broken.err, Catch::Contains("MEM-broken.md cannot be read"));
    const Result rest = hook(sandbox, prompt_submit("s", "the engine build and its linker"));
    CHECK(rest.code == 0);
    CHECK_THAT(rest.out, Catch::StartsWith("<memory-context>"));
  }
  SECTION(
      "journals held by a maintenance commit: the context still comes, the record waits "
      "no longer than the cap") {
    sandbox.set_env("GIT_VAULT_AGENT_HOOK_TIMEOUT_MS", "1500");
    REQUIRE(hook(sandbox, prompt_submit("s", "the engine build and its linker")).code == 0);
    const std::string journal = sandbox.path(".git/git-vault/retrievals.jsonl").string();
    const int held = ::open(journal.c_str(), O_RDWR | O_CLOEXEC);
    REQUIRE(held >= 0);
    REQUIRE(::flock(held, LOCK_EX) == 0);
    const auto start = std::chrono::steady_clock::now();
    const Result prompt = hook(sandbox, prompt_submit("s", "the engine build and its linker"));
    const auto took = std::chrono::steady_clock::now() - start;
    ::close(held);
    CHECK(prompt.code == 0);
    CHECK_THAT(prompt.out, Catch::StartsWith("<memory-context>"));
    CHECK_THAT(prompt.err, Catch::Contains("retrievals not recorded"));
    CHECK(took < std::chrono::seconds(5));
    CHECK(lines(sandbox.read(".git/git-vault/retrievals.jsonl")) == 1);
  }
  SECTION("a payload that never ends is given up at the time cap") {
    sandbox.set_env("GIT_VAULT_AGENT_HOOK_TIMEOUT_MS", "300");
    const auto start = std::chrono::steady_clock::now();
    const Result stuck =
        sandbox.sh("rm -f pipe && mkfifo pipe && exec 3<>pipe && git-vault agent-hook <&3");
    const auto took = std::chrono::steady_clock::now() - start;
    CHECK(stuck.code == 0);
    CHECK(stuck.out.empty());
    CHECK_THAT(stuck.err, Catch::Contains("no answer within 300 ms"));
    CHECK(took < std::chrono::seconds(3));
  }
}

TEST_CASE("Gemini CLI and Codex get the context as their hooks' JSON", "[agent-hook]") {
  Sandbox sandbox;
  write_vault(sandbox);
  sandbox.set_env("CLAUDE_PROJECT_DIR", sandbox.root().string());
  const std::string payload =
      R"({"session_id":"g-1","cwd":"/x","hook_event_name":"BeforeAgent",)"
      R"("timestamp":"2026-11-30T12:00:00Z","prompt":"the engine build and its linker"})";
  const Result gemini = sandbox.vault({"agent-hook", "--agent", "gemini"}, payload);
  REQUIRE(gemini.code == 0);
  const json answer = json::parse(gemini.out);
  CHECK(answer["hookSpecificOutput"]["hookEventName"] == "BeforeAgent");
  CHECK_THAT(answer["hookSpecificOutput"]["additionalContext"].get<std::string>(),
             Catch::StartsWith("<memory-context>"));

  const Result failed = sandbox.vault(
      {"agent-hook", "--agent", "gemini"},
      R"({"session_id":"g-1","cwd":"/x","hook_event_name":"AfterTool","tool_name":"run_shell_command",)"
      R"("tool_input":{"command":"make engine"},"tool_response":{"error":{"message":"exit 2"}}})");
  CHECK(failed.code == 0);
  CHECK(failed.out.empty());
  const json stored = json::parse(sandbox.vault({"events", "--format", "json-array"}).out);
  REQUIRE(stored.size() == 1);
  CHECK(stored[0]["checkpoint"] == "run_shell_command:make engine");

  const Result codex = sandbox.vault(
      {"agent-hook", "--agent", "codex"},
      R"({"session_id":"c-1","cwd":"/x","hook_event_name":"SessionStart","source":"startup"})");
  REQUIRE(codex.code == 0);
  CHECK(json::parse(codex.out)["hookSpecificOutput"]["hookEventName"] == "SessionStart");
}

TEST_CASE("the session start exports the agent session, so the agent's own events join it",
          "[agent-hook]") {
  Sandbox sandbox;
  write_vault(sandbox);
  sandbox.set_env("CLAUDE_PROJECT_DIR", sandbox.root().string());
  sandbox.set_env("CLAUDE_ENV_FILE", sandbox.path(".home/env.sh").string());
  REQUIRE(hook(sandbox, session_start("5e5510a1-0000-4000-8000-000000000001")).code == 0);
  CHECK(sandbox.read(".home/env.sh") ==
        "export GIT_VAULT_AGENT_SESSION=5e5510a1-0000-4000-8000-000000000001\n");
  REQUIRE(hook(sandbox, tool_failure("5e5510a1-0000-4000-8000-000000000001")).code == 0);
  const Result added = sandbox.sh(
      ". .home/env.sh && git-vault events add --category deviation --type plan_change "
      "--message 'Built engine with cmake instead'");
  INFO(added.err);
  REQUIRE(added.code == 0);
  const json rows = json::parse(sandbox.vault({"events", "--format", "json-array"}).out);
  REQUIRE(rows.size() == 2);
  CHECK(rows[1]["cc_session_id"] == "5e5510a1-0000-4000-8000-000000000001");
  CHECK(rows[1]["session_id"] == rows[0]["session_id"]);
}

TEST_CASE("a working memory without a vault still answers the prompt hook", "[agent-hook]") {
  Sandbox sandbox;
  sandbox.write("memory/registers/decisions.md",
                "# Decisions\n\n- **Decision**: Do NOT add `readonly` to the emitter's listener "
                "fields; setDefaultMaxListeners mutates them ^tr00000000a1\n");
  sandbox.commit_all("working memory");
  sandbox.set_env("CLAUDE_PROJECT_DIR", sandbox.root().string());
  const Result prompt = hook(sandbox, prompt_submit("s-1", "make the emitter fields readonly"));
  INFO(prompt.err);
  CHECK(prompt.code == 0);
  CHECK_THAT(prompt.out, Catch::StartsWith("<memory-context>"));
  CHECK_THAT(prompt.out,
             Catch::Contains("### Working memory") && Catch::Contains("Do NOT add `readonly`"));
}

// A large vault's first prompt builds the search and parse caches, which can take longer than
// the time cap. The run cut short starts a warm-up of its own that builds and saves them, so the
// next prompt answers in time instead of being cut short again (doc/agent.md, "Agent hooks").
TEST_CASE("a prompt cut short by the time cap leaves the caches to a warm-up of their own",
          "[agent-hook]") {
  Sandbox sandbox;
  for (int i = 0; i < 300; ++i) {
    sandbox.write(fmt::format(".memory/10-Memories/MEM-n{:03}.md", i),
                  gv::test::memory_file(fmt::format("Engine note {}", i), "2026-11-20",
                                        "engine, linker", 0, "null", {}, 60));
  }
  REQUIRE(sandbox.vault({"index"}).code == 0);
  sandbox.commit_all("vault");
  sandbox.set_env("CLAUDE_PROJECT_DIR", sandbox.root().string());
  const std::filesystem::path cache = sandbox.path(".git/git-vault/search-cache");
  std::filesystem::remove(cache);

  // A cap the payload fits in and the cold build does not.
  sandbox.set_env("GIT_VAULT_AGENT_HOOK_TIMEOUT_MS", "10");
  const Result cut = hook(sandbox, prompt_submit("s", "the engine linker"));
  CHECK(cut.code == 0);
  CHECK(cut.out.empty());
  REQUIRE_THAT(cut.err, Catch::Contains("no answer within 10 ms"));

  // The warm-up saves the search cache, then lets its lock go.
  const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  const std::string lock = sandbox.path(".git/git-vault/warm-up.lock").string();
  bool done = false;
  while (!done && std::chrono::steady_clock::now() < until) {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    const int fd = ::open(lock.c_str(), O_RDWR | O_CLOEXEC);
    if (fd >= 0) {
      done = std::filesystem::exists(cache) && ::flock(fd, LOCK_EX | LOCK_NB) == 0;
      ::close(fd);
    }
  }
  REQUIRE(done);

  sandbox.set_env("GIT_VAULT_AGENT_HOOK_TIMEOUT_MS", "20000");
  const Result warm = hook(sandbox, prompt_submit("s", "the engine linker"));
  INFO(warm.err);
  CHECK(warm.code == 0);
  CHECK_THAT(warm.out, Catch::StartsWith("<memory-context>"));
}

}  // namespace agent_hook_test
