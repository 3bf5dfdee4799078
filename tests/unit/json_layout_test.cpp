#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>
#include <string>

#include "core/json/layout.hpp"

namespace json_layout_test {

namespace json_text = gv::json_text;

TEST_CASE("layout finds members, elements and their bytes", "[json][layout]") {
  const std::string text = "{\n  \"a\": [1, {\"b\": \"x\\\"y\"}],\n  \"c\\u0041\": true\n}\n";
  const json_text::Node root = json_text::read_layout(text);
  REQUIRE(root.kind == json_text::Node::Kind::object);
  REQUIRE(root.keys == std::vector<std::string>{"a", "cA"});
  const json_text::Node& a = root.children[0];
  CHECK(a.kind == json_text::Node::Kind::array);
  CHECK(text.substr(a.span.begin, a.span.end - a.span.begin) == "[1, {\"b\": \"x\\\"y\"}]");
  REQUIRE(a.children.size() == 2);
  CHECK(a.children[1].member("b") != nullptr);
  CHECK(a.children[1].depth == 2);
  CHECK(root.member("cA") != nullptr);
  CHECK(root.member("missing") == nullptr);
}

TEST_CASE("the indent unit is the file's own", "[json][layout]") {
  CHECK(json_text::indent_unit("{\n    \"a\": 1\n}") == "    ");
  CHECK(json_text::indent_unit("{\n\t\"a\": 1\n}") == "\t");
  CHECK(json_text::indent_unit("{\"a\": 1}") == "  ");
}

TEST_CASE("adding and removing a member keeps every other byte", "[json][layout]") {
  const std::string text = "{\n    \"model\": \"x\",\n    \"keep\" :  [ 1,2 ]\n}\n";
  const json_text::Node root = json_text::read_layout(text);
  const std::string added = json_text::add_member(text, root, "new", R"({"k":[1]})");
  CHECK(added ==
        "{\n    \"model\": \"x\",\n    \"keep\" :  [ 1,2 ],\n    \"new\": {\n        \"k\": [\n"
        "            1\n        ]\n    }\n}\n");
  CHECK(nlohmann::json::parse(added)["new"]["k"][0] == 1);
  const json_text::Node again = json_text::read_layout(added);
  CHECK(json_text::remove_child(added, again, 2) == text);
}

TEST_CASE("an empty container gets its first child on lines of its own, and loses it back",
          "[json][layout]") {
  const std::string text = "{}\n";
  const std::string added = json_text::add_member(text, json_text::read_layout(text), "a", "[]");
  CHECK(added == "{\n  \"a\": []\n}\n");
  CHECK(json_text::remove_child(added, json_text::read_layout(added), 0) == text);
}

TEST_CASE("a one-line container stays on one line", "[json][layout]") {
  const std::string text = R"({"a": [1, 2], "b": {}})";
  const json_text::Node root = json_text::read_layout(text);
  const std::string element = json_text::add_element(text, root.children[0], R"({"x": 1})");
  CHECK(element == R"({"a": [1, 2, {"x":1}], "b": {}})");
  const std::string member = json_text::add_member(text, root, "c", "3");
  CHECK(member == R"({"a": [1, 2], "b": {}, "c": 3})");
  CHECK(json_text::remove_child(member, json_text::read_layout(member), 2) == text);
}

TEST_CASE("removing the first child takes the separator after it", "[json][layout]") {
  const std::string text = "[\n  1,\n  2\n]";
  CHECK(json_text::remove_child(text, json_text::read_layout(text), 0) == "[\n  2\n]");
  CHECK(json_text::remove_child(text, json_text::read_layout(text), 1) == "[\n  1\n]");
}

}  // namespace json_layout_test
