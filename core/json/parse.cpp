#include "core/json/parse.hpp"

#include <fmt/format.h>

#include <algorithm>

namespace gv::json_text {

std::optional<std::size_t> too_deep(std::string_view text, std::size_t max_depth) {
  std::size_t depth = 0;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '"') {
      for (++i; i < text.size() && text[i] != '"'; ++i) {
        if (text[i] == '\\') {
          ++i;
        }
      }
    } else if (c == '[' || c == '{') {
      if (++depth > max_depth) {
        return i;
      }
    } else if ((c == ']' || c == '}') && depth > 0) {
      --depth;
    }
  }
  return std::nullopt;
}

std::size_t line_of_offset(std::string_view text, std::size_t offset) {
  offset = std::min(offset, text.size());
  return 1 + static_cast<std::size_t>(std::count(
                 text.begin(), text.begin() + static_cast<std::ptrdiff_t>(offset), '\n'));
}

namespace {

// nlohmann's message reads "[json.exception.parse_error.101] parse error at line 3, column 5:
// syntax error ..."; the failure carries the line itself, so keep only the part after it.
std::string reason_of(std::string_view what) {
  const std::size_t column = what.find(", column ");
  if (column != std::string_view::npos) {
    const std::size_t colon = what.find(": ", column);
    if (colon != std::string_view::npos) {
      return std::string(what.substr(colon + 2));
    }
  }
  const std::size_t bracket = what.find("] ");
  return std::string(bracket == std::string_view::npos ? what : what.substr(bracket + 2));
}

// The offset of `token` standing alone as a JSON number in `text` (not inside a string).
std::optional<std::size_t> find_number(std::string_view text, std::string_view token) {
  bool in_string = false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (in_string) {
      if (c == '\\') {
        ++i;
      } else if (c == '"') {
        in_string = false;
      }
      continue;
    }
    if (c == '"') {
      in_string = true;
      continue;
    }
    if (text.substr(i).starts_with(token) &&
        (i == 0 || std::string_view(" \t\r\n:,[").find(text[i - 1]) != std::string_view::npos)) {
      return i;
    }
  }
  return std::nullopt;
}

}  // namespace

ParseFailure describe_failure(std::string_view text, const nlohmann::json::exception& error) {
  ParseFailure failure;
  failure.reason = reason_of(error.what());
  if (const auto* parse_error = dynamic_cast<const nlohmann::json::parse_error*>(&error)) {
    // `byte` is 1-based and points at the character that failed.
    failure.offset = parse_error->byte == 0 ? 0 : parse_error->byte - 1;
  } else {
    // out_of_range 406, "number overflow parsing '1e400'": find that number.
    const std::string what = error.what();
    const std::size_t open = what.find('\'');
    const std::size_t close = what.rfind('\'');
    if (open != std::string::npos && close > open + 1) {
      failure.offset =
          find_number(text, std::string_view(what).substr(open + 1, close - open - 1)).value_or(0);
    }
  }
  failure.line = line_of_offset(text, failure.offset);
  return failure;
}

std::string format_failure(std::string_view path, const ParseFailure& failure) {
  return fmt::format("{}:{}: invalid JSON: {}", path, failure.line, failure.reason);
}

}  // namespace gv::json_text
