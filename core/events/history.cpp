#include "core/events/history.hpp"

#include <cerrno>
#include <cmath>
#include <cstring>
#include <fstream>
#include <nlohmann/json.hpp>

#include "core/dates.hpp"
#include "core/error.hpp"
#include "core/events/line_reader.hpp"
#include "core/util/text.hpp"

namespace gv::events {
namespace {

using PlainJson = nlohmann::json;

std::string_view without_trailing_slashes(std::string_view path) {
  while (path.size() > 1 && path.back() == '/') {
    path.remove_suffix(1);
  }
  return path;
}

}  // namespace

std::variant<Prompt, std::string> parse_history_line(std::string_view line) {
  if (!line.empty() && line.back() == '\r') {
    line.remove_suffix(1);
  }
  PlainJson object;
  try {
    object = PlainJson::parse(line);
  } catch (const nlohmann::json::parse_error&) {
    return std::string("not valid JSON");
  }
  if (!object.is_object()) {
    return std::string("not a JSON object");
  }
  Prompt prompt;
  const auto display = object.find("display");
  if (display == object.end() || !display->is_string()) {
    return std::string("`display` must be a string");
  }
  prompt.display = display->get<std::string>();
  const auto project = object.find("project");
  if (project == object.end() || !project->is_string()) {
    return std::string("`project` must be a string");
  }
  prompt.project = project->get<std::string>();
  const auto timestamp = object.find("timestamp");
  if (timestamp != object.end() && timestamp->is_number()) {
    const double ms = timestamp->get<double>();
    if (!std::isfinite(ms) || ms < 0) {
      return std::string("`timestamp` must be epoch milliseconds");
    }
    prompt.timestamp_ms = static_cast<std::int64_t>(ms);
  } else if (timestamp != object.end() && timestamp->is_string()) {
    const std::optional<Instant> instant = parse_instant(timestamp->get<std::string>());
    if (!instant) {
      return std::string("`timestamp` is not a date");
    }
    prompt.timestamp_ms = instant->seconds * 1000;
  } else {
    return std::string("`timestamp` must be epoch milliseconds");
  }
  const auto session = object.find("sessionId");
  if (session != object.end() && session->is_string() &&
      !session->get_ref<const std::string&>().empty()) {
    prompt.session_id = session->get<std::string>();
    prompt.has_session = true;
  } else {
    prompt.session_id = "day " + format_date(date_of(Instant{prompt.timestamp_ms / 1000}));
  }
  return prompt;
}

std::optional<std::filesystem::path> history_location(const std::optional<std::string>& flag,
                                                      const std::optional<std::string>& config,
                                                      const std::optional<std::string>& home) {
  if (flag && !flag->empty()) {
    return std::filesystem::path(*flag);
  }
  if (config && !config->empty()) {
    return std::filesystem::path(*config);
  }
  if (home && !home->empty()) {
    return std::filesystem::path(*home) / ".claude" / "history.jsonl";
  }
  return std::nullopt;
}

bool same_project(std::string_view project, std::string_view root) {
  return without_trailing_slashes(project) == without_trailing_slashes(root);
}

HistoryQuery read_history(const std::filesystem::path& file, std::string_view root,
                          std::optional<std::int64_t> since_ms) {
  HistoryQuery query;
  std::error_code error;
  if (!std::filesystem::exists(file, error)) {
    return query;
  }
  query.exists = true;
  std::ifstream in(file, std::ios::binary);
  if (!in) {
    throw Error("{}: cannot read: {}", file.string(), std::strerror(errno));
  }
  LineReader reader(in);
  std::string_view line;
  while (reader.next(line)) {
    if (util::trim(line).empty()) {
      continue;
    }
    std::variant<Prompt, std::string> parsed =
        reader.too_long() ? std::variant<Prompt, std::string>(std::string("line too long"))
                          : parse_history_line(line);
    if (auto* why = std::get_if<std::string>(&parsed)) {
      ++query.invalid_count;
      if (query.invalid.size() < k_max_reported_invalid) {
        query.invalid.push_back({reader.line_number(), reader.unterminated() && !reader.too_long()
                                                           ? *why + " (truncated last line)"
                                                           : *why});
      }
      continue;
    }
    Prompt& prompt = std::get<Prompt>(parsed);
    if (!same_project(prompt.project, root)) {
      ++query.other_projects;
      continue;
    }
    if (since_ms && prompt.timestamp_ms <= *since_ms) {
      continue;
    }
    query.prompts.push_back(std::move(prompt));
  }
  if (in.bad()) {
    throw Error("{}: cannot read: {}", file.string(), std::strerror(errno));
  }
  return query;
}

}  // namespace gv::events
