#include "core/events/output.hpp"

#include <fmt/format.h>

#include <nlohmann/json.hpp>

#include "core/util/json_output.hpp"

namespace gv::events {
namespace {

using Json = nlohmann::ordered_json;

std::string compact(const Json& value) {
  return value.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

// `value` pretty-printed as an element nested `depth` levels deep (two spaces a level).
std::string nested(const Json& value, std::size_t depth) {
  const std::string prefix(depth * 2, ' ');
  const std::string dumped = value.dump(2, ' ', false, nlohmann::json::error_handler_t::replace);
  std::string out = prefix;
  for (char c : dumped) {
    out += c;
    if (c == '\n') {
      out += prefix;
    }
  }
  return out;
}

}  // namespace

std::optional<OutputFormat> parse_output_format(std::string_view name) {
  if (name == "jsonl") {
    return OutputFormat::jsonl;
  }
  if (name == "json-array") {
    return OutputFormat::json_array;
  }
  if (name == "summary-counts") {
    return OutputFormat::summary_counts;
  }
  return std::nullopt;
}

EventPrinter::EventPrinter(OutputFormat format, bool json_document, Sink sink)
    : m_format(format), m_json_document(json_document), m_sink(std::move(sink)) {}

void EventPrinter::row(const Event& event) {
  if (m_format == OutputFormat::summary_counts) {
    m_counts.add(event);
    return;
  }
  const Json out = output_row(event);
  if (m_format == OutputFormat::jsonl && !m_json_document) {
    m_sink(compact(out) + "\n");
  } else if (m_json_document) {
    m_sink(fmt::format("{}\n{}", m_rows == 0 ? "{\n  \"schema\": 1,\n  \"events\": [" : ",",
                       nested(out, 2)));
  } else {
    m_sink(fmt::format("{}\n{}", m_rows == 0 ? "[" : ",", nested(out, 1)));
  }
  ++m_rows;
}

void EventPrinter::finish(bool store_exists, std::size_t invalid_lines) {
  if (m_format == OutputFormat::summary_counts) {
    Json out = m_counts.to_json(store_exists);
    if (m_json_document) {
      Json document{{"schema", 1}};
      document.update(out);
      document["invalid_lines"] = invalid_lines;
      out = std::move(document);
    }
    m_sink(util::dump_json(out));
    return;
  }
  if (m_json_document) {
    m_sink(m_rows == 0 ? "{\n  \"schema\": 1,\n  \"events\": []" : "\n  ]");
    m_sink(fmt::format(",\n  \"invalid_lines\": {}\n}}\n", invalid_lines));
  } else if (m_format == OutputFormat::json_array) {
    m_sink(m_rows == 0 ? "[]\n" : "\n]\n");
  }
}

}  // namespace gv::events
