#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <catch2/catch.hpp>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

#include "tests/e2e/sandbox.hpp"
#include "tests/e2e/vault_fixture.hpp"
#include "tests/secret_corpus.hpp"

namespace mcp_test {

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
  // A generated token: one character repeated reads as a mask, not a secret.
  session +=
      call(4, "write_memory",
           {{"title", "Leak"},
            {"content",
             "token " + gv::test::cat({"gh", "p_", gv::test::fake(gv::test::k_alnum, 36, 4)})}});
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
      "rm -f out; mkfifo in; (cat first.json; n=0; "
      "while [ ! -s out ] && [ $n -lt 400 ]; do sleep 0.05; n=$((n + 1)); done; "
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

namespace {

std::string initialize_line(const std::string& version) {
  return R"({"jsonrpc":"2.0","id":"init","method":"initialize","params":{"protocolVersion":")" +
         version +
         R"(","capabilities":{},"clientInfo":{"name":"test","version":"1"}}})"
         "\n";
}

std::string ping_line(int id) {
  return R"({"jsonrpc":"2.0","id":)" + std::to_string(id) +
         R"(,"method":"ping"})"
         "\n";
}

std::string text_of(const json& response) {
  return response["result"]["content"][0]["text"].get<std::string>();
}

// Writes `count` memories MEM-bulk-0001… whose bodies hold `body_words` words and whose
// summaries are `summary_bytes` long, then commits them.
void write_bulk_vault(Sandbox& sandbox, int count, int body_words, std::size_t summary_bytes) {
  for (int i = 1; i <= count; ++i) {
    const std::string id = fmt::format("{:04}", i);
    sandbox.write(
        fmt::format(".memory/10-Memories/MEM-bulk-{}.md", id),
        fmt::format(
            "---\ntitle: \"Bulk {}\"\ncreated: 2026-11-01\ntags: [PATTERN]\n"
            "topic: \"bulk\"\nmodified: 2026-11-01\nkeywords: [bulk]\n"
            "summary: \"{}\"\nretrieval_count: 0\nlast_retrieved: null\n---\n\n"
            "# Bulk {}\n\n{}\n",
            id, std::string(summary_bytes, 's'), id,
            fmt::format("{}", fmt::join(std::vector<std::string>(
                                            static_cast<std::size_t>(body_words), "bulkword"),
                                        " "))));
  }
  sandbox.commit_all("bulk vault");
}

}  // namespace

TEST_CASE("the MCP server agrees on protocol 2025-11-25 and keeps the older versions", "[mcp]") {
  Sandbox sandbox;
  gv::test::write_scored_vault(sandbox);
  for (const std::string version : {"2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"}) {
    std::string session = initialize_line(version);
    session += R"({"jsonrpc":"2.0","id":1,"method":"tools/list"})"
               "\n";
    session += call(2, "build_context", {{"task", "anything"}, {"type", "python/x"}});
    const auto result = sandbox.vault({"mcp"}, session);
    INFO(version << "\n" << result.err);
    REQUIRE(result.code == 0);
    auto by_id = responses(result.out);
    CHECK(by_id["\"init\""]["result"]["protocolVersion"] == version);
    const bool structured_output = version >= "2025-06-18";
    CHECK(by_id["1"]["result"]["tools"][0].contains("title") == structured_output);
    CHECK(by_id["2"]["result"].contains("structuredContent") == structured_output);
  }
  const auto newer = sandbox.vault({"mcp"}, initialize_line("2099-01-01"));
  CHECK(responses(newer.out)["\"init\""]["result"]["protocolVersion"] == "2025-11-25");
}

TEST_CASE("the MCP server answers a batch only under protocol 2025-03-26", "[mcp]") {
  Sandbox sandbox;
  gv::test::write_scored_vault(sandbox);
  auto message = [](std::string line) {
    line.pop_back();  // the newline
    return line;
  };
  const std::string batch =
      "[" + message(call(1, "list_memories", json::object())) + "," + message(ping_line(2)) + "]\n";
  const auto old = sandbox.vault({"mcp"}, initialize_line("2025-03-26") + batch);
  REQUIRE(old.code == 0);
  std::istringstream old_lines(old.out);
  std::string line;
  std::getline(old_lines, line);  // initialize
  std::getline(old_lines, line);
  const json answers = json::parse(line);
  REQUIRE(answers.is_array());
  CHECK(answers.size() == 2);
  const auto current = sandbox.vault({"mcp"}, initialize_line("2025-11-25") + batch + ping_line(3));
  REQUIRE(current.code == 0);
  std::istringstream lines(current.out);
  std::getline(lines, line);  // initialize
  std::getline(lines, line);
  const json refused = json::parse(line);
  CHECK(refused["error"]["code"] == -32600);
  CHECK_THAT(refused["error"]["message"].get<std::string>(),
             Catch::Contains("batches are not part of protocol 2025-11-25"));
  std::getline(lines, line);
  CHECK(json::parse(line)["result"] == json::object());  // still serving
}

TEST_CASE("a value nested 140,000 deep gets an error naming the limit, and the server serves on",
          "[mcp]") {
  Sandbox sandbox;
  gv::test::write_scored_vault(sandbox);
  // What crashed the server with SIGSEGV: the id comes last, as the TypeScript SDK writes it.
  const std::string deep =
      R"({"method":"tools/call","params":{"name":"get_memory","arguments":{"ids":)" +
      std::string(140'000, '[') + std::string(140'000, ']') +
      R"(}},"jsonrpc":"2.0","id":2})"
      "\n";
  const auto result = sandbox.vault({"mcp"}, initialize_line("2025-11-25") + deep + ping_line(3) +
                                                 call(4, "get_memory", {{"id", "MEM-gamma"}}));
  INFO(result.err);
  REQUIRE(result.code == 0);
  auto by_id = responses(result.out);
  CHECK(by_id["2"]["error"]["code"] == -32600);
  CHECK_THAT(by_id["2"]["error"]["message"].get<std::string>(),
             Catch::Contains("deeper than this server reads (64 levels)"));
  CHECK(by_id["3"]["result"] == json::object());
  CHECK(structured(by_id["4"])["memories"][0]["id"] == "MEM-gamma");
}

TEST_CASE(
    "a 64 MiB line gets an error naming the limit, the rest of it is discarded, and the "
    "server serves on",
    "[mcp]") {
  Sandbox sandbox;
  gv::test::write_scored_vault(sandbox);
  const std::string huge = R"({"method":"tools/call","params":{"name":"search_memories",)"
                           R"("arguments":{"query":")" +
                           std::string(std::size_t{64} << 20, 'x') +
                           R"("}},"jsonrpc":"2.0","id":2})"
                           "\n";
  const auto result = sandbox.vault({"mcp"}, initialize_line("2025-11-25") + huge + ping_line(3) +
                                                 call(4, "search_memories", {{"query", "gamma"}}));
  INFO(result.err);
  REQUIRE(result.code == 0);
  CHECK(result.out.size() < 10'000);
  auto by_id = responses(result.out);
  CHECK(by_id["2"]["error"]["code"] == -32600);
  CHECK_THAT(by_id["2"]["error"]["message"].get<std::string>(),
             Catch::Contains(fmt::format("the line is {} bytes, longer than this server reads "
                                         "(1048576 bytes)",
                                         huge.size() - 1)));
  CHECK(by_id["3"]["result"] == json::object());
  CHECK(structured(by_id["4"])["results"][0]["id"] == "MEM-gamma");
}

TEST_CASE("every MCP tool's schema says what it requires and bounds what it takes", "[mcp]") {
  Sandbox sandbox;
  gv::test::write_scored_vault(sandbox);
  const auto result =
      sandbox.vault({"mcp", "--allow-write"}, R"({"jsonrpc":"2.0","id":1,"method":"tools/list"})"
                                              "\n");
  REQUIRE(result.code == 0);
  const json tools = responses(result.out)["1"]["result"]["tools"];
  REQUIRE(tools.size() == 6);
  std::map<std::string, json> required;
  for (const json& tool : tools) {
    const json& schema = tool["inputSchema"];
    INFO(tool["name"]);
    REQUIRE(schema.contains("required"));
    CHECK(schema["additionalProperties"] == false);
    required[tool["name"]] = schema["required"];
    for (const auto& [name, property] : schema["properties"].items()) {
      INFO(name);
      const std::string type = property["type"];
      if (type == "string" && !property.contains("enum")) {
        CHECK(property["maxLength"].is_number_integer());
      } else if (type == "integer") {
        CHECK(property["minimum"].is_number_integer());
        CHECK(property["maximum"].is_number_integer());
      } else if (type == "array") {
        CHECK(property["maxItems"].is_number_integer());
        CHECK(property["items"]["maxLength"].is_number_integer());
      }
      for (const auto& required_name : schema["required"]) {
        CHECK(schema["properties"].contains(required_name.get<std::string>()));
      }
    }
  }
  CHECK(required["search_memories"] == json{"query"});
  CHECK(required["get_memory"] == json{"ids"});
  CHECK(required["write_memory"] == json{"title", "content"});
  CHECK(required["list_memories"] == json::array());
}

TEST_CASE("MCP argument errors name the argument as the caller spelt it", "[mcp]") {
  Sandbox sandbox;
  gv::test::write_scored_vault(sandbox);
  std::string session;
  session += call(1, "search_memories", {{"q", 5}});
  session += call(2, "search_memories", {{"query", 5}});
  session += call(3, "search_memories", {{"q", "gamma"}, {"max_results", 0}});
  session += call(4, "search_memories", {{"q", std::string(10'001, 'q')}});
  session += call(5, "get_memory", {{"id", json::array({1})}});
  session += call(6, "build_context", {{"q", true}});
  session += call(7, "search_memories", json::object());
  const auto result = sandbox.vault({"mcp"}, session);
  REQUIRE(result.code == 0);
  auto by_id = responses(result.out);
  for (const char* id : {"1", "2", "3", "4", "5", "6", "7"}) {
    CHECK(by_id[id]["result"]["isError"] == true);
  }
  CHECK(text_of(by_id["1"]) == "argument `q` must be a string");
  CHECK(text_of(by_id["2"]) == "argument `query` must be a string");
  CHECK(text_of(by_id["3"]) == "argument `max_results` must be between 1 and 100");
  CHECK(text_of(by_id["4"]) == "argument `q` is 10001 characters long; it takes at most 10000");
  CHECK(text_of(by_id["5"]) == "argument `id` must hold strings");
  CHECK(text_of(by_id["6"]) == "argument `q` must be a string");
  CHECK(text_of(by_id["7"]) == "missing argument `query` (a string; alias `q`)");
}

TEST_CASE("list_memories stays under the answer limit, saying what it left out", "[mcp]") {
  Sandbox sandbox;
  write_bulk_vault(sandbox, 400, 5, 2000);
  std::string session;
  session += call(1, "list_memories", json::object());
  session += call(2, "list_memories", {{"limit", 200}});
  session += call(3, "list_memories", {{"limit", 1000}});
  const auto result = sandbox.vault({"mcp"}, session);
  INFO(result.err);
  REQUIRE(result.code == 0);
  auto by_id = responses(result.out);
  // The default page: 50 rows, summaries shortened, well under the agents' limit.
  const json first = structured(by_id["1"]);
  CHECK(first["total"] == 400);
  CHECK(first["memories"].size() == 50);
  CHECK(first["next_offset"] == 50);
  CHECK(text_of(by_id["1"]).size() < 80'000);
  CHECK(first["memories"][0]["summary"].get<std::string>().size() <= 300);
  CHECK_THAT(first["note"].get<std::string>(), Catch::Contains("summaries over 300 bytes"));
  // The largest page is cut by size, with the offset to go on from.
  const json big = structured(by_id["2"]);
  CHECK(text_of(by_id["2"]).size() <= 81'000);
  CHECK(big["memories"].size() < 200);
  CHECK(big["next_offset"] == big["memories"].size());
  CHECK_THAT(big["note"].get<std::string>(),
             Catch::Contains("fewer than `limit`, to keep this answer under 80 KB; call again "
                             "with `offset`"));
  CHECK(text_of(by_id["3"]) == "argument `limit` must be between 1 and 200");
}

TEST_CASE(
    "get_memory takes at most 20 distinct ids, counts each memory once, and stays under "
    "the answer limit",
    "[mcp]") {
  Sandbox sandbox;
  write_bulk_vault(sandbox, 30, 1500, 10);
  json many = json::array();
  for (int i = 0; i < 5000; ++i) {
    many.push_back(i % 2 == 0 ? "MEM-bulk-0001" : "MEM-bulk-0002");
  }
  json repeated = json::array({"MEM-bulk-0001", "MEM-bulk-0002", "MEM-bulk-0001", "MEM-bulk-0001"});
  json twenty = json::array();
  for (int i = 1; i <= 20; ++i) {
    twenty.push_back(fmt::format("MEM-bulk-{:04}", i));
  }
  std::string session;
  session += call(1, "get_memory", {{"ids", many}});
  session += call(2, "get_memory", {{"ids", repeated}});
  session += call(3, "get_memory", {{"ids", twenty}});
  const auto result = sandbox.vault({"mcp"}, session);
  INFO(result.err);
  REQUIRE(result.code == 0);
  auto by_id = responses(result.out);
  CHECK(by_id["1"]["result"]["isError"] == true);
  CHECK(text_of(by_id["1"]) == "argument `ids` holds 5000 items; it takes at most 20");
  CHECK(structured(by_id["2"])["memories"].size() == 2);
  // Twenty memories of ~12 KB each: the answer stops short of 80 KB and names the rest.
  const json cut = structured(by_id["3"]);
  CHECK(text_of(by_id["3"]).size() < 81'000);
  const std::size_t shown = cut["memories"].size();
  CHECK(shown >= 5);
  CHECK(shown < 20);
  CHECK(cut["omitted"].size() == 20 - shown);
  CHECK(cut["omitted"][0] == fmt::format("MEM-bulk-{:04}", shown + 1));
  CHECK_THAT(cut["note"].get<std::string>(),
             Catch::Contains("not included, to keep this answer under 80 KB; ask for them in "
                             "another call"));
  // The refused call recorded nothing; the repeated ids once each; the cut call only what it
  // returned.
  const std::string journal = sandbox.read(".git/git-vault/retrievals.jsonl");
  CHECK(std::count(journal.begin(), journal.end(), '\n') == static_cast<long>(2 + shown));
}

TEST_CASE("get_memory of one memory larger than an answer cuts its body and names the file",
          "[mcp]") {
  Sandbox sandbox;
  write_bulk_vault(sandbox, 1, 30'000, 10);
  const auto result = sandbox.vault({"mcp"}, call(1, "get_memory", {{"id", "MEM-bulk-0001"}}));
  REQUIRE(result.code == 0);
  const json answer = responses(result.out)["1"];
  CHECK(answer["result"]["isError"] == false);
  CHECK(text_of(answer).size() < 81'000);
  CHECK(structured(answer)["memories"][0]["body_cut"] == true);
  CHECK_THAT(structured(answer)["note"].get<std::string>(),
             Catch::Contains("the rest is in .memory/10-Memories/MEM-bulk-0001.md"));
}

TEST_CASE("search_memories echoes a long query in part and refuses one past its bound", "[mcp]") {
  Sandbox sandbox;
  gv::test::write_scored_vault(sandbox);
  const std::string long_query = "gamma " + std::string(9000, 'q');
  std::string session;
  session += call(1, "search_memories", {{"query", long_query}});
  session += call(2, "search_memories", {{"query", std::string(5 << 20, 'q')}});
  session += ping_line(3);
  const auto result = sandbox.vault({"mcp"}, session);
  REQUIRE(result.code == 0);
  auto by_id = responses(result.out);
  const json found = structured(by_id["1"]);
  CHECK(found["query"].get<std::string>().size() <= 200);
  CHECK_THAT(found["note"].get<std::string>(),
             Catch::Contains("`query` is echoed in part (about 200 of its 9006 bytes)"));
  CHECK(found["results"][0]["id"] == "MEM-gamma");
  CHECK(by_id["2"]["error"]["code"] == -32600);  // past the line limit: not read at all
  CHECK(by_id["3"]["result"] == json::object());
}

TEST_CASE("the MCP server's instructions never invite counting a retrieval twice", "[mcp]") {
  Sandbox sandbox;
  gv::test::write_scored_vault(sandbox);
  const auto recording = sandbox.vault({"mcp"}, initialize_line("2025-11-25"));
  const std::string instructions = responses(recording.out)["\"init\""]["result"]["instructions"];
  CHECK_THAT(instructions,
             Catch::Contains("build_context and get_memory count one retrieval of each memory "
                             "they return: never call record_retrieval for those"));
  const auto quiet = sandbox.vault({"mcp", "--no-record"}, initialize_line("2025-11-25"));
  CHECK_THAT(responses(quiet.out)["\"init\""]["result"]["instructions"].get<std::string>(),
             Catch::Contains("call record_retrieval once for each memory that helped"));
  // build_context then get_memory of the same memory: two calls, two retrievals, one each.
  std::string session;
  session += call(1, "build_context", {{"task", "the gamma notes"}, {"type", "python/x"}});
  session += call(2, "get_memory", {{"ids", {"MEM-gamma", "MEM-gamma"}}});
  // record_retrieval counts an id given twice once, as it says.
  session += call(3, "record_retrieval", {{"ids", {"MEM-beta", "MEM-beta"}}});
  const auto counted = sandbox.vault({"mcp"}, session);
  REQUIRE(counted.code == 0);
  CHECK(structured(responses(counted.out)["3"])["recorded"] == 1);
  const std::string journal = sandbox.read(".git/git-vault/retrievals.jsonl");
  CHECK(std::count(journal.begin(), journal.end(), '\n') == 3);
}

TEST_CASE("build_context's structuredContent carries the context block", "[mcp]") {
  Sandbox sandbox;
  gv::test::write_scored_vault(sandbox);
  std::string session;
  session += call(1, "build_context", {{"task", "the gamma notes"}, {"type", "python/x"}});
  session += call(2, "build_context", {{"session", true}});
  session += call(3, "build_context", {{"task", "nothing matches this"}});
  const auto result = sandbox.vault({"mcp", "--no-record"}, session);
  REQUIRE(result.code == 0);
  auto by_id = responses(result.out);
  CHECK(structured(by_id["1"])["context"] == text_of(by_id["1"]));
  CHECK_THAT(structured(by_id["1"])["context"].get<std::string>(),
             Catch::StartsWith("<memory-context>\n"));
  CHECK(structured(by_id["2"])["context"] == text_of(by_id["2"]));
  CHECK(structured(by_id["3"])["context"].is_null());
  CHECK(structured(by_id["3"])["message"] == text_of(by_id["3"]));
}

TEST_CASE("build_context cuts a block of a few very long words under the answer limit", "[mcp]") {
  Sandbox sandbox;
  // 100 words of 2,000 bytes: 130 tokens by the budget's count, 200 KB of text.
  std::string body;
  for (int i = 0; i < 100; ++i) {
    body += std::string(2000, 'y') + "\n";
  }
  sandbox.write(".memory/10-Memories/MEM-widelines.md",
                "---\ntitle: \"Widelines notes\"\ncreated: 2026-11-01\ntags: [PATTERN]\n"
                "topic: \"wide\"\nmodified: 2026-11-01\nkeywords: [widelines]\n"
                "summary: \"Widelines\"\nretrieval_count: 0\nlast_retrieved: null\n---\n\n"
                "# Widelines notes\n\n" +
                    body);
  gv::test::write_scored_vault(sandbox);
  const auto result = sandbox.vault({"mcp", "--no-record"},
                                    call(1, "build_context", {{"task", "widelines notes"}}));
  INFO(result.err);
  REQUIRE(result.code == 0);
  const json answer = responses(result.out)["1"];
  CHECK(answer["result"]["isError"] == false);
  CHECK_THAT(text_of(answer), Catch::StartsWith("<memory-context>\n"));
  CHECK(text_of(answer).size() < 81'000);
  CHECK(structured(answer)["context"].get<std::string>().size() <= 80'000);
  CHECK_THAT(structured(answer)["note"].get<std::string>(),
             Catch::StartsWith("the block is cut after ") &&
                 Catch::Contains("to keep this answer under 80 KB"));
}

TEST_CASE("the MCP tools say how to make a vault when the repository has none", "[mcp]") {
  Sandbox sandbox;
  sandbox.write("README.md", "no vault here\n");
  sandbox.commit_all("plain repository");
  std::string session;
  session += call(1, "search_memories", {{"query", "anything"}});
  session += call(2, "get_memory", {{"id", "MEM-x"}});
  session += call(3, "list_memories", json::object());
  session += call(4, "build_context", {{"task", "anything"}});
  session += call(5, "record_retrieval", {{"id", "MEM-x"}});
  const auto result = sandbox.vault({"mcp"}, session);
  INFO(result.err);
  REQUIRE(result.code == 0);
  auto by_id = responses(result.out);
  const std::string hint =
      "this repository has no memory vault yet (.memory/ is missing or "
      "empty): `git vault init` creates one";
  CHECK_THAT(structured(by_id["1"])["message"].get<std::string>(), Catch::Contains(hint));
  CHECK(by_id["2"]["result"]["isError"] == true);
  CHECK_THAT(text_of(by_id["2"]), Catch::Contains(hint));
  CHECK_THAT(structured(by_id["3"])["note"].get<std::string>(), Catch::Contains(hint));
  CHECK_THAT(text_of(by_id["4"]), Catch::Contains(hint));
  CHECK_THAT(text_of(by_id["5"]), Catch::Contains(hint));
}

TEST_CASE("a 200 KB id is refused at once, and ping is answered right after", "[mcp]") {
  Sandbox sandbox;
  write_bulk_vault(sandbox, 200, 5, 10);
  std::string session;
  session += call(1, "get_memory", {{"id", std::string(200'000, 'M')}});
  session += call(2, "record_retrieval", {{"ids", {"MEM-bulk-0001", std::string(200'000, 'M')}}});
  session += call(3, "get_memory", {{"id", "MEM-blk-0001"}});
  session += ping_line(4);
  const auto result = sandbox.vault({"mcp"}, session);
  REQUIRE(result.code == 0);
  auto by_id = responses(result.out);
  CHECK(by_id["1"]["result"]["isError"] == true);
  CHECK_THAT(text_of(by_id["1"]),
             Catch::StartsWith("argument `id`: `MMMM") &&
                 Catch::EndsWith("is 200000 characters long; an item takes at most 255"));
  CHECK(text_of(by_id["1"]).size() < 200);
  CHECK(by_id["2"]["result"]["isError"] == true);
  CHECK_THAT(text_of(by_id["3"]), Catch::Contains("did you mean MEM-bulk-0001"));
  CHECK(by_id["4"]["result"] == json::object());
  CHECK_FALSE(sandbox.exists(".git/git-vault/retrievals.jsonl"));
}

}  // namespace mcp_test
