#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "tests/e2e/sandbox.hpp"

namespace agent_wiring_test {

using gv::test::Result;
using gv::test::Sandbox;
using nlohmann::json;

namespace {

// A hand-written Claude Code settings file: permissions, another tool's hooks, odd spacing.
constexpr std::string_view k_settings = R"json({
  "permissions": {"allow": ["Bash(make:*)"], "deny": []},
  "hooks": {
    "PreToolUse": [
      { "matcher": "Bash", "hooks": [ { "type": "command", "command": "./guard.sh" } ] }
    ]
  },
  "model": "opus"
}
)json";

}  // namespace

TEST_CASE("init --agent claude wires Claude Code and says so, line by line", "[agent][wiring]") {
  Sandbox sandbox;
  const Result init = sandbox.vault({"init", "--agent", "claude"});
  INFO(init.err);
  REQUIRE(init.code == 0);
  CHECK_THAT(init.out, Catch::Contains("created .claude/settings.json: hooks SessionStart, "
                                       "UserPromptSubmit, PostToolUseFailure, SessionEnd run "
                                       "`git-vault agent-hook`\n"));
  CHECK_THAT(init.out, Catch::Contains("created .mcp.json: the git-vault MCP server\n"));
  CHECK_THAT(init.out, Catch::Contains("created .claude/skills/git-vault-memory/SKILL.md"));
  CHECK_THAT(init.out, Catch::Contains("next: git add .claude .gitattributes .mcp.json .memory"));
  const json settings = json::parse(sandbox.read(".claude/settings.json"));
  CHECK(settings["hooks"]["SessionStart"][0]["matcher"] == "startup|resume|clear|compact");
  CHECK(settings["hooks"]["UserPromptSubmit"][0]["hooks"][0]["command"] == "git-vault agent-hook");
  CHECK(settings["hooks"]["PostToolUseFailure"][0]["hooks"][0]["timeout"] == 10);
  CHECK(json::parse(sandbox.read(".mcp.json"))["mcpServers"]["git-vault"]["args"] == json{"mcp"});
  CHECK_THAT(sandbox.read(".claude/skills/git-vault-memory/SKILL.md"),
             Catch::StartsWith("---\nname: git-vault-memory\n"));

  // Committed, the gate passes and the work tree is clean.
  REQUIRE(sandbox.git({"add", "-A"}).code == 0);
  REQUIRE(sandbox.git({"commit", "-q", "-m", "vault"}).code == 0);
  CHECK(sandbox.git({"status", "--porcelain"}).out.empty());

  // Again: nothing to do, nothing rewritten.
  const std::string before = sandbox.read(".claude/settings.json");
  const Result again = sandbox.vault({"init", "--agent", "claude"});
  CHECK(again.code == 0);
  CHECK_THAT(again.out, Catch::Contains("already set up"));
  CHECK(sandbox.read(".claude/settings.json") == before);

  // The wiring comes out; the files init made for it go.
  const Result removed = sandbox.vault({"init", "--no-agent"});
  INFO(removed.err);
  REQUIRE(removed.code == 0);
  CHECK_THAT(removed.out, Catch::Contains("removed from .claude/settings.json: hooks"));
  CHECK_THAT(removed.out, Catch::Contains("removed .claude/skills/git-vault-memory/SKILL.md"));
  CHECK_FALSE(sandbox.exists(".claude"));
  CHECK_FALSE(sandbox.exists(".mcp.json"));
  CHECK(sandbox.exists(".memory/memory-index.json"));
}

TEST_CASE("a hand-written settings file keeps every byte through init --agent and back",
          "[agent][wiring]") {
  Sandbox sandbox;
  sandbox.write(".claude/settings.json", k_settings);
  sandbox.write(".mcp.json", "{\"mcpServers\": {\"db\": {\"command\": \"db-mcp\"}}}\n");
  REQUIRE(sandbox.vault({"init", "--agent", "claude"}).code == 0);
  const std::string merged = sandbox.read(".claude/settings.json");
  const json settings = json::parse(merged);
  CHECK(settings["model"] == "opus");
  CHECK(settings["hooks"]["PreToolUse"][0]["hooks"][0]["command"] == "./guard.sh");
  CHECK(settings["hooks"]["SessionStart"][0]["hooks"][0]["command"] == "git-vault agent-hook");
  CHECK_THAT(
      merged,
      Catch::Contains(
          R"({ "matcher": "Bash", "hooks": [ { "type": "command", "command": "./guard.sh" } ] })"));
  CHECK(json::parse(sandbox.read(".mcp.json"))["mcpServers"]["db"]["command"] == "db-mcp");

  SECTION("init --no-agent") { REQUIRE(sandbox.vault({"init", "--no-agent"}).code == 0); }
  SECTION("hooks uninstall") {
    const Result uninstall = sandbox.vault({"hooks", "uninstall"});
    INFO(uninstall.err);
    CHECK_THAT(uninstall.out, Catch::Contains("removed from .claude/settings.json"));
  }
  CHECK(sandbox.read(".claude/settings.json") == k_settings);
  CHECK(sandbox.read(".mcp.json") == "{\"mcpServers\": {\"db\": {\"command\": \"db-mcp\"}}}\n");
  CHECK_FALSE(sandbox.exists(".claude/skills"));
}

TEST_CASE("settings init cannot merge into stop it before anything is written", "[agent][wiring]") {
  Sandbox sandbox;
  sandbox.write(".claude/settings.json", "{\n  \"hooks\": [],\n}\n");
  const Result refused = sandbox.vault({"init", "--agent", "claude"});
  CHECK(refused.code == 128);
  CHECK_THAT(refused.err, Catch::Contains(".claude/settings.json:3: not valid JSON"));
  CHECK_FALSE(sandbox.exists(".memory"));
  CHECK_FALSE(sandbox.exists(".mcp.json"));
  sandbox.write(".claude/settings.json", "{\"hooks\": []}\n");
  CHECK_THAT(sandbox.vault({"init", "--agent", "claude"}).err,
             Catch::Contains(".claude/settings.json: `hooks` is not an object"));
}

TEST_CASE("a server or skill changed by hand is the user's: --no-agent leaves it and says so",
          "[agent][wiring]") {
  Sandbox sandbox;
  REQUIRE(sandbox.vault({"init", "--agent", "claude"}).code == 0);
  json mcp = json::parse(sandbox.read(".mcp.json"));
  mcp["mcpServers"]["git-vault"]["args"] = {"mcp", "--allow-write"};
  sandbox.write(".mcp.json", mcp.dump(2));
  sandbox.write(".claude/skills/git-vault-memory/SKILL.md", "my own notes\n");
  const Result removed = sandbox.vault({"init", "--no-agent"});
  REQUIRE(removed.code == 0);
  CHECK_THAT(removed.err, Catch::Contains(".mcp.json: its git-vault MCP server is not as "
                                          "git-vault wrote it: left as it is"));
  CHECK_THAT(removed.err, Catch::Contains("SKILL.md was changed by hand: left as it is"));
  CHECK(sandbox.exists(".mcp.json"));
  CHECK(sandbox.read(".claude/skills/git-vault-memory/SKILL.md") == "my own notes\n");
  CHECK_FALSE(sandbox.exists(".claude/settings.json"));
}

TEST_CASE("init --agent writes each agent's own configuration format", "[agent][wiring]") {
  Sandbox sandbox;
  sandbox.write(".codex/config.toml", "model = \"o4\"\n");
  const Result init = sandbox.vault(
      {"init", "--agent", "cursor", "--agent", "vscode", "--agent", "gemini", "--agent", "codex"});
  INFO(init.err);
  REQUIRE(init.code == 0);
  CHECK(json::parse(sandbox.read(".cursor/mcp.json"))["mcpServers"]["git-vault"]["command"] ==
        "git-vault");
  const json vscode = json::parse(sandbox.read(".vscode/mcp.json"));
  CHECK(vscode["servers"]["git-vault"]["type"] == "stdio");
  const json gemini = json::parse(sandbox.read(".gemini/settings.json"));
  CHECK(gemini["mcpServers"]["git-vault"]["args"] == json{"mcp"});
  CHECK(gemini["hooks"]["BeforeAgent"][0]["hooks"][0]["command"] ==
        "git-vault agent-hook --agent gemini");
  CHECK(gemini["hooks"]["AfterTool"][0]["hooks"][0]["timeout"] == 10000);
  CHECK(sandbox.read(".codex/config.toml") ==
        "model = \"o4\"\n\n[mcp_servers.git-vault]\ncommand = \"git-vault\"\nargs = [\"mcp\"]\n");
  CHECK(json::parse(sandbox.read(
            ".codex/hooks.json"))["hooks"]["UserPromptSubmit"][0]["hooks"][0]["command"] ==
        "git-vault agent-hook --agent codex");
  CHECK_THAT(init.err, Catch::Contains("codex_hooks = true"));

  REQUIRE(sandbox.vault({"init", "--no-agent"}).code == 0);
  CHECK(sandbox.read(".codex/config.toml") == "model = \"o4\"\n");
  for (const std::string gone :
       {".cursor", ".vscode", ".gemini", ".codex/hooks.json", ".mcp.json", ".claude"}) {
    INFO(gone);
    CHECK_FALSE(sandbox.exists(gone));
  }
}

}  // namespace agent_wiring_test
