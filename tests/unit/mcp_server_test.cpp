#include <catch2/catch.hpp>
#include <new>
#include <nlohmann/json.hpp>

#include "core/error.hpp"
#include "core/mcp/server.hpp"

using gv::mcp::Server;
using nlohmann::json;

namespace {

// Two tools: `echo` returns its arguments; `fail` throws the way a real tool fails.
class FakeTools final : public gv::mcp::ToolBackend {
 public:
  [[nodiscard]] std::vector<gv::mcp::ToolSpec> tools() const override {
    return {{"echo", "Echo", "Returns its arguments",
             json{{"type", "object"}, {"properties", {{"q", {{"type", "string"}}}}}}, true, false,
             true, false},
            {"fail", "Fail", "Always fails", json{{"type", "object"}}, false, true, false, false}};
  }
  [[nodiscard]] gv::mcp::ToolResult call(std::string_view name, const json& arguments) override {
    ++calls;
    if (name == "fail") {
      if (arguments.contains("input")) {
        throw gv::mcp::ToolInputError("argument `input` is wrong");
      }
      throw gv::Error("{}: cannot read", "x.md");
    }
    return {arguments.dump(), json{{"echo", arguments}}, false};
  }
  int calls = 0;
};

json answer(Server& server, const std::string& line) {
  const std::optional<std::string> response = server.handle_line(line);
  REQUIRE(response);
  CHECK(response->find('\n') == std::string::npos);
  return json::parse(*response);
}

}  // namespace

TEST_CASE("initialize agrees on the client's protocol version when supported", "[mcp]") {
  FakeTools tools;
  for (const std::string version : {"2025-06-18", "2025-03-26", "2024-11-05"}) {
    Server server(tools, {"git-vault", "1.2.3", "Use the tools."});
    const json response = answer(
        server, R"({"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":")" +
                    version + R"(","capabilities":{},"clientInfo":{"name":"t","version":"1"}}})");
    CHECK(response["id"] == 1);
    CHECK(response["result"]["protocolVersion"] == version);
    CHECK(response["result"]["serverInfo"] == json{{"name", "git-vault"}, {"version", "1.2.3"}});
    CHECK(response["result"]["capabilities"].contains("tools"));
    CHECK(response["result"]["instructions"] == "Use the tools.");
  }
  Server server(tools, {"git-vault", "1", ""});
  const json newer = answer(
      server,
      R"({"jsonrpc":"2.0","id":"a","method":"initialize","params":{"protocolVersion":"2099-01-01"}})");
  CHECK(newer["id"] == "a");
  CHECK(newer["result"]["protocolVersion"] == "2025-06-18");
  CHECK(!newer["result"].contains("instructions"));
}

TEST_CASE("tools/list declares each tool's schema and annotations", "[mcp]") {
  FakeTools tools;
  Server server(tools, {"git-vault", "1", ""});
  const json response = answer(server, R"({"jsonrpc":"2.0","id":2,"method":"tools/list"})");
  const json& list = response["result"]["tools"];
  REQUIRE(list.size() == 2);
  CHECK(list[0]["name"] == "echo");
  CHECK(list[0]["inputSchema"]["type"] == "object");
  CHECK(list[0]["annotations"] == json{{"title", "Echo"},
                                       {"readOnlyHint", true},
                                       {"destructiveHint", false},
                                       {"idempotentHint", true},
                                       {"openWorldHint", false}});
  CHECK(list[1]["annotations"]["destructiveHint"] == true);
}

TEST_CASE("tools/call answers with content, structured content and isError", "[mcp]") {
  FakeTools tools;
  Server server(tools, {"git-vault", "1", ""});
  const json ok = answer(
      server,
      R"({"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"echo","arguments":{"q":"x"}}})");
  CHECK(ok["result"]["isError"] == false);
  CHECK(ok["result"]["content"][0] == json{{"type", "text"}, {"text", R"({"q":"x"})"}});
  CHECK(ok["result"]["structuredContent"] == json{{"echo", {{"q", "x"}}}});

  const json failed =
      answer(server, R"({"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"fail"}})");
  CHECK(failed["result"]["isError"] == true);
  CHECK(failed["result"]["content"][0]["text"] == "x.md: cannot read");
  const json bad_input = answer(
      server,
      R"({"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"fail","arguments":{"input":1}}})");
  CHECK(bad_input["result"]["isError"] == true);
  const json not_object = answer(
      server,
      R"({"jsonrpc":"2.0","id":6,"method":"tools/call","params":{"name":"echo","arguments":[1]}})");
  CHECK(not_object["result"]["isError"] == true);
  CHECK(tools.calls == 2 + 1);
}

namespace {

// A tool that runs out of memory: the server's state half-way through a call is not to be
// trusted, so the failure ends the server (main prints the one out-of-memory line) instead of
// becoming an answer.
class ExhaustedTools final : public gv::mcp::ToolBackend {
 public:
  [[nodiscard]] std::vector<gv::mcp::ToolSpec> tools() const override {
    return {{"exhaust", "Exhaust", "Runs out of memory", json{{"type", "object"}}, true, false,
             true, false}};
  }
  [[nodiscard]] gv::mcp::ToolResult call(std::string_view, const json&) override {
    throw std::bad_alloc();
  }
};

}  // namespace

TEST_CASE("running out of memory in a tool ends the server instead of answering", "[mcp]") {
  ExhaustedTools tools;
  Server server(tools, {"git-vault", "1", ""});
  CHECK_THROWS_AS(
      server.handle_line(
          R"({"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"exhaust","arguments":{}}})"),
      std::bad_alloc);
}

TEST_CASE("older protocol versions get no structuredContent or tool title", "[mcp]") {
  FakeTools tools;
  Server server(tools, {"git-vault", "1", ""});
  (void)answer(
      server,
      R"({"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2024-11-05"}})");
  const json ok = answer(
      server,
      R"({"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"echo","arguments":{}}})");
  CHECK(!ok["result"].contains("structuredContent"));
  const json list = answer(server, R"({"jsonrpc":"2.0","id":3,"method":"tools/list"})");
  CHECK(!list["result"]["tools"][0].contains("title"));
}

TEST_CASE("protocol errors are JSON-RPC errors and the server keeps answering", "[mcp]") {
  FakeTools tools;
  Server server(tools, {"git-vault", "1", ""});
  CHECK(answer(server, "{not json")["error"]["code"] == -32700);
  CHECK(answer(server, "[]")["error"]["code"] == -32600);
  CHECK(answer(server, R"({"jsonrpc":"2.0","id":7})")["error"]["code"] == -32600);
  CHECK(answer(server, R"({"jsonrpc":"1.0","id":7,"method":"ping"})")["error"]["code"] == -32600);
  CHECK(answer(server, R"({"jsonrpc":"2.0","id":{"x":1},"method":"ping"})")["error"]["code"] ==
        -32600);
  // MCP forbids a null request id, though JSON-RPC allows it.
  const json null_id = answer(server, R"({"jsonrpc":"2.0","id":null,"method":"ping"})");
  CHECK(null_id["error"]["code"] == -32600);
  CHECK(null_id["id"].is_null());
  const json unknown_method =
      answer(server, R"({"jsonrpc":"2.0","id":8,"method":"resources/list"})");
  CHECK(unknown_method["id"] == 8);
  CHECK(unknown_method["error"]["code"] == -32601);
  const json unknown_tool =
      answer(server, R"({"jsonrpc":"2.0","id":9,"method":"tools/call","params":{"name":"nope"}})");
  CHECK(unknown_tool["error"]["code"] == -32602);
  CHECK_THAT(unknown_tool["error"]["message"].get<std::string>(),
             Catch::Contains("unknown tool: nope (tools: echo, fail)"));
  CHECK(answer(server,
               R"({"jsonrpc":"2.0","id":10,"method":"tools/call","params":{}})")["error"]["code"] ==
        -32602);
  CHECK(answer(server, R"({"jsonrpc":"2.0","id":11,"method":"ping"})")["result"] == json::object());
}

TEST_CASE("notifications, responses and blank lines get no answer; batches get one array",
          "[mcp]") {
  FakeTools tools;
  Server server(tools, {"git-vault", "1", ""});
  CHECK(!server.handle_line(R"({"jsonrpc":"2.0","method":"notifications/initialized"})"));
  CHECK(!server.handle_line(R"({"jsonrpc":"2.0","id":1,"result":{}})"));
  CHECK(!server.handle_line("   \r"));
  const json batch = answer(
      server,
      R"([{"jsonrpc":"2.0","id":1,"method":"ping"},{"jsonrpc":"2.0","method":"notifications/x"},{"jsonrpc":"2.0","id":2,"method":"nope"}])");
  REQUIRE(batch.is_array());
  REQUIRE(batch.size() == 2);
  CHECK(batch[0]["result"] == json::object());
  CHECK(batch[1]["error"]["code"] == -32601);
}
