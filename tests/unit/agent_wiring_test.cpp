#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>
#include <string>

#include "core/agent/hook_config.hpp"
#include "core/agent/mcp_config.hpp"
#include "core/error.hpp"

namespace agent_wiring_test {

namespace agent = gv::agent;
using nlohmann::ordered_json;

namespace {

// A settings file written by hand: other keys, another tool's hooks, four-space indent.
constexpr std::string_view k_hand_written = R"json({
    "permissions": {
        "allow": ["Bash(make:*)"]
    },
    "hooks": {
        "PreToolUse": [
            {
                "matcher": "Bash",
                "hooks": [{"type": "command", "command": "./guard.sh"}]
            }
        ],
        "UserPromptSubmit": [
            {"hooks": [{"type": "command", "command": "date"}]}
        ]
    }
}
)json";

std::vector<agent::HookEntry> claude_entries() {
  const ordered_json run{{"type", "command"}, {"command", "git-vault agent-hook"}, {"timeout", 10}};
  return {{"SessionStart", "startup|resume|clear|compact", run},
          {"UserPromptSubmit", std::nullopt, run},
          {"PostToolUseFailure", std::nullopt, run}};
}

}  // namespace

TEST_CASE("hooks merge into a hand-written settings file and come out byte for byte",
          "[agent][wiring]") {
  const agent::HookEdit added =
      agent::add_hooks(".claude/settings.json", k_hand_written, claude_entries());
  CHECK(added.events ==
        std::vector<std::string>{"SessionStart", "UserPromptSubmit", "PostToolUseFailure"});
  const ordered_json merged = ordered_json::parse(added.text);
  CHECK(merged["permissions"]["allow"][0] == "Bash(make:*)");
  CHECK(merged["hooks"]["PreToolUse"][0]["hooks"][0]["command"] == "./guard.sh");
  REQUIRE(merged["hooks"]["UserPromptSubmit"].size() == 2);
  CHECK(merged["hooks"]["UserPromptSubmit"][0]["hooks"][0]["command"] == "date");
  CHECK(merged["hooks"]["UserPromptSubmit"][1]["hooks"][0]["command"] == "git-vault agent-hook");
  CHECK(merged["hooks"]["SessionStart"][0]["matcher"] == "startup|resume|clear|compact");
  // The other lines are untouched: the hand-written hook keeps its one-line layout.
  CHECK_THAT(added.text,
             Catch::Contains(R"("hooks": [{"type": "command", "command": "./guard.sh"}])"));
  CHECK_THAT(added.text, Catch::Contains("\n        \"SessionStart\": [\n            {\n"));

  SECTION("again: nothing to add") {
    const agent::HookEdit again =
        agent::add_hooks(".claude/settings.json", added.text, claude_entries());
    CHECK(again.events.empty());
    CHECK(again.text == added.text);
  }
  SECTION("removed: the hand-written file is back") {
    const agent::HookEdit removed = agent::remove_hooks(".claude/settings.json", added.text);
    CHECK(removed.text == k_hand_written);
    CHECK(agent::hooked_events(removed.text).empty());
  }
  SECTION("status names the events") {
    CHECK(agent::hooked_events(added.text) ==
          std::vector<std::string>{"UserPromptSubmit", "SessionStart", "PostToolUseFailure"});
  }
}

TEST_CASE("hooks into no file make a file that removal empties", "[agent][wiring]") {
  const agent::HookEdit added =
      agent::add_hooks(".claude/settings.json", std::nullopt, claude_entries());
  CHECK(ordered_json::parse(added.text)["hooks"].size() == 3);
  CHECK_THAT(added.text, Catch::StartsWith("{\n  \"hooks\": {\n    \"SessionStart\": [\n"));
  const agent::HookEdit removed = agent::remove_hooks(".claude/settings.json", added.text);
  CHECK(removed.text == "{}\n");
  CHECK(agent::empty_document(removed.text));
}

TEST_CASE("a handler the user put beside git-vault's stays when git-vault's goes",
          "[agent][wiring]") {
  const std::string text = R"({"hooks": {"Stop": [{"hooks": [
    {"type": "command", "command": "git-vault agent-hook"},
    {"type": "command", "command": "notify-send done"}]}]}})";
  const agent::HookEdit removed = agent::remove_hooks("s.json", text);
  const ordered_json left = ordered_json::parse(removed.text);
  REQUIRE(left["hooks"]["Stop"][0]["hooks"].size() == 1);
  CHECK(left["hooks"]["Stop"][0]["hooks"][0]["command"] == "notify-send done");
}

TEST_CASE("settings git-vault cannot merge into are refused, naming the line", "[agent][wiring]") {
  CHECK_THROWS_WITH(
      agent::add_hooks(".claude/settings.json", "{\n  \"a\": 1,\n}\n", claude_entries()),
      Catch::Contains(".claude/settings.json:3: not valid JSON"));
  CHECK_THROWS_WITH(agent::add_hooks("s.json", "[]", claude_entries()),
                    Catch::Contains("s.json: not a JSON object"));
  CHECK_THROWS_WITH(agent::add_hooks("s.json", R"({"hooks": []})", claude_entries()),
                    Catch::Contains("`hooks` is not an object"));
  CHECK_THROWS_WITH(
      agent::add_hooks("s.json", R"({"hooks": {"SessionStart": {}}})", claude_entries()),
      Catch::Contains("`hooks.SessionStart` is not a list"));
}

TEST_CASE("the MCP server goes into any servers key and out only as written",
          "[agent][wiring][mcp]") {
  const ordered_json entry{{"type", "stdio"}, {"command", "git-vault"}, {"args", {"mcp"}}};
  const std::string existing =
      "{\n  \"servers\": {\n    \"db\": {\"command\": \"db-mcp\"}\n  }\n}\n";
  const std::optional<std::string> added =
      agent::add_mcp_server(".vscode/mcp.json", existing, "servers", entry);
  REQUIRE(added);
  CHECK(agent::has_mcp_server(*added, "servers"));
  CHECK(ordered_json::parse(*added)["servers"]["db"]["command"] == "db-mcp");
  CHECK_FALSE(agent::add_mcp_server(".vscode/mcp.json", *added, "servers", entry));
  const agent::McpRemoval removal =
      agent::remove_mcp_server(".vscode/mcp.json", *added, "servers", entry);
  REQUIRE(removal.text);
  CHECK(*removal.text == existing);

  ordered_json changed = ordered_json::parse(*added);
  changed["servers"]["git-vault"]["args"] = {"mcp", "--allow-write"};
  const agent::McpRemoval kept =
      agent::remove_mcp_server(".vscode/mcp.json", changed.dump(2), "servers", entry);
  CHECK_FALSE(kept.text);
  CHECK(kept.changed);

  const std::optional<std::string> fresh =
      agent::add_mcp_server(".cursor/mcp.json", std::nullopt, "mcpServers", entry);
  REQUIRE(fresh);
  CHECK(agent::empty_document(
      *agent::remove_mcp_server(".cursor/mcp.json", *fresh, "mcpServers", entry).text));
}

TEST_CASE("Codex's TOML gets the server table appended and loses exactly it",
          "[agent][wiring][mcp]") {
  const std::string existing = "model = \"o4\"\n\n[mcp_servers.db]\ncommand = \"db-mcp\"\n";
  const std::optional<std::string> added = agent::add_codex_server(existing);
  REQUIRE(added);
  CHECK(*added == existing + "\n" + std::string(agent::k_codex_server_table));
  CHECK(agent::has_codex_server(*added));
  CHECK_FALSE(agent::add_codex_server(*added));
  CHECK(*agent::remove_codex_server(*added).text == existing);
  CHECK(agent::add_codex_server(std::nullopt) == std::string(agent::k_codex_server_table));
  CHECK(agent::remove_codex_server(agent::k_codex_server_table).text == std::string());

  const std::string by_hand = "[mcp_servers.\"git-vault\"]\ncommand = \"/opt/git-vault\"\n";
  CHECK_FALSE(agent::add_codex_server(by_hand));
  const agent::McpRemoval kept = agent::remove_codex_server(by_hand);
  CHECK_FALSE(kept.text);
  CHECK(kept.changed);
}

}  // namespace agent_wiring_test
