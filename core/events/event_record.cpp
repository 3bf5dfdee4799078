#include "core/events/event_record.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <iterator>
#include <random>

#include "core/events/event.hpp"

namespace gv::events {
namespace {

using Json = nlohmann::ordered_json;

bool is_digit(char c) { return c >= '0' && c <= '9'; }
bool is_alnum(char c) { return is_digit(c) || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }

bool all_of(std::string_view text, bool (*pred)(char)) {
  return !text.empty() && std::all_of(text.begin(), text.end(), pred);
}

// `<prefix><digits>_<alnum>` with the alnum part of `length` characters (0: any length >= 1).
bool prefixed_id(std::string_view id, std::string_view prefix, std::size_t length) {
  if (!id.starts_with(prefix)) {
    return false;
  }
  id.remove_prefix(prefix.size());
  const std::size_t underscore = id.find('_');
  if (underscore == std::string_view::npos) {
    return false;
  }
  const std::string_view digits = id.substr(0, underscore);
  const std::string_view rest = id.substr(underscore + 1);
  return all_of(digits, is_digit) && all_of(rest, is_alnum) &&
         (length == 0 || rest.size() == length);
}

// `n` digits at `text[at]`.
bool digits_at(std::string_view text, std::size_t at, std::size_t n) {
  return text.size() >= at + n && all_of(text.substr(at, n), is_digit);
}

bool optional_of(const Json& object, std::string_view key, bool (Json::*is)() const noexcept) {
  const auto it = object.find(key);
  return it == object.end() || it->is_null() || ((*it).*is)();
}

}  // namespace

bool valid_event_id(std::string_view id) { return prefixed_id(id, "evt_", 6); }

bool valid_session_id(std::string_view id) { return prefixed_id(id, "sess_", 0); }

bool valid_timestamp(std::string_view text) {
  // YYYY-MM-DDTHH:MM:SS
  if (!digits_at(text, 0, 4) || text.size() < 19 || text[4] != '-' || !digits_at(text, 5, 2) ||
      text[7] != '-' || !digits_at(text, 8, 2) || (text[10] != 'T' && text[10] != 't') ||
      !digits_at(text, 11, 2) || text[13] != ':' || !digits_at(text, 14, 2) || text[16] != ':' ||
      !digits_at(text, 17, 2)) {
    return false;
  }
  std::size_t i = 19;
  if (i < text.size() && text[i] == '.') {
    const std::size_t start = ++i;
    while (i < text.size() && is_digit(text[i])) {
      ++i;
    }
    if (i == start) {
      return false;
    }
  }
  const std::string_view zone = text.substr(i);
  if (zone == "Z" || zone == "z") {
    return true;
  }
  return zone.size() == 6 && (zone[0] == '+' || zone[0] == '-') && digits_at(zone, 1, 2) &&
         zone[3] == ':' && digits_at(zone, 4, 2);
}

std::string random_alnum(std::size_t count) {
  static constexpr std::string_view k_alphabet =
      "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
  std::random_device device;
  std::uniform_int_distribution<std::size_t> pick(0, k_alphabet.size() - 1);
  std::string out;
  for (std::size_t i = 0; i < count; ++i) {
    out += k_alphabet[pick(device)];
  }
  return out;
}

std::string make_event_id(std::int64_t timestamp_ms, std::string_view random6) {
  return fmt::format("evt_{}_{}", timestamp_ms, random6);
}

std::string make_session_id(std::int64_t seconds, std::string_view random) {
  return fmt::format("sess_{}_{}", seconds, random);
}

std::string format_timestamp_ms(std::int64_t timestamp_ms) {
  const std::int64_t seconds = timestamp_ms / 1000;
  const std::int64_t days = seconds / 86400;
  std::int64_t rest = seconds % 86400;
  // Civil date from days since 1970-01-01 (Howard Hinnant's algorithm).
  const std::int64_t z = days + 719468;
  const std::int64_t era = (z >= 0 ? z : z - 146096) / 146097;
  const std::int64_t doe = z - era * 146097;
  const std::int64_t yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
  const std::int64_t doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
  const std::int64_t mp = (5 * doy + 2) / 153;
  const std::int64_t day = doy - (153 * mp + 2) / 5 + 1;
  const std::int64_t month = mp < 10 ? mp + 3 : mp - 9;
  const std::int64_t year = yoe + era * 400 + (month <= 2 ? 1 : 0);
  const std::int64_t hour = rest / 3600;
  rest %= 3600;
  return fmt::format("{:04}-{:02}-{:02}T{:02}:{:02}:{:02}.{:03}Z", year, month, day, hour,
                     rest / 60, rest % 60, timestamp_ms % 1000);
}

std::optional<std::string> check_event(const Json& object) {
  if (!object.is_object()) {
    return std::string("an event is a JSON object");
  }
  for (const auto& [key, value] : object.items()) {
    if (std::find(std::begin(k_event_fields), std::end(k_event_fields), key) ==
        std::end(k_event_fields)) {
      return fmt::format("`{}` is not a field of an event (the schema allows {})", key,
                         "event_id, event_type, category, timestamp, duration_seconds, "
                         "session_id, task, checkpoint, message, detail, error_ref, cwd, "
                         "cc_session_id");
    }
  }
  for (const std::string_view key :
       {"category", "event_type", "message", "event_id", "timestamp", "session_id"}) {
    const auto it = object.find(key);
    if (it == object.end() || it->is_null()) {
      return fmt::format("`{}` is required", key);
    }
    if (!it->is_string() || it->get_ref<const std::string&>().empty()) {
      return fmt::format("`{}` must be a non-empty string", key);
    }
  }
  const auto text = [&](std::string_view key) { return object.at(key).get<std::string>(); };
  if (!valid_event_id(text("event_id"))) {
    return fmt::format("`event_id` `{}` is not `evt_<milliseconds>_<6 letters or digits>`",
                       text("event_id"));
  }
  if (!valid_session_id(text("session_id"))) {
    return fmt::format(
        "`session_id` `{}` is not `sess_<digits>_<letters or digits>` (an agent's own session "
        "id goes in `cc_session_id`)",
        text("session_id"));
  }
  if (!known_category(text("category"))) {
    return fmt::format("`category` `{}` is not one of deviation, blocker, milestone, success",
                       text("category"));
  }
  if (!valid_timestamp(text("timestamp"))) {
    return fmt::format("`timestamp` `{}` is not an ISO 8601 date-time (YYYY-MM-DDTHH:MM:SSZ)",
                       text("timestamp"));
  }
  if (text("message").find_first_of("\r\n") != std::string::npos) {
    return std::string("`message` must be one line (put the rest in `detail`)");
  }
  if (!optional_of(object, "task", &Json::is_number_integer)) {
    return std::string("`task` must be an integer or null");
  }
  for (const std::string_view key : {"checkpoint", "error_ref", "cwd", "cc_session_id"}) {
    if (!optional_of(object, key, &Json::is_string)) {
      return fmt::format("`{}` must be a string or null", key);
    }
  }
  if (!optional_of(object, "detail", &Json::is_object)) {
    return std::string("`detail` must be an object");
  }
  if (const auto it = object.find("duration_seconds"); it != object.end() && !it->is_null()) {
    if (!it->is_number() || it->get<double>() < 0) {
      return std::string("`duration_seconds` must be a number >= 0 or null");
    }
  }
  return std::nullopt;
}

std::string event_line(const Json& object) {
  Json line = Json::object();
  for (const std::string_view key : k_event_fields) {
    const auto it = object.find(key);
    if (it != object.end() && !it->is_null()) {
      line[std::string(key)] = *it;
    } else {
      line[std::string(key)] = key == "detail" ? Json::object() : Json(nullptr);
    }
  }
  return line.dump(-1, ' ', false, Json::error_handler_t::replace) + "\n";
}

}  // namespace gv::events
