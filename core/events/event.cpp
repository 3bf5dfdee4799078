#include "core/events/event.hpp"

#include <fmt/format.h>

#include <array>

namespace gv::events {
namespace {

using Json = nlohmann::ordered_json;

constexpr std::array<std::string_view, 4> k_categories{"deviation", "blocker", "milestone",
                                                       "success"};

// A required string field: present, a string, not empty.
std::optional<std::string> required_string(const Json& object, std::string_view key,
                                           std::string& why) {
  const auto it = object.find(key);
  if (it == object.end()) {
    why = fmt::format("missing `{}`", key);
    return std::nullopt;
  }
  if (!it->is_string() || it->get_ref<const std::string&>().empty()) {
    why = fmt::format("`{}` must be a non-empty string", key);
    return std::nullopt;
  }
  return it->get<std::string>();
}

// An optional field that is a string or null. False when it is something else.
bool optional_string(const Json& object, std::string_view key, std::optional<std::string>& out,
                     std::string& why) {
  const auto it = object.find(key);
  if (it == object.end() || it->is_null()) {
    return true;
  }
  if (!it->is_string()) {
    why = fmt::format("`{}` must be a string or null", key);
    return false;
  }
  out = it->get<std::string>();
  return true;
}

}  // namespace

bool known_category(std::string_view category) {
  for (std::string_view known : k_categories) {
    if (known == category) {
      return true;
    }
  }
  return false;
}

std::optional<std::string> repo_of_cwd(const std::optional<std::string>& cwd) {
  if (!cwd) {
    return std::nullopt;
  }
  std::string_view path = *cwd;
  while (!path.empty() && path.back() == '/') {
    path.remove_suffix(1);
  }
  const std::size_t slash = path.rfind('/');
  return std::string(slash == std::string_view::npos ? path : path.substr(slash + 1));
}

std::optional<std::string> Event::repo() const { return repo_of_cwd(cwd); }

std::variant<Event, std::string> parse_event_line(std::string_view line) {
  if (!line.empty() && line.back() == '\r') {
    line.remove_suffix(1);
  }
  Json object;
  try {
    object = Json::parse(line);
  } catch (const nlohmann::json::parse_error&) {
    return std::string("not valid JSON");
  }
  if (!object.is_object()) {
    return std::string("not a JSON object");
  }
  Event event;
  std::string why;
  const auto take = [&](std::string_view key, std::string& out) {
    if (auto value = required_string(object, key, why)) {
      out = std::move(*value);
      return true;
    }
    return false;
  };
  if (!take("event_id", event.event_id) || !take("event_type", event.event_type) ||
      !take("category", event.category) || !take("timestamp", event.timestamp) ||
      !take("session_id", event.session_id) || !take("message", event.message)) {
    return why;
  }
  if (!known_category(event.category)) {
    return fmt::format("unknown category `{}`", event.category);
  }
  if (const auto it = object.find("task"); it != object.end() && !it->is_null()) {
    if (!it->is_number_integer()) {
      return std::string("`task` must be an integer or null");
    }
    event.task = it->get<std::int64_t>();
  }
  if (!optional_string(object, "checkpoint", event.checkpoint, why) ||
      !optional_string(object, "cwd", event.cwd, why) ||
      !optional_string(object, "cc_session_id", event.cc_session_id, why) ||
      !optional_string(object, "error_ref", event.error_ref, why)) {
    return why;
  }
  if (const auto it = object.find("detail"); it != object.end() && !it->is_null()) {
    if (!it->is_object()) {
      return std::string("`detail` must be an object");
    }
    event.detail = *it;
  }
  if (const auto it = object.find("duration_seconds"); it != object.end() && !it->is_null()) {
    if (!it->is_number() || it->get<double>() < 0) {
      return std::string("`duration_seconds` must be a number >= 0 or null");
    }
  }
  event.raw = std::move(object);
  return event;
}

bool EventFilter::matches(const Event& event) const {
  if (session && event.session_id != *session) {
    return false;
  }
  if (task && (event.task ? std::to_string(*event.task) : std::string("null")) != *task) {
    return false;
  }
  if (category && event.category != *category) {
    return false;
  }
  if (event_type && event.event_type != *event_type) {
    return false;
  }
  if (checkpoint && event.checkpoint != *checkpoint) {
    return false;
  }
  if (since && event.timestamp < *since) {
    return false;
  }
  if (until && event.timestamp > *until) {
    return false;
  }
  if (repo && event.repo() != *repo) {
    return false;
  }
  return true;
}

void SummaryCounts::add(const Event& event) {
  ++total_events;
  ++by_category[event.category];
  ++by_event_type[event.event_type];
  ++by_repo[event.repo().value_or("null")];
}

nlohmann::ordered_json SummaryCounts::to_json(bool store_exists) const {
  const auto object = [](const std::map<std::string, std::size_t>& counts) {
    Json out = Json::object();
    for (const auto& [key, count] : counts) {
      out[key] = count;
    }
    return out;
  };
  Json out{{"total_events", total_events},
           {"by_category", object(by_category)},
           {"by_event_type", object(by_event_type)}};
  if (store_exists) {
    out["by_repo"] = object(by_repo);
  }
  return out;
}

nlohmann::ordered_json output_row(const Event& event) {
  Json row = event.raw;
  const std::optional<std::string> repo = event.repo();
  row["repo"] = repo ? Json(*repo) : Json(nullptr);
  return row;
}

}  // namespace gv::events
