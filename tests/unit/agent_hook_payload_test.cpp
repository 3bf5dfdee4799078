#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "core/agent/hook_payload.hpp"

namespace agent_hook_payload_test {

namespace agent = gv::agent;
using nlohmann::json;

namespace {

agent::HookPayload read(std::string_view text) {
  auto payload = agent::read_hook_payload(text);
  REQUIRE(std::holds_alternative<agent::HookPayload>(payload));
  return std::get<agent::HookPayload>(payload);
}

std::string why(std::string_view text) {
  auto payload = agent::read_hook_payload(text);
  REQUIRE(std::holds_alternative<std::string>(payload));
  return std::get<std::string>(payload);
}

}  // namespace

TEST_CASE("hook payloads of each agent are read into one shape", "[agent][hook]") {
  const agent::HookPayload start = read(
      R"({"session_id":"abc-1","transcript_path":"/t.jsonl","cwd":"/repo","hook_event_name":"SessionStart","source":"startup"})");
  CHECK(start.kind == agent::HookKind::session_start);
  CHECK(start.agent_session == "abc-1");
  CHECK(start.cwd == "/repo");

  const agent::HookPayload prompt = read(
      R"({"session_id":"abc-1","cwd":"/repo","hook_event_name":"UserPromptSubmit","prompt":"fix the retry"})");
  CHECK(prompt.kind == agent::HookKind::prompt);
  CHECK(prompt.prompt == "fix the retry");
  CHECK(read(R"({"hook_event_name":"BeforeAgent","prompt":"x"})").kind == agent::HookKind::prompt);

  const agent::HookPayload failure =
      read(R"({"session_id":"abc-1","hook_event_name":"PostToolUseFailure","tool_name":"Bash",)"
           R"("tool_input":{"command":"make test"},"tool_use_id":"toolu_1","error":"exit 2"})");
  CHECK(failure.kind == agent::HookKind::tool_failure);
  CHECK(failure.error == "exit 2");
  CHECK(read(R"({"hook_event_name":"PostToolUseFailure","tool_name":"Bash","is_interrupt":true})")
            .kind == agent::HookKind::other);

  const agent::HookPayload gemini = read(
      R"({"hook_event_name":"AfterTool","tool_name":"run_shell_command","tool_input":{"command":"ls"},)"
      R"("tool_response":{"llmContent":"","error":{"message":"No such file"}}})");
  CHECK(gemini.kind == agent::HookKind::tool_failure);
  CHECK(gemini.error == "No such file");
  CHECK(read(R"({"hook_event_name":"AfterTool","tool_response":{"llmContent":"ok"}})").kind ==
        agent::HookKind::other);
  CHECK(read(R"({"hook_event_name":"Stop","stop_hook_active":false})").kind ==
        agent::HookKind::other);
  CHECK(read(R"({"hook_event_name":"SessionEnd","reason":"exit"})").kind ==
        agent::HookKind::session_end);
}

TEST_CASE("payloads that are not payloads say why", "[agent][hook]") {
  CHECK(why("") == "no hook payload on stdin");
  CHECK(why("  \n") == "no hook payload on stdin");
  CHECK(why("{\"hook_event_name\":") == "the hook payload is not valid JSON");
  CHECK(why("[1]") == "the hook payload is not a JSON object");
  CHECK(why(R"({"session_id":"x"})") == "the hook payload names no hook_event_name");
}

TEST_CASE("a tool failure's place is its tool and target", "[agent][hook]") {
  const std::filesystem::path root = "/repo";
  const auto target = [&](std::string_view tool, std::string_view input) {
    return agent::tool_target(tool, json::parse(input), root);
  };
  CHECK(target("Bash", R"({"command":"make test -j2 2>&1"})") == "make test");
  CHECK(target("Bash", R"({"command":"cd build && CC=gcc make engine"})") == "make engine");
  CHECK(target("Bash", R"({"command":"sudo ./scripts/deploy.sh --fast prod"})") ==
        "deploy.sh prod");
  CHECK(target("Bash", R"({"command":"python3 -m pytest tests/test_x.py"})") == "python3 pytest");
  CHECK(target("Bash", R"({"command":"cd sub"})").empty());
  CHECK(target("Edit", R"({"file_path":"/repo/src/engine.cpp","old_string":"a"})") ==
        "src/engine.cpp");
  CHECK(target("Read", R"({"file_path":"/etc/hosts"})") == "/etc/hosts");
  CHECK(target("WebFetch", R"({"url":"https://example.com/a/b"})") == "example.com");
  CHECK(target("Grep", R"({"pattern":"TODO\nmore"})") == "TODO");
  CHECK(target("Task", R"("text")").empty());
}

TEST_CASE("a tool failure is a blocker at its place; a session end a milestone", "[agent][hook]") {
  const agent::HookPayload failure = read(
      R"({"session_id":"abc-1","hook_event_name":"PostToolUseFailure","tool_name":"Bash",)"
      R"("tool_input":{"command":"make engine"},"error":"engine.c:3: undefined reference to\n  `engine_init'"})");
  const std::optional<agent::HookEvent> event = agent::hook_event(failure, "/repo", "claude");
  REQUIRE(event);
  CHECK(event->category == "blocker");
  CHECK(event->event_type == "tool_failure");
  CHECK(event->checkpoint == "Bash:make engine");
  CHECK(event->message == "Bash failed at make engine: engine.c:3: undefined reference to");
  CHECK(event->detail["tool_name"] == "Bash");
  CHECK(event->detail["target"] == "make engine");
  CHECK(event->detail["error"] == "engine.c:3: undefined reference to\n  `engine_init'");

  const std::optional<agent::HookEvent> end = agent::hook_event(
      read(R"({"hook_event_name":"SessionEnd","reason":"clear"})"), "/repo", "gemini");
  REQUIRE(end);
  CHECK(end->category == "milestone");
  CHECK(end->message == "Gemini CLI session ended (clear)");
  CHECK_FALSE(agent::hook_event(read(R"({"hook_event_name":"Stop"})"), "/repo", "claude"));
}

}  // namespace agent_hook_payload_test
