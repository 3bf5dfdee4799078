#include "core/merge/state_merge.hpp"

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "core/json/parse.hpp"

namespace gv::merge {
namespace {

using Json = nlohmann::ordered_json;

// The value under `key`, or null when the object has none: a key removed and a key set to null
// merge alike.
Json at(const Json& object, const std::string& key) {
  const auto found = object.find(key);
  return found == object.end() ? Json() : *found;
}

std::string text_at(const Json& object, const char* key) {
  const Json value = at(object, key);
  return value.is_string() ? value.get<std::string>() : std::string{};
}

// memory_health when both sides changed it.
Json merge_health(const Json& base, const Json& ours, const Json& theirs) {
  // ISO 8601 UTC times compare as text.
  const bool theirs_later = text_at(theirs, "last_distilled") > text_at(ours, "last_distilled");
  Json merged = ours;
  std::vector<std::string> keys;
  for (const auto& [key, value] : ours.items()) {
    keys.push_back(key);
  }
  for (const auto& [key, value] : theirs.items()) {
    if (!ours.contains(key)) {
      keys.push_back(key);
    }
  }
  for (const std::string& key : keys) {
    const Json b = at(base, key);
    const Json o = at(ours, key);
    const Json t = at(theirs, key);
    Json value;
    if (o == t || t == b) {
      value = o;
    } else if (o == b) {
      value = t;
    } else if (key.starts_with("last_") && (o.is_string() || o.is_null()) &&
               (t.is_string() || t.is_null())) {
      value = text_at(theirs, key.c_str()) > text_at(ours, key.c_str()) ? t : o;
    } else if (key.ends_with("_count") && o.is_number_integer() && t.is_number_integer() &&
               (b.is_null() || b.is_number_integer())) {
      const std::int64_t from = b.is_null() ? 0 : b.get<std::int64_t>();
      value = o.get<std::int64_t>() + t.get<std::int64_t>() - from;
    } else {
      value = theirs_later ? t : o;  // a figure of the vault as the last action left it
    }
    merged[key] = value;
  }
  return merged;
}

}  // namespace

std::optional<std::string> merge_state(std::string_view ancestor_text, std::string_view ours_text,
                                       std::string_view theirs_text) {
  std::optional<Json> ours = json_text::parse_object<Json>(ours_text);
  const std::optional<Json> theirs = json_text::parse_object<Json>(theirs_text);
  if (!ours || !theirs) {
    return std::nullopt;
  }
  // Both sides added the file: nothing in common.
  const Json base = json_text::parse_object<Json>(ancestor_text).value_or(Json::object());
  Json merged = *ours;
  std::vector<std::string> keys;
  for (const auto& [key, value] : ours->items()) {
    keys.push_back(key);
  }
  for (const auto& [key, value] : theirs->items()) {
    if (!ours->contains(key)) {
      keys.push_back(key);
    }
  }
  for (const std::string& key : keys) {
    const Json b = at(base, key);
    const Json o = at(*ours, key);
    const Json t = at(*theirs, key);
    if (o == t || t == b) {
      continue;  // ours already holds it
    }
    if (o == b) {
      if (theirs->contains(key)) {
        merged[key] = t;
      } else {
        merged.erase(key);
      }
      continue;
    }
    if (key != "memory_health" || !o.is_object() || !t.is_object()) {
      return std::nullopt;  // another tool's key, changed on both sides: the user decides
    }
    merged[key] = merge_health(b.is_object() ? b : Json::object(), o, t);
  }
  return merged.dump(2, ' ', false, Json::error_handler_t::replace) + "\n";
}

}  // namespace gv::merge
