#include "core/review/frontmatter_fields.hpp"

#include <yaml-cpp/yaml.h>

#include <new>
#include <variant>

#include "core/memory/frontmatter.hpp"

namespace gv::review {
namespace {

std::string scalar_text(const YAML::Node& node) {
  if (node.IsNull()) {
    return "null";
  }
  return node.Scalar();
}

// A nested value on one line, in YAML flow style, for list items that are not scalars.
std::string flow_text(const YAML::Node& node) {
  YAML::Emitter emitter;
  emitter.SetMapFormat(YAML::Flow);
  emitter.SetSeqFormat(YAML::Flow);
  emitter << node;
  return emitter.c_str();
}

// A multi-line scalar as a literal block, so each of its lines diffs on its own.
void add_block_lines(std::string_view text, std::vector<std::string>& lines) {
  std::size_t start = 0;
  while (start <= text.size()) {
    const std::size_t end = text.find('\n', start);
    const std::string_view line =
        text.substr(start, end == std::string_view::npos ? std::string_view::npos : end - start);
    if (end == std::string_view::npos && line.empty()) {
      break;  // the text's final newline starts no extra line
    }
    lines.push_back("  " + std::string(line));
    if (end == std::string_view::npos) {
      break;
    }
    start = end + 1;
  }
}

RenderedField render_one(std::string key, const YAML::Node& value) {
  RenderedField field;
  field.key = std::move(key);
  if (value.IsSequence()) {
    if (value.size() == 0) {
      field.inline_value = "[]";
    }
    for (const YAML::Node& item : value) {
      field.lines.push_back(
          "  - " + (item.IsScalar() || item.IsNull() ? scalar_text(item) : flow_text(item)));
    }
  } else if (value.IsMap()) {
    if (value.size() == 0) {
      field.inline_value = "{}";
    }
    YAML::Emitter emitter;
    emitter.SetMapFormat(YAML::Block);
    emitter.SetSeqFormat(YAML::Block);
    emitter << value;
    add_block_lines(emitter.c_str(), field.lines);
    if (value.size() == 0) {
      field.lines.clear();
    }
  } else {
    const std::string text = scalar_text(value);
    if (text.find('\n') != std::string::npos) {
      field.inline_value = "|";
      add_block_lines(text, field.lines);
    } else {
      field.inline_value = text.empty() ? "\"\"" : text;
    }
  }
  return field;
}

}  // namespace

std::optional<std::vector<RenderedField>> render_fields(std::string_view bytes) {
  const FrontmatterSplit split = split_frontmatter(bytes);
  if (split.status != FrontmatterStatus::ok) {
    return std::nullopt;
  }
  auto loaded = load_frontmatter(bytes, split);
  if (!std::holds_alternative<YAML::Node>(loaded)) {
    return std::nullopt;
  }
  try {
    std::vector<RenderedField> fields;
    for (const auto& pair : std::get<YAML::Node>(loaded)) {
      const std::string key = pair.first.IsScalar() ? pair.first.Scalar() : flow_text(pair.first);
      fields.push_back(render_one(key, pair.second));
    }
    return fields;
  } catch (const std::bad_alloc&) {
    throw;  // the process's condition, not the file's: the command ends on it
  } catch (const std::exception&) {
    return std::nullopt;  // yaml-cpp can throw while emitting odd nodes; show the file as is
  }
}

std::string normalise_for_diff(std::string_view bytes) {
  const std::optional<std::vector<RenderedField>> fields = render_fields(bytes);
  if (!fields) {
    return std::string(bytes);
  }
  const FrontmatterSplit split = split_frontmatter(bytes);
  std::string out = "---\n";
  for (const RenderedField& field : *fields) {
    out += field.key;
    out += ':';
    if (!field.inline_value.empty()) {
      out += ' ';
      out += field.inline_value;
    }
    out += '\n';
    for (const std::string& line : field.lines) {
      out += line;
      out += '\n';
    }
  }
  out += "---\n";
  out += split.body(bytes);
  return out;
}

}  // namespace gv::review
