#pragma once

#include <cstddef>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <variant>

namespace gv::json_text {

// Deeper documents are refused before nlohmann sees them: its parser and its value destructor
// recurse once per level, and a file nested 100,000 deep would exhaust the stack. No file
// git-vault reads comes close to this.
inline constexpr std::size_t k_max_depth = 512;

// Where a document could not be read: the 0-based byte offset and its 1-based line, and the
// reason in words (nlohmann's `[json.exception...]` prefix and position removed).
struct ParseFailure {
  std::size_t offset = 0;
  std::size_t line = 1;
  std::string reason;
};

// The offset of the bracket that opens level `max_depth + 1` of arrays and objects in `text`
// (strings are skipped), or nullopt when the text nests no deeper. Linear, no recursion.
[[nodiscard]] std::optional<std::size_t> too_deep(std::string_view text,
                                                  std::size_t max_depth = k_max_depth);

// The 1-based line of byte `offset`.
[[nodiscard]] std::size_t line_of_offset(std::string_view text, std::size_t offset);

// The failure for an exception nlohmann threw while parsing `text`.
[[nodiscard]] ParseFailure describe_failure(std::string_view text,
                                            const nlohmann::json::exception& error);

// Parses `text` as `Json` (nlohmann::json or ordered_json) after the depth check. Never throws
// for bad input: a failure comes back as ParseFailure (number overflow such as `1e400`
// included, with the line of that number).
template <class Json>
[[nodiscard]] std::variant<Json, ParseFailure> parse(std::string_view text) {
  if (const std::optional<std::size_t> offset = too_deep(text)) {
    return ParseFailure{
        *offset, line_of_offset(text, *offset),
        "arrays and objects nested more than " + std::to_string(k_max_depth) + " levels deep"};
  }
  try {
    return Json::parse(text.begin(), text.end());
  } catch (const nlohmann::json::exception& error) {
    return describe_failure(text, error);
  }
}

// `text` as a JSON object, or nullopt when it does not parse or is not an object: what the
// merge drivers read each side with before they leave a conflict to git.
template <class Json>
[[nodiscard]] std::optional<Json> parse_object(std::string_view text) {
  auto parsed = parse<Json>(text);
  Json* const doc = std::get_if<Json>(&parsed);
  if (doc == nullptr || !doc->is_object()) {
    return std::nullopt;
  }
  return std::move(*doc);
}

// `path:line: invalid JSON: reason`, the message a reader throws with.
[[nodiscard]] std::string format_failure(std::string_view path, const ParseFailure& failure);

}  // namespace gv::json_text
