#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/json/text.hpp"

// JSON text as a tree of byte ranges, and edits that add or remove one member or element while
// every other byte stays as the user wrote it: how git-vault merges its entries into an agent's
// settings file, and takes out exactly what it added (doc/agent.md, "Wiring an agent").
namespace gv::json_text {

struct Node {
  enum class Kind { object, array, scalar };
  Kind kind = Kind::scalar;
  Span span;                      // the value, brackets included
  std::vector<std::string> keys;  // objects: the members' names (unescaped), in order
  std::vector<Span> key_spans;    // objects: each name's quoted text
  std::vector<Node> children;     // objects: the members' values; arrays: the elements
  std::size_t depth = 0;          // 0 for the document's value

  // The member named `key`, or nullptr.
  [[nodiscard]] const Node* member(std::string_view key) const;
  // Where child `index` starts in the text: its key for a member, else the value.
  [[nodiscard]] std::size_t child_begin(std::size_t index) const;
};

// The tree of `text`, which must be one valid JSON value (check it with json_text::parse
// first; this reader trusts it). Never throws.
[[nodiscard]] Node read_layout(std::string_view text);

// The indentation one level adds in `text`: the leading blanks of its first indented line, or
// two spaces when no line is indented.
[[nodiscard]] std::string indent_unit(std::string_view text);

// `value` (compact JSON) laid out for a place `depth` levels deep in a document indented by
// `unit`: pretty-printed with that unit, its later lines shifted to the depth.
[[nodiscard]] std::string render_at(std::string_view value, std::size_t depth,
                                    std::string_view unit);

// `text` with a member `"key": value` added at the end of `object` (a node of read_layout(text)),
// on a line of its own when the object spans lines, else inline. `value` is compact JSON.
[[nodiscard]] std::string add_member(std::string_view text, const Node& object,
                                     std::string_view key, std::string_view value);

// `text` with `value` (compact JSON) added as the last element of `array`, laid out the same way.
[[nodiscard]] std::string add_element(std::string_view text, const Node& array,
                                      std::string_view value);

// `text` without child `index` of `container` (a member or an element) and the separator that
// joined it to its neighbour: the comma and blanks before it, or after it when it is first. An
// edit add_member/add_element made is undone byte for byte.
[[nodiscard]] std::string remove_child(std::string_view text, const Node& container,
                                       std::size_t index);

}  // namespace gv::json_text
