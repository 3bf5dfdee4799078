#include "core/agent/record_event.hpp"

#include <fmt/format.h>

#include <variant>

#include "core/agent/agent_sessions.hpp"
#include "core/agent/hook_payload.hpp"
#include "core/agent/secrets.hpp"
#include "core/error.hpp"
#include "core/events/event_record.hpp"
#include "core/events/event_store.hpp"
#include "core/json/parse.hpp"

namespace gv::agent {
namespace {

using Json = nlohmann::ordered_json;

// The flag that sets each field, for messages about a missing or malformed one.
std::string_view flag_of(std::string_view field) {
  if (field == "event_type") {
    return "--type";
  }
  if (field == "session_id") {
    return "--session";
  }
  if (field == "cc_session_id") {
    return "--agent-session";
  }
  if (field == "duration_seconds") {
    return "--duration";
  }
  if (field == "error_ref") {
    return "--error-ref";
  }
  for (const std::string_view plain :
       {"category", "message", "task", "checkpoint", "detail", "cwd"}) {
    if (field == plain) {
      return plain;
    }
  }
  return {};
}

// Adds "(--flag)" to a schema complaint about a field that has one.
std::string with_flag(const std::string& why) {
  if (why.size() < 2 || why.front() != '`') {
    return why;
  }
  const std::size_t close = why.find('`', 1);
  const std::string_view field = std::string_view(why).substr(1, close - 1);
  const std::string_view flag = flag_of(field);
  if (flag.empty()) {
    return why;
  }
  return fmt::format("{} ({}{})", why, flag.starts_with("--") ? "" : "--", flag);
}

Json read_object(std::string_view text, std::string_view what) {
  auto parsed = json_text::parse<Json>(text);
  if (const auto* failure = std::get_if<json_text::ParseFailure>(&parsed)) {
    throw UsageError("{}: line {}: not valid JSON ({})", what, failure->line, failure->reason);
  }
  Json object = std::move(std::get<Json>(parsed));
  if (!object.is_object()) {
    throw UsageError("{}: not a JSON object", what);
  }
  return object;
}

// Scans one field's text; throws on the first credential-shaped line.
void scan_field(std::string_view field, std::string_view text) {
  const std::vector<SecretFinding> found = scan_secrets(text);
  if (!found.empty()) {
    throw Error(
        "event not recorded: `{}` line {} looks like a {} (remove it; the secret is not repeated "
        "here)",
        field, found.front().line, found.front().kind);
  }
}

void scan_strings(const std::string& field, const Json& value) {
  if (value.is_string()) {
    scan_field(field, value.get_ref<const std::string&>());
  } else if (value.is_object()) {
    for (const auto& [key, inner] : value.items()) {
      scan_field(field + "." + key + " (key)", key);
      scan_strings(field + "." + key, inner);
    }
  } else if (value.is_array()) {
    for (std::size_t i = 0; i < value.size(); ++i) {
      scan_strings(fmt::format("{}[{}]", field, i), value[i]);
    }
  }
}

}  // namespace

Json build_event(const EventRequest& request, const EventSetting& setting) {
  Json event = Json::object();
  std::optional<HookPayload> payload;
  if (request.input) {
    Json object = read_object(*request.input, "--stdin");
    if (is_hook_payload(object)) {
      std::variant<HookPayload, std::string> read = read_hook_payload(*request.input);
      if (const auto* why = std::get_if<std::string>(&read)) {
        throw UsageError("--stdin: {}", *why);
      }
      payload = std::get<HookPayload>(std::move(read));
    } else {
      event = std::move(object);
    }
  }
  if (payload) {
    if (!payload->agent_session.empty()) {
      event["cc_session_id"] = payload->agent_session;
    }
    if (!payload->cwd.empty()) {
      event["cwd"] = payload->cwd;
    }
    if (!request.category && !request.event_type && !request.message) {
      const std::optional<HookEvent> from_hook =
          hook_event(*payload, setting.workdir, setting.agent);
      if (!from_hook) {
        throw UsageError(
            "a {} payload records no event by itself: give --category, --type and --message",
            payload->event_name);
      }
      event["category"] = from_hook->category;
      event["event_type"] = from_hook->event_type;
      if (from_hook->checkpoint) {
        event["checkpoint"] = *from_hook->checkpoint;
      }
      event["message"] = from_hook->message;
      event["detail"] = from_hook->detail;
    }
  }
  const auto set = [&](std::string_view key, const auto& value) {
    if (value) {
      event[std::string(key)] = *value;
    }
  };
  set("category", request.category);
  set("event_type", request.event_type);
  set("message", request.message);
  set("task", request.task);
  set("checkpoint", request.checkpoint);
  set("session_id", request.session);
  set("cc_session_id", request.agent_session);
  set("duration_seconds", request.duration_seconds);
  set("error_ref", request.error_ref);
  set("cwd", request.cwd);
  if (request.detail) {
    event["detail"] = read_object(*request.detail, "--detail");
  }

  const std::int64_t ms = setting.now.seconds * 1000 + setting.millisecond;
  if (!event.contains("event_id")) {
    event["event_id"] = events::make_event_id(ms, events::random_alnum(6));
  }
  if (!event.contains("timestamp")) {
    event["timestamp"] = events::format_timestamp_ms(ms);
  }
  if ((!event.contains("cc_session_id") || event["cc_session_id"].is_null()) &&
      !setting.agent_session.empty()) {
    event["cc_session_id"] = setting.agent_session;
  }
  if ((!event.contains("cwd") || event["cwd"].is_null()) && !setting.cwd.empty()) {
    event["cwd"] = setting.cwd;
  }
  if (!event.contains("session_id") || event["session_id"].is_null()) {
    const auto agent_session = event.find("cc_session_id");
    if (agent_session != event.end() && agent_session->is_string() &&
        !agent_session->get_ref<const std::string&>().empty()) {
      const std::optional<std::string> session =
          session_for(agent_sessions_path(setting.common_dir), agent_session->get<std::string>(),
                      setting.now, setting.deadline);
      if (!session) {
        throw Error("the agent sessions map stayed locked past the time limit");
      }
      event["session_id"] = *session;
    } else {
      event["session_id"] = events::make_session_id(setting.now.seconds, events::random_alnum(8));
    }
  }
  if (const std::optional<std::string> why = events::check_event(event)) {
    throw UsageError("{}", with_flag(*why));
  }
  return event;
}

void refuse_secrets(const Json& event) {
  for (const std::string_view key : {"message", "checkpoint", "event_type", "error_ref"}) {
    const auto it = event.find(key);
    if (it != event.end() && it->is_string()) {
      scan_field(key, it->get_ref<const std::string&>());
    }
  }
  if (const auto detail = event.find("detail"); detail != event.end()) {
    scan_strings("detail", *detail);
  }
}

bool append_event(const std::filesystem::path& common_dir, const Json& event,
                  util::LockDeadline deadline) {
  return util::append_locked(events::event_journal_path(common_dir), events::event_line(event),
                             "the event journal", deadline);
}

std::optional<Json> record_event(const EventRequest& request, const EventSetting& setting) {
  Json event = build_event(request, setting);
  refuse_secrets(event);
  if (!append_event(setting.common_dir, event, setting.deadline)) {
    return std::nullopt;
  }
  return event;
}

}  // namespace gv::agent
