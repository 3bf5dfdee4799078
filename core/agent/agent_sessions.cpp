#include "core/agent/agent_sessions.hpp"

#include <nlohmann/json.hpp>

#include "core/events/event_record.hpp"

namespace gv::agent {

std::filesystem::path agent_sessions_path(const std::filesystem::path& common_dir) {
  return common_dir / "git-vault" / "agent-sessions.jsonl";
}

std::optional<std::string> session_for(const std::filesystem::path& file,
                                       std::string_view agent_session, Instant now,
                                       util::LockDeadline deadline) {
  const std::string key = nlohmann::json(std::string(agent_session)).dump();
  const std::string needle = "\"agent_session\":" + key;
  std::string session;
  const bool done = util::append_locked_if(
      file,
      [&](std::string_view current) {
        // The newest line for the key wins; a torn or foreign line is passed over.
        std::size_t at = current.rfind(needle);
        while (at != std::string_view::npos) {
          const std::size_t begin = current.rfind('\n', at);
          const std::size_t line_begin = begin == std::string_view::npos ? 0 : begin + 1;
          const std::size_t end = current.find('\n', at);
          const nlohmann::json line = nlohmann::json::parse(
              current.substr(line_begin, end == std::string_view::npos ? end : end - line_begin),
              nullptr, false);
          const auto id = line.is_object() ? line.find("session_id") : line.end();
          if (id != line.end() && id->is_string() &&
              events::valid_session_id(id->get<std::string>())) {
            session = id->get<std::string>();
            return std::string();
          }
          at = at == 0 ? std::string_view::npos : current.rfind(needle, at - 1);
        }
        session = events::make_session_id(now.seconds, events::random_alnum(8));
        const nlohmann::ordered_json record{{"agent_session", std::string(agent_session)},
                                            {"session_id", session},
                                            {"first_seen", format_instant(now)}};
        return record.dump(-1, ' ', false, nlohmann::ordered_json::error_handler_t::replace) + "\n";
      },
      "the agent sessions map", deadline);
  if (!done) {
    return std::nullopt;
  }
  return session;
}

}  // namespace gv::agent
