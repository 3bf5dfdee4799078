#include "core/distill/memory_health.hpp"

#include <nlohmann/json.hpp>

#include "core/error.hpp"
#include "core/json/parse.hpp"
#include "core/json/text.hpp"
#include "core/memory/lines.hpp"

namespace gv::distill {
namespace {

using Json = nlohmann::ordered_json;

// Re-indents a nested dump so it sits at `indent` spaces inside the outer object.
std::string indent_nested(const std::string& dumped, std::string_view indent) {
  std::string out;
  for (char c : dumped) {
    out += c;
    if (c == '\n') {
      out += indent;
    }
  }
  return out;
}

// memory_health of a state.json text, or an empty object when it has none or is not JSON.
Json health_of(std::optional<std::string_view> state) {
  if (!state) {
    return Json::object();
  }
  Json doc = Json::parse(*state, nullptr, false);
  if (!doc.is_object() || !doc.contains("memory_health") || !doc["memory_health"].is_object()) {
    return Json::object();
  }
  return std::move(doc["memory_health"]);
}

std::optional<std::string> string_at(const Json& health, const std::string& key) {
  const auto it = health.find(key);
  return it != health.end() && it->is_string() ? std::optional(it->get<std::string>())
                                               : std::nullopt;
}

std::optional<std::int64_t> integer_at(const Json& health, const std::string& key) {
  const auto it = health.find(key);
  return it != health.end() && it->is_number_integer() ? std::optional(it->get<std::int64_t>())
                                                       : std::nullopt;
}

}  // namespace

CursorsOnRevert cursors_on_revert(std::optional<std::string_view> before,
                                  std::optional<std::string_view> after,
                                  std::optional<std::string_view> now) {
  const Json was = health_of(before);
  const Json left = health_of(after);
  const Json is = health_of(now);
  CursorsOnRevert result;
  for (const auto& [key, value] : left.items()) {
    if (key.rfind("last_", 0) != 0 || key == "last_distilled" || !value.is_string()) {
      continue;
    }
    const std::string name = key.substr(5);
    if (string_at(was, key) == value.get<std::string>()) {
      continue;  // the run did not move this cursor
    }
    // Two runs within the clock's resolution leave the same time: the count tells them apart.
    const std::string count_key = name + "_count";
    if (string_at(is, key) != value.get<std::string>() ||
        integer_at(is, count_key) != integer_at(left, count_key)) {
      result.moved_on.push_back(name);
      continue;
    }
    result.restore.push_back({name, string_at(was, key), integer_at(was, count_key)});
  }
  return result;
}

std::string refresh_memory_health(std::optional<std::string_view> existing,
                                  const HealthRefresh& refresh) {
  Json state = Json::object();
  if (existing) {
    auto parsed = json_text::parse<Json>(*existing);
    if (const auto* failure = std::get_if<json_text::ParseFailure>(&parsed)) {
      throw Error("{}:{}: not valid JSON ({})", k_state_path, failure->line, failure->reason);
    }
    state = std::move(std::get<Json>(parsed));
    if (!state.is_object()) {
      throw Error("{}:1: expected a JSON object", k_state_path);
    }
  }
  Json health = state.contains("memory_health") && state["memory_health"].is_object()
                    ? state["memory_health"]
                    : Json::object();
  const std::int64_t count =
      health.contains("distill_count") && health["distill_count"].is_number_integer()
          ? health["distill_count"].get<std::int64_t>()
          : 0;
  health["last_distilled"] = format_instant(refresh.now);
  health["distill_count"] = count + (refresh.changed_memories ? 1 : 0);
  health["total_memories"] = refresh.total_memories;
  health["never_retrieved"] = refresh.never_retrieved;
  health["health_score"] = refresh.health_score;
  health["status"] = refresh.status;
  if (!refresh.cursor.empty()) {
    const std::string count_key = refresh.cursor + "_count";
    const std::int64_t runs = health.contains(count_key) && health[count_key].is_number_integer()
                                  ? health[count_key].get<std::int64_t>()
                                  : 0;
    health["last_" + refresh.cursor] = format_instant(refresh.now);
    health[count_key] = runs + 1;
  }
  for (const CursorRestore& cursor : refresh.restore) {
    const std::string last_key = "last_" + cursor.name;
    const std::string count_key = cursor.name + "_count";
    if (cursor.last) {
      health[last_key] = *cursor.last;
    } else {
      health.erase(last_key);
    }
    if (cursor.count) {
      health[count_key] = *cursor.count;
    } else {
      health.erase(count_key);
    }
  }

  if (!existing) {
    return Json{{"memory_health", health}}.dump(2) + "\n";
  }
  const std::string value = indent_nested(health.dump(2), "  ");
  const std::string_view text = *existing;
  if (const auto span = json_text::find_top_level_value(text, "memory_health")) {
    std::string out{text.substr(0, span->begin)};
    out += value;
    out += text.substr(span->end);
    return out;
  }
  // No memory_health yet: add it as the last key, before the closing brace.
  const std::size_t close = text.rfind('}');
  std::size_t last = close;
  while (last > 0 && (text[last - 1] == ' ' || text[last - 1] == '\n' || text[last - 1] == '\r' ||
                      text[last - 1] == '\t')) {
    --last;
  }
  const bool empty_object = text[last - 1] == '{';
  std::string out{text.substr(0, last)};
  out += empty_object ? "\n" : ",\n";
  out += "  \"memory_health\": " + value + "\n";
  out += text.substr(close);
  return out;
}

std::optional<std::string> read_health_cursor(std::optional<std::string_view> state,
                                              std::string_view cursor) {
  return string_at(health_of(state), "last_" + std::string(cursor));
}

}  // namespace gv::distill
