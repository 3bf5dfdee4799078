#include "core/json/layout.hpp"

#include <nlohmann/json.hpp>

namespace gv::json_text {
namespace {

std::string unescape(std::string_view quoted) {
  const nlohmann::json name = nlohmann::json::parse(quoted, nullptr, false);
  return name.is_string() ? name.get<std::string>() : std::string(quoted);
}

// Reads the value starting at text[i] into `node`; returns the index one past it. Recursion is
// bounded by the callers' depth check (json_text::too_deep).
std::size_t read_value(std::string_view text, std::size_t i, std::size_t depth, Node& node) {
  node.depth = depth;
  node.span.begin = i;
  if (i >= text.size()) {
    node.span.end = i;
    return i;
  }
  const char open = text[i];
  if (open != '{' && open != '[') {
    std::size_t end = i;
    if (open == '"') {
      end = skip_string(text, i);
    } else {
      while (end < text.size() && text[end] != ',' && text[end] != '}' && text[end] != ']' &&
             !is_space(text[end])) {
        ++end;
      }
    }
    node.kind = Node::Kind::scalar;
    node.span.end = end;
    return end;
  }
  node.kind = open == '{' ? Node::Kind::object : Node::Kind::array;
  const char close = open == '{' ? '}' : ']';
  i = skip_space(text, i + 1);
  if (i < text.size() && text[i] == close) {
    node.span.end = i + 1;
    return i + 1;
  }
  while (i < text.size()) {
    if (node.kind == Node::Kind::object) {
      const std::size_t key_end = skip_string(text, i);
      node.key_spans.push_back({i, key_end});
      node.keys.push_back(unescape(text.substr(i, key_end - i)));
      i = skip_space(text, key_end);
      i = skip_space(text, i + 1);  // past the colon
    }
    node.children.emplace_back();
    i = skip_space(text, read_value(text, i, depth + 1, node.children.back()));
    if (i < text.size() && text[i] == ',') {
      i = skip_space(text, i + 1);
      continue;
    }
    break;
  }
  node.span.end = i < text.size() ? i + 1 : i;  // past the closing bracket
  return node.span.end;
}

std::string repeat(std::string_view unit, std::size_t times) {
  std::string out;
  for (std::size_t i = 0; i < times; ++i) {
    out += unit;
  }
  return out;
}

bool spans_lines(std::string_view text, const Node& node) {
  return text.substr(node.span.begin, node.span.end - node.span.begin).find('\n') !=
         std::string_view::npos;
}

// Inserts `item` (a member's `"key": value` or an element) as the container's last child.
std::string add_child(std::string_view text, const Node& container, std::string_view item,
                      std::string_view compact_item) {
  std::string out;
  const bool multiline = spans_lines(text, container);
  const std::string unit = indent_unit(text);
  if (container.children.empty()) {
    // `{}` or `{ }`: the inside becomes the one child.
    out.append(text.substr(0, container.span.begin + 1));
    out += "\n" + repeat(unit, container.depth + 1);
    out += item;
    out += "\n" + repeat(unit, container.depth);
    out.append(text.substr(container.span.end - 1));
    return out;
  }
  const std::size_t after_last = container.children.back().span.end;
  out.append(text.substr(0, after_last));
  if (multiline) {
    out += ",\n" + repeat(unit, container.depth + 1);
    out += item;
  } else {
    out += ", ";
    out += compact_item;
  }
  out.append(text.substr(after_last));
  return out;
}

std::string compact(std::string_view value) {
  const nlohmann::ordered_json parsed = nlohmann::ordered_json::parse(value, nullptr, false);
  return parsed.is_discarded()
             ? std::string(value)
             : parsed.dump(-1, ' ', false, nlohmann::ordered_json::error_handler_t::replace);
}

std::string quoted(std::string_view key) { return nlohmann::json(std::string(key)).dump(); }

}  // namespace

const Node* Node::member(std::string_view key) const {
  for (std::size_t i = 0; i < keys.size(); ++i) {
    if (keys[i] == key) {
      return &children[i];
    }
  }
  return nullptr;
}

std::size_t Node::child_begin(std::size_t index) const {
  return kind == Kind::object ? key_spans[index].begin : children[index].span.begin;
}

Node read_layout(std::string_view text) {
  Node root;
  (void)read_value(text, skip_space(text, 0), 0, root);
  return root;
}

std::string indent_unit(std::string_view text) {
  std::size_t i = 0;
  while ((i = text.find('\n', i)) != std::string_view::npos) {
    ++i;
    std::size_t end = i;
    while (end < text.size() && (text[end] == ' ' || text[end] == '\t')) {
      ++end;
    }
    if (end > i && end < text.size() && text[end] != '\n' && text[end] != '\r') {
      return std::string(text.substr(i, end - i));
    }
  }
  return "  ";
}

std::string render_at(std::string_view value, std::size_t depth, std::string_view unit) {
  const nlohmann::ordered_json parsed = nlohmann::ordered_json::parse(value, nullptr, false);
  if (parsed.is_discarded()) {
    return std::string(value);
  }
  const bool tabs = !unit.empty() && unit.front() == '\t';
  const std::string pretty = parsed.dump(static_cast<int>(unit.size()), tabs ? '\t' : ' ', false,
                                         nlohmann::ordered_json::error_handler_t::replace);
  const std::string shift = repeat(unit, depth);
  std::string out;
  for (const char c : pretty) {
    out += c;
    if (c == '\n') {
      out += shift;
    }
  }
  return out;
}

std::string add_member(std::string_view text, const Node& object, std::string_view key,
                       std::string_view value) {
  const std::string unit = indent_unit(text);
  const std::string item = quoted(key) + ": " + render_at(value, object.depth + 1, unit);
  const std::string compact_item = quoted(key) + ": " + compact(value);
  return add_child(text, object, item, compact_item);
}

std::string add_element(std::string_view text, const Node& array, std::string_view value) {
  const std::string unit = indent_unit(text);
  return add_child(text, array, render_at(value, array.depth + 1, unit), compact(value));
}

std::string remove_child(std::string_view text, const Node& container, std::size_t index) {
  std::size_t begin = 0;
  std::size_t end = 0;
  if (container.children.size() == 1) {
    // The only child: the container becomes empty.
    begin = container.span.begin + 1;
    end = container.span.end - 1;
  } else if (index > 0) {
    begin = container.children[index - 1].span.end;
    end = container.children[index].span.end;
  } else {
    begin = container.child_begin(0);
    end = container.child_begin(1);
  }
  std::string out(text.substr(0, begin));
  out.append(text.substr(end));
  return out;
}

}  // namespace gv::json_text
