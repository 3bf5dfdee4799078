#include <catch2/catch.hpp>
#include <new>
#include <nlohmann/json.hpp>

#include "core/error.hpp"
#include "core/mcp/server.hpp"

namespace mcp_server_test {

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
  for (const std::string version : {"2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"}) {
    Server server(tools, {"git-vault", "1.2.3", "Use the tools.", ""});
    const json response = answer(
        server, R"({"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":")" +
                    version + R"(","capabilities":{},"clientInfo":{"name":"t","version":"1"}}})");
    CHECK(response["id"] == 1);
    CHECK(response["result"]["protocolVersion"] == version);
    CHECK(response["result"]["serverInfo"] == json{{"name", "git-vault"}, {"version", "1.2.3"}});
    CHECK(response["result"]["capabilities"].contains("tools"));
    CHECK(response["result"]["instructions"] == "Use the tools.");
  }
  Server server(tools, {"git-vault", "1", "", ""});
  const json newer = answer(
      server,
      R"({"jsonrpc":"2.0","id":"a","method":"initialize","params":{"protocolVersion":"2099-01-01"}})");
  CHECK(newer["id"] == "a");
  CHECK(newer["result"]["protocolVersion"] == "2025-11-25");
  CHECK(!newer["result"].contains("instructions"));
}

TEST_CASE("tools/list declares each tool's schema and annotations", "[mcp]") {
  FakeTools tools;
  Server server(tools, {"git-vault", "1", "", ""});
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
  Server server(tools, {"git-vault", "1", "", ""});
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
  Server server(tools, {"git-vault", "1", "", ""});
  CHECK_THROWS_AS(
      server.handle_line(
          R"({"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"exhaust","arguments":{}}})"),
      std::bad_alloc);
}

TEST_CASE("older protocol versions get no structuredContent or tool title", "[mcp]") {
  FakeTools tools;
  Server server(tools, {"git-vault", "1", "", ""});
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
  Server server(tools, {"git-vault", "1", "", ""});
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

TEST_CASE("notifications, responses and blank lines get no answer", "[mcp]") {
  FakeTools tools;
  Server server(tools, {"git-vault", "1", "", ""});
  CHECK(!server.handle_line(R"({"jsonrpc":"2.0","method":"notifications/initialized"})"));
  CHECK(!server.handle_line(R"({"jsonrpc":"2.0","id":1,"result":{}})"));
  CHECK(!server.handle_line("   \r"));
}

namespace {

const std::string k_batch =
    R"([{"jsonrpc":"2.0","id":1,"method":"ping"},{"jsonrpc":"2.0","method":"notifications/x"},{"jsonrpc":"2.0","id":2,"method":"nope"}])";

json initialized(Server& server, const std::string& version) {
  return answer(server,
                R"({"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":")" +
                    version + R"("}})");
}

}  // namespace

TEST_CASE("a batch gets one array back only when protocol 2025-03-26 was agreed", "[mcp]") {
  FakeTools tools;
  Server server(tools, {"git-vault", "1", "", ""});
  (void)initialized(server, "2025-03-26");
  const json batch = answer(server, k_batch);
  REQUIRE(batch.is_array());
  REQUIRE(batch.size() == 2);
  CHECK(batch[0]["result"] == json::object());
  CHECK(batch[1]["error"]["code"] == -32601);
  CHECK(answer(server, "[]")["error"]["code"] == -32600);
  // initialize is never part of a batch, even where batches are.
  const json with_initialize = answer(
      server,
      R"([{"jsonrpc":"2.0","id":5,"method":"initialize","params":{"protocolVersion":"2025-03-26"}}])");
  CHECK(with_initialize[0]["id"] == 5);
  CHECK(with_initialize[0]["error"]["code"] == -32600);
}

TEST_CASE("a batch is refused before initialize and under versions without batches", "[mcp]") {
  FakeTools tools;
  {
    Server server(tools, {"git-vault", "1", "", ""});
    const json refused = answer(server, k_batch);
    CHECK(refused["error"]["code"] == -32600);
    CHECK_THAT(refused["error"]["message"].get<std::string>(),
               Catch::Contains("batches are not part of protocol 2025-11-25"));
  }
  for (const std::string version : {"2025-11-25", "2025-06-18", "2024-11-05"}) {
    Server server(tools, {"git-vault", "1", "", ""});
    (void)initialized(server, version);
    const json refused = answer(server, k_batch);
    INFO(version);
    CHECK(refused.is_object());
    CHECK(refused["error"]["code"] == -32600);
    CHECK_THAT(refused["error"]["message"].get<std::string>(),
               Catch::Contains("send one message per line"));
    CHECK(tools.calls == 0);
    CHECK(answer(server, R"({"jsonrpc":"2.0","id":3,"method":"ping"})")["result"] ==
          json::object());
  }
}

TEST_CASE("2025-11-25 describes the server in serverInfo; older versions do not", "[mcp]") {
  FakeTools tools;
  gv::mcp::ServerInfo info{"git-vault", "1", "", "The vault"};
  Server current(tools, info);
  CHECK(initialized(current, "2025-11-25")["result"]["serverInfo"]["description"] == "The vault");
  Server older(tools, info);
  CHECK(!initialized(older, "2025-06-18")["result"]["serverInfo"].contains("description"));
}

namespace {

// A tools/call whose arguments hold a value nested `depth` arrays deep.
std::string nested_call(std::size_t depth, const std::string& id) {
  return R"({"jsonrpc":"2.0","method":"tools/call","params":{"name":"echo","arguments":{"q":)" +
         std::string(depth, '[') + std::string(depth, ']') + R"(}},"id":)" + id + "}";
}

}  // namespace

TEST_CASE("a value nested 140,000 deep is refused unparsed, and the server keeps serving",
          "[mcp]") {
  FakeTools tools;
  Server server(tools, {"git-vault", "1", "", ""});
  const json refused = answer(server, nested_call(140'000, "7"));
  CHECK(refused["id"] == 7);  // found by the byte scan, after the deep value
  CHECK(refused["error"]["code"] == -32600);
  CHECK_THAT(refused["error"]["message"].get<std::string>(),
             Catch::Contains("nest 140003 deep, deeper than this server reads (64 levels)"));
  CHECK(refused["error"]["data"] == json{{"limit", "depth"}, {"max", 64}, {"actual", 140003}});
  CHECK(tools.calls == 0);
  CHECK(answer(server, R"({"jsonrpc":"2.0","id":8,"method":"ping"})")["result"] == json::object());
}

TEST_CASE("nesting up to the limit is read; one level more is refused", "[mcp]") {
  FakeTools tools;
  Server server(tools, {"git-vault", "1", "", ""});
  // The envelope takes three levels: the message, params and arguments.
  const json at_limit = answer(server, nested_call(61, R"("a")"));
  CHECK(at_limit["id"] == "a");
  CHECK(at_limit.contains("result"));
  const json past = answer(server, nested_call(62, R"("b")"));
  CHECK(past["id"] == "b");
  CHECK(past["error"]["code"] == -32600);
}

TEST_CASE("scan_line counts nesting outside strings and finds the top-level id", "[mcp]") {
  using gv::mcp::scan_line;
  CHECK(scan_line(R"({"a":"[[[[{{{{","b":["\"]]]"]})").depth == 2);
  CHECK(scan_line(R"({"a":"[[[[{{{{","b":["\"]]]"]})").id == std::nullopt);
  CHECK(scan_line(R"({"params":{"id":1},"id":"x\"y"})").id == json("x\"y"));
  CHECK(scan_line(R"( { "id" : -12 , "method" : "ping" } )").id == json(-12));
  CHECK(scan_line(R"({"id":1.5})").id == std::nullopt);
  CHECK(scan_line(R"({"id":null})").id == std::nullopt);
  CHECK(scan_line(R"([{"id":1},"id",2])").id == std::nullopt);  // a batch: no one id
  CHECK(scan_line(R"({"x":"id","y":3})").id == std::nullopt);
  // A cut line: a number the cut may have split is not taken.
  CHECK(scan_line(R"({"id":12)", false).id == std::nullopt);
  CHECK(scan_line(R"({"id":12,"params":{"q":"aaa)", false).id == json(12));
  CHECK(scan_line(R"({"id":"abc)", false).id == std::nullopt);
}

TEST_CASE("a line longer than the limit is refused, naming it, addressed to its id", "[mcp]") {
  FakeTools tools;
  gv::mcp::Limits limits;
  limits.max_line_bytes = 1000;
  Server server(tools, {"git-vault", "1", "", ""}, limits);
  const std::string line =
      R"({"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"echo","arguments":{"q":")" +
      std::string(5000, 'x') + R"("}}})";
  const json refused = answer(server, line);
  CHECK(refused["id"] == 4);
  CHECK(refused["error"]["code"] == -32600);
  CHECK_THAT(refused["error"]["message"].get<std::string>(),
             Catch::Contains("longer than this server reads (1000 bytes)"));
  CHECK(refused["error"]["data"]["limit"] == "line_bytes");
  CHECK(tools.calls == 0);

  // The TypeScript SDK writes the id last: the reader's tail shows it.
  const std::string sdk_order =
      R"({"method":"tools/call","params":{"name":"echo","arguments":{"q":")" +
      std::string(5000, 'x') + R"("}},"jsonrpc":"2.0","id":"req-9"})";
  const json from_tail = json::parse(server.handle_oversized_line(
      std::string_view(sdk_order).substr(0, 1000),
      std::string_view(sdk_order).substr(sdk_order.size() - 100), sdk_order.size()));
  CHECK(from_tail["id"] == "req-9");
  CHECK(from_tail["error"]["data"]["actual"] == sdk_order.size());
  // A tail that does not end in an id member leaves the id null.
  const json unknown =
      json::parse(server.handle_oversized_line(R"({"method":"x)", R"(xxxx"})", 99));
  CHECK(unknown["id"].is_null());
  const json inside_string =
      json::parse(server.handle_oversized_line(R"({"a":")", R"(b\",\"id\":5}"})", 99));
  CHECK(inside_string["id"].is_null());
}

namespace {

// `echo` answers with `size` bytes of text.
class LoudTools final : public gv::mcp::ToolBackend {
 public:
  [[nodiscard]] std::vector<gv::mcp::ToolSpec> tools() const override {
    return {{"echo", "Echo", "Returns a lot", json{{"type", "object"}}, true, false, true, false}};
  }
  [[nodiscard]] gv::mcp::ToolResult call(std::string_view, const json&) override {
    return {std::string(size, 'y'), json{{"n", size}}, false};
  }
  std::size_t size = 0;
};

}  // namespace

TEST_CASE("a tool answer larger than the response limit becomes an error naming it", "[mcp]") {
  LoudTools tools;
  Server server(tools, {"git-vault", "1", "", ""});
  tools.size = 10 << 20;
  const std::optional<std::string> line = server.handle_line(
      R"({"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo"}})");
  REQUIRE(line);
  CHECK(line->size() < 1000);
  const json refused = json::parse(*line);
  CHECK(refused["result"]["isError"] == true);
  CHECK_THAT(refused["result"]["content"][0]["text"].get<std::string>(),
             Catch::Contains("more than this server sends at once (524288 bytes)"));
  tools.size = 1000;
  const json fine =
      answer(server, R"({"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"echo"}})");
  CHECK(fine["result"]["isError"] == false);
}

TEST_CASE("names a client sent are echoed shortened in errors", "[mcp]") {
  FakeTools tools;
  Server server(tools, {"git-vault", "1", "", ""});
  const std::string long_name(100'000, 'm');
  const json method = answer(server, R"({"jsonrpc":"2.0","id":1,"method":")" + long_name + R"("})");
  CHECK(method["error"]["message"].get<std::string>().size() < 200);
  const json tool =
      answer(server, R"({"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":")" +
                         long_name + R"("}})");
  CHECK(tool["error"]["message"].get<std::string>().size() < 300);
  const json argument = answer(
      server,
      R"({"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"echo","arguments":{")" +
          long_name + R"(":1}}})");
  CHECK(argument["result"]["content"][0]["text"].get<std::string>().size() < 300);
}

}  // namespace mcp_server_test
