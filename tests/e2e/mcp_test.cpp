#include <catch2/catch.hpp>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

#include "tests/e2e/sandbox.hpp"
#include "tests/e2e/vault_fixture.hpp"

using gv::test::Sandbox;
using nlohmann::json;

namespace {

// The responses a server printed, by request id (each line one JSON-RPC message).
std::map<std::string, json> responses(const std::string& out) {
  std::map<std::string, json> by_id;
  std::istringstream lines(out);
  std::string line;
  while (std::getline(lines, line)) {
    const json message = json::parse(line);
    by_id[message["id"].dump()] = message;
  }
  return by_id;
}

std::string call(int id, const std::string& tool, const json& arguments) {
  return json{{"jsonrpc", "2.0"},
              {"id", id},
              {"method", "tools/call"},
              {"params", {{"name", tool}, {"arguments", arguments}}}}
             .dump() +
         "\n";
}

json structured(const json& response) { return response["result"]["structuredContent"]; }

}  // namespace

TEST_CASE("an MCP session over a pipe: initialize, list, every tool, errors, shutdown", "[mcp]") {
  Sandbox sandbox;
  gv::test::write_scored_vault(sandbox);
  std::string session =
      R"({"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"test","version":"1"}}})"
      "\n"
      R"({"jsonrpc":"2.0","method":"notifications/initialized"})"
      "\n"
      R"({"jsonrpc":"2.0","id":2,"method":"tools/list"})"
      "\n";
  session += call(3, "search_memories", {{"q", "gamma"}, {"max_results", 5}});
  session += call(4, "get_memory", {{"id", "MEM-gamma"}});
  session += call(5, "build_context", {{"task", "the gamma notes"}, {"type", "python/x"}});
  session += call(6, "list_memories", {{"category", "pattern"}, {"limit", 2}});
  session += call(7, "record_retrieval", {{"ids", {"MEM-beta"}}});
  session += call(8, "write_memory", {{"title", "Kiwi facts"}, {"content", "Kiwis are birds."}});
  session += "{this is not json\n";
  session += call(9, "no_such_tool", json::object());
  session += call(10, "get_memory", {{"id", "MEM-gama"}});
  session += call(11, "search_memories", {{"limit", 3}});
  session += R"({"jsonrpc":"2.0","id":12,"method":"ping"})"
             "\n";

  const auto result = sandbox.vault({"mcp"}, session);
  INFO(result.err);
  CHECK(result.code == 0);  // the client closed stdin: a clean shutdown
  auto by_id = responses(result.out);

  CHECK(by_id["1"]["result"]["protocolVersion"] == "2025-06-18");
  CHECK(by_id["1"]["result"]["serverInfo"]["name"] == "git-vault");

  const json tools = by_id["2"]["result"]["tools"];
  std::vector<std::string> names;
  for (const json& tool : tools) {
    names.push_back(tool["name"]);
    CHECK(tool["inputSchema"]["type"] == "object");
    CHECK(tool["annotations"].contains("readOnlyHint"));
    CHECK(tool["annotations"].contains("destructiveHint"));
    CHECK(tool["annotations"].contains("idempotentHint"));
    CHECK(tool["annotations"]["openWorldHint"] == false);
  }
  // write_memory only with --allow-write.
  CHECK(names == std::vector<std::string>{"search_memories", "get_memory", "build_context",
                                          "list_memories", "record_retrieval"});

  CHECK(structured(by_id["3"])["results"][0]["id"] == "MEM-gamma");
  CHECK(structured(by_id["4"])["memories"][0]["frontmatter"]["topic"] == "python/x");
  CHECK_THAT(by_id["5"]["result"]["content"][0]["text"].get<std::string>(),
             Catch::StartsWith("<memory-context>\n"));
  CHECK(structured(by_id["5"])["memories"][0]["id"] == "MEM-gamma");
  CHECK(structured(by_id["6"])["total"] == 4);
  CHECK(structured(by_id["6"])["memories"].size() == 2);
  CHECK(structured(by_id["7"])["recorded"] == 1);

  CHECK(by_id["8"]["error"]["code"] == -32602);  // not offered without --allow-write
  CHECK(by_id["8"]["error"]["message"] ==
        "unknown tool: write_memory: this server is read-only; writing needs it started as `git "
        "vault mcp --allow-write` (the MCP configuration's command)");
  CHECK(by_id["null"]["error"]["code"] == -32700);
  CHECK(by_id["9"]["error"]["code"] == -32602);
  CHECK(by_id["10"]["result"]["isError"] == true);
  CHECK_THAT(by_id["10"]["result"]["content"][0]["text"].get<std::string>(),
             Catch::Contains("did you mean MEM-gamma"));
  CHECK(by_id["11"]["result"]["isError"] == true);
  CHECK(by_id["12"]["result"] == json::object());

  // get_memory and build_context recorded gamma twice; record_retrieval beta once.
  const std::string journal = sandbox.read(".git/git-vault/retrievals.jsonl");
  CHECK(std::count(journal.begin(), journal.end(), '\n') == 3);
  CHECK(sandbox.git({"status", "--porcelain"}).out.empty());
}

TEST_CASE("the MCP server writes memories only with --allow-write, and sees its writes", "[mcp]") {
  Sandbox sandbox;
  gv::test::write_scored_vault(sandbox);
  std::string session =
      R"({"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2024-11-05"}})"
      "\n";
  session += call(2, "write_memory",
                  {{"title", "Kiwi facts"},
                   {"content", "Kiwis are flightless birds."},
                   {"category", "INSIGHT"},
                   {"keywords", {"kiwi", "birds"}}});
  session += call(3, "search_memories", {{"query", "kiwi"}});
  session += call(4, "write_memory",
                  {{"title", "Leak"}, {"content", "token ghp_" + std::string(36, 'k')}});
  session += call(5, "write_memory",
                  {{"title", "Kiwi facts"},
                   {"content", "Kiwis are flightless birds."},
                   {"keywords", {"kiwi", "birds"}},
                   {"as", "new"},
                   {"dry_run", true}});
  const auto result = sandbox.vault({"mcp", "--allow-write"}, session);
  INFO(result.err);
  CHECK(result.code == 0);
  auto by_id = responses(result.out);
  CHECK(by_id["1"]["result"]["protocolVersion"] == "2024-11-05");
  INFO(by_id["2"].dump());
  CHECK(by_id["2"]["result"]["isError"] == false);
  const json written = json::parse(by_id["2"]["result"]["content"][0]["text"].get<std::string>());
  CHECK(written["operation"] == "CREATE");
  CHECK(written["id"] == "MEM-kiwi-facts");
  CHECK(written["overridden"] == false);  // the same keys as `learn --json`, less `schema`
  CHECK(written["commit"].is_string());
  CHECK(sandbox.git({"log", "-1", "--format=%s"}).out == "vault(learn): create MEM-kiwi-facts\n");
  const json found = json::parse(by_id["3"]["result"]["content"][0]["text"].get<std::string>());
  CHECK(found["results"][0]["id"] == "MEM-kiwi-facts");
  CHECK(by_id["4"]["result"]["isError"] == true);
  CHECK_THAT(by_id["4"]["result"]["content"][0]["text"].get<std::string>(),
             Catch::Contains("content line 1 (GitHub token)"));
  // `as` overriding the overlap's choice is said, with the match and the words it shares.
  const json forced = json::parse(by_id["5"]["result"]["content"][0]["text"].get<std::string>());
  INFO(forced.dump());
  CHECK(forced["operation"] == "CREATE");
  CHECK(forced["overridden"] == true);
  CHECK(forced["matches"][0]["id"] == "MEM-kiwi-facts");
  CHECK(forced["matches"][0]["shared"].is_array());
  CHECK(forced["matches"][0]["recommended"] == "UPDATE");
}

TEST_CASE("the MCP server sees files changed between two calls", "[mcp]") {
  Sandbox sandbox;
  gv::test::write_scored_vault(sandbox);
  // The second request is sent only after the first answer arrived and a memory file changed.
  const std::string first = call(1, "search_memories", {{"query", "pomegranate"}});
  const std::string second = call(2, "search_memories", {{"query", "pomegranate"}});
  sandbox.write("first.json", first);
  sandbox.write("second.json", second);
  sandbox.write("new.md", gv::test::memory_file("Pomegranate", "2026-11-01", "fruit", 0, "null"));
  const auto result = sandbox.sh(
      "rm -f out; mkfifo in; (cat first.json; while [ ! -s out ]; do sleep 0.05; done; "
      "cp new.md .memory/10-Memories/MEM-pome.md; cat second.json) > in & "
      "git vault mcp < in > out; cat out");
  INFO(result.err);
  REQUIRE(result.code == 0);
  auto by_id = responses(result.out);
  CHECK(structured(by_id["1"])["results"].empty());
  CHECK(structured(by_id["2"])["results"][0]["id"] == "MEM-pome");
}

TEST_CASE("an MCP read answers with a warning when the retrieval journal cannot be written",
          "[mcp]") {
  Sandbox sandbox;
  gv::test::write_scored_vault(sandbox);
  // A folder where the journal file should be: every append fails.
  std::filesystem::create_directories(sandbox.path(".git/git-vault/retrievals.jsonl"));
  std::string session =
      R"({"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"test","version":"1"}}})"
      "\n";
  session += call(2, "get_memory", {{"id", "MEM-gamma"}});
  session += call(3, "build_context", {{"task", "the gamma notes"}, {"type", "python/x"}});
  const auto result = sandbox.vault({"mcp"}, session);
  INFO(result.err);
  REQUIRE(result.code == 0);
  auto by_id = responses(result.out);
  CHECK_FALSE(by_id["2"]["result"].value("isError", false));
  CHECK(structured(by_id["2"])["memories"][0]["id"] == "MEM-gamma");
  CHECK_THAT(structured(by_id["2"])["warning"].get<std::string>(),
             Catch::StartsWith("retrievals not recorded: "));
  CHECK_FALSE(by_id["3"]["result"].value("isError", false));
  const std::string text = by_id["3"]["result"]["content"][0]["text"];
  CHECK_THAT(text, Catch::StartsWith("<memory-context>\n"));
  CHECK_THAT(text, Catch::Contains("(warning: retrievals not recorded: "));
}

TEST_CASE("list_memories pages with offset and next_offset until every match is seen", "[mcp]") {
  Sandbox sandbox;
  gv::test::write_scored_vault(sandbox);
  std::string session;
  session += call(1, "list_memories", {{"status", "all"}, {"limit", 2}});
  session += call(2, "list_memories", {{"status", "all"}, {"limit", 2}, {"offset", 2}});
  session += call(3, "list_memories", {{"status", "all"}, {"limit", 2}, {"offset", 4}});
  session += call(4, "list_memories", {{"status", "all"}, {"offset", 99}});
  session += call(5, "list_memories", {{"offset", -1}});
  const auto result = sandbox.vault({"mcp"}, session);
  INFO(result.err);
  REQUIRE(result.code == 0);
  auto by_id = responses(result.out);
  const std::int64_t total = structured(by_id["1"])["total"];
  REQUIRE(total == 5);
  std::set<std::string> seen;
  for (const char* id : {"1", "2", "3"}) {
    const json page = structured(by_id[id]);
    for (const json& memory : page["memories"]) {
      seen.insert(memory["id"].get<std::string>());
    }
  }
  CHECK(seen.size() == 5);  // every memory once, none repeated across pages
  CHECK(structured(by_id["1"])["next_offset"] == 2);
  CHECK(structured(by_id["2"])["next_offset"] == 4);
  CHECK_FALSE(structured(by_id["3"]).contains("next_offset"));
  CHECK(structured(by_id["4"])["memories"].empty());
  CHECK(structured(by_id["4"])["total"] == 5);
  CHECK(by_id["5"]["result"]["isError"] == true);
}

TEST_CASE("a tool call with an argument the tool does not take is refused, naming it", "[mcp]") {
  Sandbox sandbox;
  gv::test::write_scored_vault(sandbox);
  std::string session;
  session += call(1, "search_memories", {{"qurey", "retry"}});
  session += call(2, "search_memories", {{"query", "retry"}, {"bogus", 1}, {"limit", 1}});
  session += call(3, "search_memories", {{"query", "retry"}, {"limit", 1}});
  const auto result = sandbox.vault({"mcp"}, session);
  INFO(result.err);
  REQUIRE(result.code == 0);
  auto by_id = responses(result.out);
  CHECK(by_id["1"]["result"]["isError"] == true);
  CHECK_THAT(by_id["1"]["result"]["content"][0]["text"].get<std::string>(),
             Catch::StartsWith("unknown argument `qurey`; search_memories takes ") &&
                 Catch::Contains("query"));
  CHECK(by_id["2"]["result"]["isError"] == true);
  CHECK_THAT(by_id["2"]["result"]["content"][0]["text"].get<std::string>(),
             Catch::StartsWith("unknown argument `bogus`; "));
  CHECK(by_id["3"]["result"]["isError"] == false);
}

TEST_CASE("a tool call giving an argument under two of its names is refused", "[mcp]") {
  Sandbox sandbox;
  gv::test::write_scored_vault(sandbox);
  std::string session;
  session += call(1, "search_memories", {{"query", "retry"}, {"max_results", 2}, {"limit", 3}});
  session += call(2, "get_memory", {{"id", "MEM-gamma"}, {"ids", json::array({"MEM-beta"})}});
  session += call(3, "get_memory", {{"id", "MEM-gamma"}});
  const auto result = sandbox.vault({"mcp"}, session);
  REQUIRE(result.code == 0);
  auto by_id = responses(result.out);
  CHECK(by_id["1"]["result"]["isError"] == true);
  CHECK(by_id["1"]["result"]["content"][0]["text"] ==
        "`limit` and `max_results` name the same argument; give one of them");
  CHECK(by_id["2"]["result"]["isError"] == true);
  CHECK(by_id["2"]["result"]["content"][0]["text"] ==
        "`ids` and `id` name the same argument; give one of them");
  CHECK(by_id["3"]["result"]["isError"] == false);
  // Nothing was recorded for the refused call.
  CHECK(sandbox.read(".git/git-vault/retrievals.jsonl").find("MEM-beta") == std::string::npos);
}

TEST_CASE("get_memory of a file that cannot be read says what is wrong with it", "[mcp]") {
  Sandbox sandbox;
  gv::test::write_scored_vault(sandbox);
  sandbox.write(".memory/10-Memories/MEM-broken.md",
                "---\ntitle: [unclosed\ncreated: 2026-01-01\n---\nbody\n");
  std::string session;
  session += call(1, "get_memory", {{"id", "MEM-broken"}});
  session += call(2, "get_memory", {{"id", "MEM-nope"}});
  const auto result = sandbox.vault({"mcp"}, session);
  REQUIRE(result.code == 0);
  auto by_id = responses(result.out);
  CHECK(by_id["1"]["result"]["isError"] == true);
  CHECK_THAT(by_id["1"]["result"]["content"][0]["text"].get<std::string>(),
             Catch::StartsWith("cannot read .memory/10-Memories/MEM-broken.md:3: ") &&
                 Catch::EndsWith("fix the file (`git vault check` lists what is wrong), then ask "
                                 "again"));
  CHECK_THAT(by_id["2"]["result"]["content"][0]["text"].get<std::string>(),
             Catch::StartsWith("no memory or entry `MEM-nope`"));
}

TEST_CASE("write_memory's refusals name its arguments, never a command-line flag", "[mcp]") {
  Sandbox sandbox;
  gv::test::write_scored_vault(sandbox);
  sandbox.write(".memory/10-Memories/MEM-beta.md",
                sandbox.read(".memory/10-Memories/MEM-beta.md") + "\nAn edit not committed.\n");
  std::string session;
  session += call(1, "write_memory", {{"title", "Kiwi facts"}, {"content", "Kiwis are birds."}});
  session += call(2, "write_memory", {{"title", " "}, {"content", "Kiwis are birds."}});
  session += call(3, "write_memory",
                  {{"title", "Kiwi"}, {"content", "Kiwis are birds."}, {"as", "replace"}});
  session += call(4, "write_memory",
                  {{"title", "Kiwi"}, {"content", "Kiwis are birds."}, {"category", "BIRDS"}});
  session += call(5, "write_memory",
                  {{"title", "Kiwi"}, {"content", "Kiwis are birds."}, {"as", "update:MEM-nope"}});
  const auto result = sandbox.vault({"mcp", "--allow-write"}, session);
  INFO(result.err);
  REQUIRE(result.code == 0);
  auto by_id = responses(result.out);
  for (const char* id : {"1", "2", "3", "4", "5"}) {
    INFO(by_id[id].dump());
    CHECK(by_id[id]["result"]["isError"] == true);
    CHECK_THAT(by_id[id]["result"]["content"][0]["text"].get<std::string>(),
               !Catch::Contains("--"));
  }
  CHECK_THAT(by_id["1"]["result"]["content"][0]["text"].get<std::string>(),
             Catch::Contains("uncommitted changes in vault paths: .memory/10-Memories/MEM-beta.md "
                             "(commit or stash them first)"));
  CHECK_THAT(by_id["2"]["result"]["content"][0]["text"].get<std::string>(),
             Catch::Contains("argument `title` must not be empty"));
  CHECK_THAT(by_id["3"]["result"]["content"][0]["text"].get<std::string>(),
             Catch::Contains("argument `as` must be `new`, `update:ID` or `extend:ID`, got "
                             "`replace`"));
  CHECK_THAT(by_id["4"]["result"]["content"][0]["text"].get<std::string>(),
             Catch::Contains("category `BIRDS` is not one of CONFIG, WORKFLOW, PATTERN, TECHNIQUE, "
                             "INSIGHT (any case)"));
  CHECK_THAT(by_id["5"]["result"]["content"][0]["text"].get<std::string>(),
             Catch::Contains("update:MEM-nope: no memory has the id MEM-nope"));
  CHECK(sandbox.git({"log", "-1", "--format=%s"}).out.find("vault(learn)") == std::string::npos);
}
